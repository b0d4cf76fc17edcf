"""The table's HTTP plumbing: bounded JSON bodies, answers with the security headers, the player's language."""

from __future__ import annotations

import json
import re

import orjson
from aiohttp import web

from games.i18n import messages_for
from web.identity import Player

BODY_LIMIT = 2048  # bytes: the largest request body the API reads (a move is about 40)
MAX_ID = 2**63 - 1
LOCALE = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$")
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com")
SECURITY_HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
                    "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}
PLAYER = web.RequestKey("player", Player)  # the request's player, set by the guard (web.routes)


def _dumps(body) -> str:
    return orjson.dumps(body).decode()  # (a table's JSON in a fifth of the standard library's time)


def refusal(status: int, error: str, message: str, **extra) -> web.Response:
    return web.json_response({"error": error, "message": message, **extra}, status=status,
                             headers=SECURITY_HEADERS, dumps=_dumps)


def answer(body: dict, status: int = 200) -> web.Response:
    return web.json_response(body, status=status, headers=SECURITY_HEADERS, dumps=_dumps)


async def read_json(request: web.Request) -> dict:
    """The request's JSON object, at most ``BODY_LIMIT`` bytes; ``web.HTTPException`` answers otherwise."""
    if request.content_length is not None and request.content_length > BODY_LIMIT:
        raise web.HTTPRequestEntityTooLarge(max_size=BODY_LIMIT, actual_size=request.content_length,
                                            headers=SECURITY_HEADERS)
    raw = await request.content.read(BODY_LIMIT + 1)
    if len(raw) > BODY_LIMIT:
        raise web.HTTPRequestEntityTooLarge(max_size=BODY_LIMIT, actual_size=len(raw), headers=SECURITY_HEADERS)
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise web.HTTPBadRequest(text=json.dumps({"error": "bad-json", "message": "The body is not JSON."}),
                                 content_type="application/json", headers=SECURITY_HEADERS) from None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text=json.dumps({"error": "bad-json", "message": "The body is not a JSON object."}),
                                 content_type="application/json", headers=SECURITY_HEADERS)
    return body


def locale_of(request: web.Request):
    """The player's language: ``?locale=`` (the Discord locale the client read from the SDK), else English."""
    value = request.query.get("locale", "")
    return messages_for(value if LOCALE.match(value) else None)


def game_id_of(request: web.Request) -> int:
    text = request.match_info["game"]
    if not text.isdigit() or int(text) > MAX_ID:
        raise web.HTTPNotFound(headers=SECURITY_HEADERS)
    return int(text)
