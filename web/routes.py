"""The table's HTTP routes: the OAuth2 code exchange, the game API and the client's files.

``add_routes(app, table)`` puts them on an aiohttp application: the bot's service app (``bot/service.py``) or
``scoundrel-bot web``'s own. Every ``/api/`` route but the code exchange needs ``Authorization: Bearer <access
token>``; a player reaches only their own games. Bodies are small JSON objects (``BODY_LIMIT``); a request the
game refuses gets a 4xx with ``{"error": <code>, "message": <text in the player's language>}`` and changes nothing.

The server is the authority: ``POST /api/games/{id}/move`` sends ``{"version": n, "action": "T2"}``; a version
that is not the game's current one moves nothing and answers ``409`` with the game as it stands (``state``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import web

from storage import NORMAL
from web import play
from web.extras import add_extras
from web.http import (
    PLAYER,
    SECURITY_HEADERS,
    answer,
    game_id_of,
    locale_of,
    read_json,
    refusal,
)
from web.identity import DiscordIdentity, LocalIdentity, Refused, Unavailable
from web.limits import RateLimit
from web.play import PlayError
from web.table import table
from web.words import rules, words

log = logging.getLogger(__name__)
INSTANCE = re.compile(r"[A-Za-z0-9_-]{1,100}")  # an Activity instance id, as the SDK gives it
@dataclass
class Table:
    """What the routes serve from: the store (a callable: the bot opens it after the routes exist), who the
    players are, and the bot's settings they need."""

    store: Callable[[], Any]  # () -> the Store (the bot opens it after the routes exist)
    identity: DiscordIdentity | LocalIdentity
    client_id: int = 0
    default_preset: str = "classic"
    daily_enabled: bool = True
    static: Path | None = None  # the built client (default: web/static in the package)
    limits: RateLimit = field(default_factory=RateLimit)
    # What the process does once the table has moved a game (the chat redraws the game's message) or started a
    # daily whose par is not known yet (its solve). Called as the answer leaves, without waiting for them: they
    # start their own work, and a failure of theirs is logged, never the player's.
    after_move: Callable[[Any, Any], None] | None = None  # (the game as it now stands, the player's Messages)
    par_missing: Callable[[int], None] | None = None  # (the day)


def static_folder() -> Path:
    return Path(str(resources.files("web").joinpath("static")))


class Routes:
    def __init__(self, served: Table) -> None:
        self.t = served
        self._page: str | None = None  # index.html with the client id, read once

    @property
    def store(self):
        return self.t.store()

    # --- who is asking --------------------------------------------------------------------------------
    @web.middleware
    async def guard(self, request: web.Request, handler):
        """Every API request but the code exchange names its player; each player has a request budget."""
        if not request.path.startswith("/api/") or request.path == "/api/token":
            return await handler(request)
        header = request.headers.get("Authorization", "")
        token = header[7:].strip() if header.startswith("Bearer ") else ""
        if not token or len(token) > 256:
            return refusal(401, "unauthenticated", "Sign in first: this request carries no access token.")
        try:
            player = await self.t.identity.player(token)
        except Refused:
            return refusal(401, "unauthenticated", "This access token is not valid; open the table again.")
        except Unavailable as down:
            log.warning("the table could not check a player: %s", down)
            return refusal(503, "unavailable", "Discord could not be asked who you are; try again soon.")
        wait = self.t.limits.allow(player.id)
        if wait:
            return refusal(429, "rate-limited", "Too many requests; slow down.",
                           retry_after=round(wait, 2))
        request[PLAYER] = player
        return await handler(request)

    async def token(self, request: web.Request) -> web.Response:
        """``POST /api/token {"code": …}`` → ``{"access_token": …}``: the Activity's code exchanged with Discord
        (the client secret stays here)."""
        body = await read_json(request)
        code = body.get("code")
        if not isinstance(code, str) or not 0 < len(code) <= 256:
            return refusal(400, "bad-code", "The body needs the authorization code: {\"code\": \"…\"}.")
        try:
            access = await self.t.identity.exchange(code)
        except Refused:
            return refusal(401, "refused", "Discord refused this authorization code.")
        except Unavailable as down:
            log.warning("the table could not exchange a code: %s", down)
            return refusal(503, "unavailable", "Discord could not be reached; try again soon.")
        return answer({"access_token": access})

    async def me(self, request: web.Request) -> web.Response:
        player = request[PLAYER]
        tr = locale_of(request)
        return answer({"player": {"id": str(player.id), "name": player.name}, "locale": tr.locale,
                       "words": words(tr), "rules": rules(tr), "daily": self.t.daily_enabled,
                       "client_id": str(self.t.client_id)})

    # --- games ------------------------------------------------------------------------------------------
    async def shown(self, record, tr) -> dict:
        store = self.store
        par, coach = await play.known_par(store, record)
        hinted = record.kind != "daily" and (record.hinted if record.hinted is not None  # read with the move
                                             else await store.is_hinted(record.id))
        return table(record, tr, par=par, coach=coach, hinted=hinted, review=not play.day_running(store, record))

    async def current(self, request: web.Request) -> web.Response:
        """``GET /api/game?kind=normal|daily``: the player's game of that kind (``null`` when there is none)."""
        kind = request.query.get("kind", NORMAL)
        if kind not in play.KINDS:
            return refusal(400, "bad-kind", "kind must be normal or daily.")
        record = await play.current(self.store, request[PLAYER].id, kind)
        return answer({"state": None if record is None else await self.shown(record, locale_of(request))})

    async def start(self, request: web.Request) -> web.Response:
        """``POST /api/games {"kind": "normal"|"daily"}``: a new game, or the one already in progress."""
        body = await read_json(request)
        kind = body.get("kind", NORMAL)
        if kind not in play.KINDS:
            return refusal(400, "bad-kind", "kind must be normal or daily.")
        instance = body.get("instance_id")
        if instance is not None and (not isinstance(instance, str) or not INSTANCE.fullmatch(instance)):
            return refusal(400, "bad-instance", "instance_id must be the Activity's instance id.")
        player, tr = request[PLAYER], locale_of(request)
        guild_id, channel_id = await self.t.identity.place(instance, player.id) if instance else (None, None)
        record, par_missing = await play.start(self.store, player.id, player.name, kind, self.t.default_preset,
                                               daily_enabled=self.t.daily_enabled, guild_id=guild_id,
                                               channel_id=channel_id)
        if par_missing is not None and self.t.par_missing is not None:
            follow(self.t.par_missing, par_missing)
        return answer({"state": await self.shown(record, tr)})

    async def game(self, request: web.Request) -> web.Response:
        record = await play.own_game(self.store, request[PLAYER].id, game_id_of(request))
        return answer({"state": await self.shown(record, locale_of(request))})

    async def move(self, request: web.Request) -> web.Response:
        game_id = game_id_of(request)
        body = await read_json(request)
        version, action = body.get("version"), body.get("action")
        if type(version) is not int or not 0 <= version <= 10_000:
            return refusal(400, "bad-version", "version must be the game's version, a whole number.")
        if not isinstance(action, str) or not 0 < len(action) <= 3:
            return refusal(400, "bad-action", "action must be an action code such as T2, W1 or A.")
        tr = locale_of(request)
        record, moved = await play.move(self.store, request[PLAYER].id, game_id, version, action)
        state = await self.shown(record, tr)
        if not moved:
            return refusal(409, "stale", tr("The game had moved on: this is where it stands now."), state=state)
        if self.t.after_move is not None:
            follow(self.t.after_move, record, tr)
        return answer({"state": state})

    # --- errors -------------------------------------------------------------------------------------------
    @web.middleware
    async def refusals(self, request: web.Request, handler):
        """A ``PlayError`` becomes its 4xx in the player's language."""
        try:
            return await handler(request)
        except PlayError as error:
            tr = locale_of(request)
            fields = {key: value for key, value in error.fields.items() if key != "engine"}
            text = tr.engine_text(error.message) if error.fields.get("engine") else tr(error.message, **fields)
            return refusal(error.status, "refused", text)

    # --- the client's files ---------------------------------------------------------------------------
    async def index(self, request: web.Request) -> web.StreamResponse:
        """The page, with the app's client id for the Embedded App SDK (public: it is in every invite link)."""
        html = self.page()
        if html is None:
            return web.Response(status=503, text="The table's client is not built: run `npm ci && npm run build` "
                                "in web/client (or reinstall with Node.js present).", headers=SECURITY_HEADERS)
        return web.Response(text=html, content_type="text/html",
                            headers=dict(SECURITY_HEADERS, **{"Cache-Control": "no-cache"}))

    def page(self) -> str | None:
        if self._page is None:
            path = (self.t.static or static_folder()) / "index.html"
            if not path.is_file():
                return None
            self._page = path.read_text(encoding="utf-8").replace(
                '<meta name="client-id" content="0"', f'<meta name="client-id" content="{int(self.t.client_id)}"')
        return self._page

    async def asset(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if not re.fullmatch(r"[A-Za-z0-9_.-]{1,120}", name) or name.startswith("."):
            raise web.HTTPNotFound()
        return self.file(f"assets/{name}", immutable=True)

    def file(self, name: str, immutable: bool = False) -> web.StreamResponse:
        path = (self.t.static or static_folder()) / name
        if not path.is_file():
            raise web.HTTPNotFound(headers=SECURITY_HEADERS)
        headers = dict(SECURITY_HEADERS)
        headers["Cache-Control"] = "public, max-age=31536000, immutable" if immutable else "no-cache"
        return web.FileResponse(path, headers=headers)


def follow(call: Callable[..., None], *args) -> None:
    """One of the process's hooks (``Table.after_move``, ``par_missing``): its failure is not the request's."""
    try:
        call(*args)
    except Exception:  # noqa: BLE001 - the move is made and answered whatever the chat does
        log.exception("the table's %s hook failed", getattr(call, "__name__", "process"))


def add_routes(app: web.Application, served: Table) -> Routes:
    """Put the table's routes and middlewares on ``app`` (before it starts)."""
    routes = Routes(served)
    app.middlewares.append(routes.refusals)
    app.middlewares.append(routes.guard)
    app.router.add_post("/api/token", routes.token)
    app.router.add_get("/api/me", routes.me)
    app.router.add_get("/api/game", routes.current)
    app.router.add_post("/api/games", routes.start)
    app.router.add_get(r"/api/games/{game}", routes.game)
    app.router.add_post(r"/api/games/{game}/move", routes.move)
    app.router.add_get("/", routes.index)
    app.router.add_get(r"/assets/{name}", routes.asset)
    add_extras(app, routes)
    return routes
