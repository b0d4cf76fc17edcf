"""The table's HTTP plumbing: bounded JSON bodies, answers with the security headers, the player's language."""

from __future__ import annotations

import json
import logging
import re

import orjson
from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from games.engine import whole_number
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
        body = orjson.loads(raw or b"{}")  # (nesting deeper than 1,024 is refused as not JSON, never a RecursionError)
    except (ValueError, RecursionError):
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
    game_id = whole_number(request.match_info["game"])
    if game_id is None or game_id > MAX_ID:
        raise web.HTTPNotFound(headers=SECURITY_HEADERS)
    return game_id


class QuietRefusals(logging.Filter):
    """aiohttp logs each request it cannot parse (a URL or a header over 8 KB, a malformed line) with a traceback,
    though it only answers 400: a client's mistake, not the server's. Such a record keeps one line, without the
    traceback and without the request's text (a header may carry a token); the server's own faults stay as
    they are."""

    def filter(self, record: logging.LogRecord) -> bool:
        refused = record.exc_info[1] if record.exc_info else None
        if isinstance(refused, HttpProcessingError) and 400 <= (refused.code or 0) < 500:
            record.msg, record.args = "refused a request it could not read (%s, status %d)", (
                type(refused).__name__, refused.code)
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.INFO, logging.getLevelName(logging.INFO)
        return True


def quiet_refusals() -> None:
    """Install ``QuietRefusals`` on aiohttp's server log, once."""
    server_log = logging.getLogger("aiohttp.server")
    if not any(isinstance(f, QuietRefusals) for f in server_log.filters):
        server_log.addFilter(QuietRefusals())
