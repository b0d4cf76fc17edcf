"""Friends at the same table: the strip of who else is in the Activity instance, pushed as it changes.

``GET /api/together?instance=<id>&game=<id>`` is a stream of server-sent events (``text/event-stream``): the
strip at once, then again whenever someone in the instance sits down, leaves, or moves in the game they show, and
at least every ``KEEPALIVE`` seconds; while it is open the player keeps their seat. The client reads it with
``fetch`` (it carries the player's token), and where a proxy blocks the stream it polls ``GET
/api/together/strip`` instead, with the same arguments, every ``POLL`` seconds or so. ``game`` is the game the
player shows (their own, or it is ignored).

The strip is built on the server, for each viewer, by ``app.play.together``: names, and for a game played
together (today's daily, the same challenge) its room and health, its score once over. Never a card. A move is
heard through the application's event, whatever surface made it (chat's, the table's, a challenge's close); a
move another process made (the bot run as several processes on one database) is found by reading the followed
games again every ``RECHECK`` seconds.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable

from aiohttp import web

from app import events
from app.daily.attempt import now as table_now
from app.errors import CorruptGame, GameNotFound, NotYourGame
from app.play import solo
from app.play.together import Friend, Tables
from web.http import PLAYER, SECURITY_HEADERS, answer, refusal

KEEPALIVE = 15.0  # seconds between two events when nothing changes (proxies close a silent stream)
POLL = 1.5  # seconds between two polls, for the client that cannot stream (said in each answer)
GAP = 0.3  # seconds at least between two strips of one stream: a burst of moves is sent as one strip
RECHECK = 1.0  # seconds between two reads of an instance's games, for the moves other processes make
INSTANCE = re.compile(r"[A-Za-z0-9_-]{1,100}")


def friend_json(friend: Friend) -> dict:
    return {"id": str(friend.player_id), "name": friend.name, "playing": friend.playing, "room": friend.room,
            "health": friend.health, "status": friend.status, "score": friend.score}


class Together:
    def __init__(self, routes, tables: Tables | None = None) -> None:
        self.routes = routes
        self.tables = tables or Tables()
        self.heard: tuple[object, Callable[[], None]] | None = None  # the store whose moves it hears, how to stop

    def hear(self) -> None:
        """Listen to the moves of the store the routes serve (opened by the bot after the routes exist): a move
        from any surface wakes the strips that show its game."""
        store = self.routes.store
        if self.heard is None or self.heard[0] is not store:
            if self.heard is not None:
                self.heard[1]()
            self.heard = (store, events.listen_moves(store, self.tables.moved))

    async def _seat(self, request: web.Request) -> tuple[str, int] | web.Response:
        """Sit the player at the instance the request names, with the game it names if it is theirs."""
        instance = request.query.get("instance", "")
        if not INSTANCE.fullmatch(instance):
            return refusal(400, "bad-instance", "instance must be the Activity's instance id.")
        player = request[PLAYER]
        if not await self.routes.t.identity.in_instance(instance, player.id):
            return refusal(403, "not-there", "You are not in this Activity.")
        game_text = request.query.get("game", "")
        game_id = None
        if re.fullmatch(r"[0-9]{1,18}", game_text):
            try:
                game_id = (await solo.own_game(self.routes.store, int(game_text), player.id, damaged=True)).id
            except (GameNotFound, NotYourGame, CorruptGame):
                game_id = None
        self.hear()
        self.tables.sit(instance, player.id, player.name, game_id)
        return instance, player.id

    async def strip(self, instance: str, player_id: int) -> str:
        """The viewer's strip as the JSON text sent: each friend's JSON is written once per change and kind of
        viewer (``View.drawn``), and each viewer's strip joins them, leaving the viewer out."""
        view = await self.tables.view(self.routes.store, instance, player_id, table_now(self.routes.store))
        drawn = view.drawn.get("json")
        if drawn is None:
            drawn = view.drawn["json"] = [(f.player_id, json.dumps(friend_json(f), separators=(",", ":")))
                                          for f in view.friends]
        return '{"friends":[' + ",".join(text for who, text in drawn if who != player_id) + f'],"poll":{POLL}}}'

    async def poll(self, request: web.Request) -> web.Response:
        seated = await self._seat(request)
        if isinstance(seated, web.Response):
            return seated
        await self.tables.recheck(self.routes.store, seated[0], RECHECK)
        return answer(json.loads(await self.strip(*seated)))

    async def stream(self, request: web.Request) -> web.StreamResponse:
        seated = await self._seat(request)
        if isinstance(seated, web.Response):
            return seated
        instance, player_id = seated
        response = web.StreamResponse(headers=dict(SECURITY_HEADERS, **{
            "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}))
        await response.prepare(request)
        version, written = -1, 0.0
        loop = asyncio.get_running_loop()
        try:
            while True:
                seen = self.tables.instances[instance].version if instance in self.tables.instances else 0
                if seen != version:
                    version, written = seen, loop.time()
                    await response.write(f"data: {await self.strip(instance, player_id)}\n\n".encode())
                elif loop.time() - written >= KEEPALIVE:
                    written = loop.time()
                    await response.write(b": still here\n\n")
                self.tables.sit(instance, player_id, request[PLAYER].name, self._game_of(instance, player_id))
                await asyncio.sleep(GAP)
                if await self.tables.wait(instance, version, RECHECK) == version:  # quiet: other processes' moves
                    await self.tables.recheck(self.routes.store, instance, RECHECK)
        except ConnectionResetError:  # the player closed the table (a cancelled handler goes the same way out)
            pass
        finally:
            self.tables.leave(instance, player_id)
        return response

    def _game_of(self, instance: str, player_id: int) -> int | None:
        seat = self.tables.instances[instance].seats.get(player_id) if instance in self.tables.instances else None
        return seat.game_id if seat is not None else None


def add_together(app: web.Application, routes) -> Together:
    together = Together(routes)
    app.router.add_get("/api/together", together.stream)
    app.router.add_get("/api/together/strip", together.poll)
    return together
