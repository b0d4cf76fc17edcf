"""The table's HTTP routes: the OAuth2 code exchange, the game API and the client's files.

``add_routes(app, table)`` puts them on an aiohttp application: the bot's service app (``bot/service.py``) or
``scoundrel-bot web``'s own. Every ``/api/`` route but the code exchange needs ``Authorization: Bearer <access
token>``; a player reaches only their own games. Bodies are small JSON objects (``BODY_LIMIT``); a request the
game refuses gets a 4xx with ``{"error": <code>, "message": <text in the player's language>}`` and changes nothing;
every other refusal is JSON of the same shape too (``web.http``), and a 429 or 503 carries ``Retry-After``.

The server is the authority: ``POST /api/games/{id}/move`` sends ``{"version": n, "action": "T2"}``; a version
that is not the game's current one moves nothing and answers ``409`` with the game as it stands (``state``).
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import web

from app.errors import StaleVersion
from app.records import NORMAL
from games.i18n import N_
from web import play
from web.extras import add_extras
from web.http import (
    PLAYER,
    SECURITY_HEADERS,
    adopt_conventions,
    answer,
    game_id_of,
    locale_of,
    quiet_refusals,
    read_json,
    refusal,
    retry_after,
)
from web.identity import DiscordIdentity, LocalIdentity, Refused, Unavailable
from web.limits import RateLimit, SignIns, client_address
from web.play import PlayError
from web.table import table
from web.together import Together, add_together
from web.words import rules, words

log = logging.getLogger(__name__)
STALE = N_("The game had moved on: this is where it stands now.")
INSTANCE = re.compile(r"[A-Za-z0-9_-]{1,100}")  # an Activity instance id, as the SDK gives it
CHALLENGE = "challenge"  # GET /api/game's kind for the game of a challenge running where the table was opened
BUSY_RETRY = 30  # seconds a client is told to wait when the solver or the replays are busy (503)
DISCORD_RETRY = 10  # and when Discord could not be asked who the player is
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
    sign_ins: SignIns = field(default_factory=SignIns)  # the code exchange's own, tighter budgets
    # What the process does once the table has moved a game (the chat redraws the game's message). Called as the
    # answer leaves, without waiting for it: it starts its own work, and a failure of its is logged, never the
    # player's.
    after_move: Callable[[Any, Any], None] | None = None  # (the game as it now stands, the player's Messages)


def static_folder() -> Path:
    return Path(str(resources.files("web").joinpath("static")))


class Routes:
    def __init__(self, served: Table) -> None:
        self.t = served
        self._page: str | None = None  # index.html with the client id, read once
        self.together: Together | None = None  # the strip of friends at the table (web/together.py)

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
            return refusal(503, "unavailable", "Discord could not be asked who you are; try again soon.",
                           headers=retry_after(DISCORD_RETRY))
        wait = self.t.limits.allow(player.id)
        if wait:
            return refusal(429, "rate-limited", "Too many requests; slow down.", headers=retry_after(wait),
                           retry_after=round(wait, 2))
        request[PLAYER] = player
        return await handler(request)

    async def token(self, request: web.Request) -> web.Response:
        """``POST /api/token {"code": …}`` → ``{"access_token": …}``: the Activity's code exchanged with Discord
        (the client secret stays here). Each is a call to Discord: a client address and a player each have a
        budget of them (``web.limits.SignIns``), the address's checked before Discord is asked."""
        wait = self.t.sign_ins.by_address.allow(client_address(request.remote, request.headers.get("X-Forwarded-For")))
        if wait:
            return self.too_many_sign_ins(wait)
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
            return refusal(503, "unavailable", "Discord could not be reached; try again soon.",
                           headers=retry_after(DISCORD_RETRY))
        try:  # whose token it is (kept: the client's next request needs it anyway)
            player = await self.t.identity.player(access)
        except (Refused, Unavailable):  # the code is spent: hand the token over, the next request asks again
            return answer({"access_token": access})
        wait = self.t.sign_ins.by_player.allow(player.id)
        if wait:
            return self.too_many_sign_ins(wait)
        return answer({"access_token": access})

    @staticmethod
    def too_many_sign_ins(wait: float) -> web.Response:
        return refusal(429, "rate-limited", f"Too many sign-ins; try again in {max(1, math.ceil(wait))} s.",
                       headers=retry_after(wait), retry_after=round(wait, 2))

    async def me(self, request: web.Request) -> web.Response:
        player = request[PLAYER]
        tr = locale_of(request)
        return answer({"player": {"id": str(player.id), "name": player.name}, "locale": tr.locale,
                       "words": words(tr), "rules": rules(tr), "daily": self.t.daily_enabled,
                       "client_id": str(self.t.client_id)})

    # --- games ------------------------------------------------------------------------------------------
    async def shown(self, record, tr, player_id: int) -> dict:
        """The game as the client draws it, as its player may see it (``app.shown``, as chat draws it)."""
        return table(record, tr, await play.shown(self.store, record, player_id))

    async def current(self, request: web.Request) -> web.Response:
        """``GET /api/game?kind=normal|daily``: the player's game of that kind (``null`` when there is none);
        ``kind=challenge&instance=<id>``: their game of a running challenge they joined in the channel where
        Discord says that instance runs."""
        kind = request.query.get("kind", NORMAL)
        if kind not in play.KINDS and kind != CHALLENGE:
            return refusal(400, "bad-kind", "kind must be normal, daily or challenge.")
        player_id = request[PLAYER].id
        if kind == CHALLENGE:
            instance = request.query.get("instance", "")
            if not INSTANCE.fullmatch(instance):
                return refusal(400, "bad-instance", "instance must be the Activity's instance id.")
            _, channel_id = await self.t.identity.place(instance, player_id)
            record = await play.challenge_here(self.store, player_id, channel_id)
        else:
            record = await play.current(self.store, player_id, kind)
        return answer({"state": None if record is None else await self.shown(record, locale_of(request), player_id)})

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
        record = await play.start(self.store, player.id, player.name, kind, self.t.default_preset,
                                  daily_enabled=self.t.daily_enabled, guild_id=guild_id, channel_id=channel_id)
        return answer({"state": await self.shown(record, tr, player.id)})

    async def game(self, request: web.Request) -> web.Response:
        player_id = request[PLAYER].id
        record = await play.own_game(self.store, player_id, game_id_of(request))
        return answer({"state": await self.shown(record, locale_of(request), player_id)})

    async def move(self, request: web.Request) -> web.Response:
        game_id = game_id_of(request)
        body = await read_json(request)
        version, action = body.get("version"), body.get("action")
        if type(version) is not int or not 0 <= version <= 10_000:
            return refusal(400, "bad-version", "version must be the game's version, a whole number.")
        if not isinstance(action, str) or not 0 < len(action) <= 3:
            return refusal(400, "bad-action", "action must be an action code such as T2, W1 or A.")
        tr, player_id = locale_of(request), request[PLAYER].id
        moved = await play.move(self.store, player_id, game_id, version, action)  # StaleVersion: see refusals
        state = await self.shown(moved.record, tr, player_id)
        if self.t.after_move is not None:
            follow(self.t.after_move, moved.record, tr)
        return answer({"state": state})

    # --- errors -------------------------------------------------------------------------------------------
    @web.middleware
    async def refusals(self, request: web.Request, handler):
        """A ``PlayError`` becomes its 4xx in the player's language; a move on a version the game has left (the
        application's ``StaleVersion``, ``GameOver`` or ``DayOver``: nothing moved) a 409 with the game as it
        stands."""
        try:
            return await handler(request)
        except StaleVersion as stale:
            tr = locale_of(request)
            return refusal(409, "stale", tr(STALE), state=await self.shown(stale.record, tr, request[PLAYER].id))
        except PlayError as error:
            tr = locale_of(request)
            fields = {key: value for key, value in error.fields.items() if key != "engine"}
            text = tr.engine_text(error.message) if error.fields.get("engine") else tr(error.message, **fields)
            busy = error.status == 503  # the solver's or the replays' queue: worth asking again a little later
            return refusal(error.status, "busy" if busy else "refused", text,
                           headers=retry_after(BUSY_RETRY) if busy else None)

    # --- the client's files ---------------------------------------------------------------------------
    async def index(self, request: web.Request) -> web.StreamResponse:
        """The page, with the app's client id for the Embedded App SDK (public: it is in every invite link)."""
        html = self.page()
        if html is None:
            return refusal(503, "not-built", "The table's client is not built: run `npm ci && npm run build` in "
                           "web/client (or reinstall with Node.js present).")
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
    """The process's hook (``Table.after_move``): its failure is not the request's."""
    try:
        call(*args)
    except Exception:  # noqa: BLE001 - the move is made and answered whatever the chat does
        log.exception("the table's %s hook failed", getattr(call, "__name__", "process"))


def add_routes(app: web.Application, served: Table) -> Routes:
    """Put the table's routes and middlewares on ``app`` (before it starts)."""
    routes = Routes(served)
    adopt_conventions(app)
    quiet_refusals()  # a request aiohttp cannot read is logged in one line, without a traceback
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
    routes.together = add_together(app, routes)
    return routes
