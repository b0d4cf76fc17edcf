"""The strip follows moves made anywhere: a challenge's game played in chat (the real bot through SimCord) reaches
the table's strip of a friend in the same Activity instance within 2 s, pushed on its event stream; and a move
made by another process on the same database (the bot run as several processes) is found by the strip's reading
the followed games again, within 2 s too."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from app.challenges import play as challenges
from app.play import solo
from games.engine import legal_actions, preset
from storage import open_store
from tests.daily.helpers import click_code
from tests.discord.fixtures import db_path, simcord_bot, world  # noqa: F401
from tests.discord.harness import button
from tests.storage.helpers import Clock
from tests.web.conftest import bearer
from tests.web.fake_discord import CLIENT_ID, CLIENT_SECRET
from web.identity import DiscordIdentity
from web.routes import Table, add_routes

INSTANCE = "i-together-chat"


class Stream:
    """One player's event stream of the strip: each ``data:`` event's friends, as they come."""

    def __init__(self, response) -> None:
        self.response = response
        self.strips: list[tuple[float, list[dict]]] = []
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for line in self.response.content:
            if line.startswith(b"data: "):
                self.strips.append((time.perf_counter(), json.loads(line[6:])["friends"]))

    async def shows(self, name: str, room: int, since: float, within: float) -> float:
        """Seconds from ``since`` until a strip shows ``name`` in ``room``; fails after ``within``."""
        while True:
            for at, friends in self.strips:
                if at >= since and any(f["name"] == name and f["room"] == room for f in friends):
                    return at - since
            assert time.perf_counter() - since < within, f"no strip showed {name} in room {room}: {self.strips}"
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        self.task.cancel()
        self.response.close()


async def follow(client, token: str, game_id: int) -> Stream:
    response = await client.get("/api/together", params={"instance": INSTANCE, "game": str(game_id)},
                                headers=bearer(token))
    assert response.status == 200
    return Stream(response)


async def test_a_challenge_move_made_in_chat_reaches_a_friends_strip_at_the_table_within_2_s(world, discord,  # noqa: F811
                                                                                            monkeypatch):
    monkeypatch.setattr("web.together.RECHECK", 60.0)  # only the move's event can bring it in time
    identity = DiscordIdentity(CLIENT_ID, CLIENT_SECRET, discord.api_base, bot_token=discord.bot_token)
    app = web.Application()
    add_routes(app, Table(store=lambda: world.store, identity=identity))  # the bot's own store, as bot/service.py
    client = TestClient(TestServer(app))
    await client.start_server()
    alice = discord.player(world.alice.id, "alice")
    bob = discord.player(world.bob.id, "bob")
    discord.instance_in(INSTANCE, world.guild.id, world.channel.id, world.alice.id, world.bob.id)
    streams: list[Stream] = []
    try:
        invite = (await world.alice.slash(world.channel, "scoundrel challenge", seed="K7Q2-M9XD")).response.message
        alice_game = await world.alice.click(invite, custom_id=button(invite, "Join").custom_id)
        await world.bob.click(invite, custom_id=button(invite, "Join").custom_id)
        games = {e.user_id: e.game.id for e in await world.store.challenges.entrants(invite_challenge(world))}
        opened = time.perf_counter()
        streams = [await follow(client, alice, games[world.alice.id]), await follow(client, bob, games[world.bob.id])]
        await streams[1].shows("alice", 1, opened, 5.0)  # both seated, each showing their game of the challenge
        started = time.perf_counter()
        await click_code(world.alice, alice_game.response, "A")  # in chat: alice avoids room 1
        delay = await streams[1].shows("alice", 2, started, 2.0)
        assert delay < 2.0
        last = streams[1].strips[-1][1]
        assert [f["playing"] for f in last] == ["challenge"] and "♠" not in json.dumps(last)
    finally:
        for stream in streams:
            await stream.close()
        await client.close()
        await identity.close()


def invite_challenge(world) -> int:  # noqa: F811
    """The one challenge the test started (the keeper watches it)."""
    return next(iter(world.bot.get_cog("StandingsKeeper").watched))


@contextlib.asynccontextmanager
async def two_processes(tmp_path, discord):
    """Two stores on one database file stand for two processes: the table is served over the first, with alice and
    bob of one challenge following it; the second is the other process, whose events the table never hears.
    Yields that store, alice's game and bob's stream, once bob's strip shows alice in room 1."""
    path = tmp_path / "shared.sqlite3"
    table_store, chat_store = await open_store(path, clock=Clock()), await open_store(path, clock=Clock())
    identity = DiscordIdentity(CLIENT_ID, CLIENT_SECRET, discord.api_base, bot_token=discord.bot_token)
    app = web.Application()
    add_routes(app, Table(store=lambda: table_store, identity=identity))
    client = TestClient(TestServer(app))
    await client.start_server()
    alice, bob = discord.player(1, "alice"), discord.player(2, "bob")
    discord.instance_in(INSTANCE, 10, 20, 1, 2)
    streams: list[Stream] = []
    try:
        challenge = await challenges.start(table_store, 1, preset("classic"), guild_id=10, channel_id=20,
                                           locale="en-US", seed=77)
        mine = (await challenges.join(table_store, challenge.id, 1, "alice")).game
        theirs = (await challenges.join(table_store, challenge.id, 2, "bob")).game
        opened = time.perf_counter()
        streams = [await follow(client, alice, mine.id), await follow(client, bob, theirs.id)]
        await streams[1].shows("alice", 1, opened, 5.0)
        yield chat_store, mine, streams[1]
    finally:
        for stream in streams:
            await stream.close()
        await client.close()
        await identity.close()
        await chat_store.close()
        await table_store.close()


async def test_a_move_made_by_another_process_reaches_the_strip_within_2_s(tmp_path, discord):
    """A move made through the other process is found by the strip's second read."""
    async with two_processes(tmp_path, discord) as (chat_store, mine, stream):
        started = time.perf_counter()
        avoid = next(a for a in legal_actions(mine.state) if a.code == "A")
        await solo.move(chat_store, mine.id, 1, mine.version, avoid)  # the other process: no event reaches the table
        assert await stream.shows("alice", 2, started, 2.0) < 2.0


async def test_a_game_given_up_by_another_process_reaches_the_strip(tmp_path, discord):
    """Giving up ends a game at the version it had: the second read still sees it (by its status)."""
    async with two_processes(tmp_path, discord) as (chat_store, mine, stream):
        started = time.perf_counter()
        await solo.abandon(chat_store, mine.id, 1)
        while not any(f["name"] == "alice" and f["status"] == "abandoned" for at, friends in stream.strips
                      if at >= started for f in friends):
            assert time.perf_counter() - started < 2.0, stream.strips[-1]
            await asyncio.sleep(0.02)
