"""The web's HTTP plumbing: bounded JSON bodies, answers with the security headers, the player's language, and
refusals by HTTP's conventions.

Every refusal is JSON ``{"error": code, "message": words}`` with its status, those aiohttp makes itself too (an
unknown address, a method it does not serve, a body too large, a request it cannot parse), and none repeats what
the client sent; a 429 or a 503 says when to try again (``Retry-After``, whole seconds). ``as_json`` is the outermost
middleware of every application the bot serves (``adopt_conventions``); a request aiohttp cannot even parse (a bad
or oversized header or URL) never reaches a middleware, so the servers run their applications with ``Runner``,
whose connections answer it the same way and log one line, never the request's text.
"""

from __future__ import annotations

import json
import logging
import math
import re

import orjson
from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError, LineTooLong

from games.engine import whole_number
from games.i18n import messages_for
from web.identity import Player

log = logging.getLogger(__name__)

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


# Refusals by status, for those aiohttp makes itself: a stable code and plain words (never the request's text).
STATUS_WORDS = {
    400: ("bad-request", "The request could not be read."),
    401: ("unauthenticated", "Sign in first."),
    403: ("forbidden", "This is not yours to ask for."),
    404: ("not-found", "There is nothing at this address."),
    405: ("method-not-allowed", "This address does not take that method."),
    408: ("timeout", "The request took too long to arrive."),
    413: ("too-large", "The request's body is too large."),
    500: ("internal", "The server failed on this request; try again."),
    503: ("unavailable", "The server cannot answer right now; try again soon."),
    504: ("timeout", "The server took too long on this request; try again."),
}
TOO_LONG = ("too-long", "The request's address or one of its headers is too long.")
KEPT_HEADERS = ("Allow", "Retry-After")  # what an aiohttp refusal says that its JSON answer keeps


def retry_after(seconds: float) -> dict[str, str]:
    """The ``Retry-After`` header: whole seconds, at least 1 (HTTP has no fractions)."""
    return {"Retry-After": str(max(1, math.ceil(seconds)))}


def refusal(status: int, error: str | None = None, message: str | None = None, *,
            headers: dict[str, str] | None = None, **extra) -> web.Response:
    """A refusal as JSON; ``error`` and ``message`` default to the status's own (``STATUS_WORDS``)."""
    code, words = STATUS_WORDS.get(status, ("refused" if status < 500 else "internal", "The request was refused."))
    return web.json_response({"error": error or code, "message": message or words, **extra}, status=status,
                             headers={**SECURITY_HEADERS, **(headers or {})}, dumps=_dumps)


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


# --- refusals by HTTP's conventions ------------------------------------------------------------------------------
@web.middleware
async def as_json(request: web.Request, handler):
    """aiohttp's own refusals (``HTTPException``: an unknown route, a method not served, a body too large) as
    their status's JSON, keeping ``Allow`` and ``Retry-After``; an unexpected failure as a 500, its traceback
    logged."""
    try:
        return await handler(request)
    except web.HTTPException as error:
        if error.status < 400 or error.content_type == "application/json":  # a redirect, or already ours
            raise
        return refusal(error.status, headers={name: error.headers[name] for name in KEPT_HEADERS
                                              if name in error.headers})
    except Exception:  # noqa: BLE001 - whatever failed, the client gets JSON and the log the traceback
        log.exception("the web's %s %s failed", request.method, request.path)
        return refusal(500)


def adopt_conventions(app: web.Application) -> None:
    """Put ``as_json`` outermost on ``app`` (before it starts), once."""
    if as_json not in app.middlewares:
        app.middlewares.insert(0, as_json)


class _Connection(web.RequestHandler):
    """A connection that answers what reaches ``handle_error`` (a request aiohttp could not parse: a bad or
    oversized header or URL) with JSON, and logs one line without the request's text (the parser's own message
    repeats the header)."""

    __slots__ = ()

    def handle_error(self, request, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        if status >= 500:
            log.error("the web failed on a request from %s", request.remote, exc_info=exc)
        else:
            log.warning("the web refused a request from %s that it could not read (%d, %s)", request.remote,
                        status, type(exc).__name__ if exc is not None else "no detail")
        if request.writer.output_size > 0:  # (as aiohttp: part of an answer is out, the connection is broken)
            raise ConnectionError("Response is sent already, cannot send another response with the error message")
        error, words = TOO_LONG if isinstance(exc, LineTooLong) else (None, None)
        answer = refusal(status, error, words)
        answer.force_close()
        return answer


class _Server(web.Server):
    def __call__(self) -> web.RequestHandler:
        return _Connection(self, loop=self._loop, **self._kwargs)


class Runner(web.AppRunner):
    """``web.AppRunner`` whose connections answer a request they cannot parse with JSON (``_Connection``)."""

    async def _make_server(self) -> web.Server:
        server = await super()._make_server()
        server.__class__ = _Server  # (aiohttp has no setting for its connections' class; only __call__ differs)
        return server

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
