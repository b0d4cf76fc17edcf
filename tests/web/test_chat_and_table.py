"""One game behind chat and the table: a daily played at the table (the Activity, opened in a server) is on that
server's board in chat (the real bot through SimCord), and counts once: chat's /scoundrel daily then finds the
attempt used."""

from __future__ import annotations

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from tests.discord.fixtures import db_path, world  # noqa: F401
from tests.discord.harness import make_bot
from tests.web.conftest import bearer
from tests.web.fake_discord import CLIENT_ID, CLIENT_SECRET
from tests.web.test_api import a_move
from web.identity import DiscordIdentity
from web.routes import Table, add_routes


@pytest.fixture
async def simcord_bot(db_path):  # noqa: F811
    bot = make_bot(db_path)
    yield bot
    await bot.close()


async def test_a_daily_played_at_the_table_is_on_the_servers_board_in_chat(world, discord):  # noqa: F811
    identity = DiscordIdentity(CLIENT_ID, CLIENT_SECRET, discord.api_base, bot_token=discord.bot_token)
    app = web.Application()
    add_routes(app, Table(store=lambda: world.store, identity=identity))
    client = TestClient(TestServer(app))
    await client.start_server()
    alice = bearer(discord.player(world.alice.id, "alice"))
    discord.instance_in("i-42-gc", world.guild.id, world.channel.id, world.alice.id)
    try:
        state = (await (await client.post("/api/games", json={"kind": "daily", "instance_id": "i-42-gc"},
                                          headers=alice)).json())["state"]
        while not state["over"]:
            state = (await (await client.post(f"/api/games/{state['id']}/move",
                                              json={"version": state["version"], "action": a_move(state)},
                                              headers=alice)).json())["state"]
    finally:
        await client.close()
        await identity.close()
    board = await world.alice.slash(world.channel, "scoundrel leaderboard")
    text = f"{board.response.embeds[0].title}\n{board.response.embeds[0].description}"
    assert "this server" in text and "**alice**" in text and str(state["score"]) in text
    again = await world.alice.slash(world.channel, "scoundrel daily")  # the chat: the attempt is used
    assert "already played" in again.response.content
