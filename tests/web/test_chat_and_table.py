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


async def test_chat_and_the_table_show_a_finished_daily_alike_during_and_after_its_day(world, discord):  # noqa: F811
    """One answer (app.shown): a daily's finished player sees par and the coach's score in chat and at the table
    while the day runs (docs/RULES.md), Share under both, and the same after the day; someone else's view of it,
    while the day runs, has none of it."""
    from app.daily import attempt
    from app.play import solo
    from app.shown import shown_to
    from cogs.game_message.view import game_message
    from cogs.plumbing import clock
    from games.engine import legal_actions

    turn = await attempt.open_daily(world.store, world.alice.id, clock.now, guild_id=world.guild.id)
    record = turn.record
    while record.status == "playing":
        record = (await solo.move(world.store, record.id, world.alice.id, record.version,
                                  legal_actions(record.state)[-1])).record
    await world.store.set_daily_par(record.day, 7, "T0 T1", -3)
    identity = DiscordIdentity(CLIENT_ID, CLIENT_SECRET, discord.api_base, bot_token=discord.bot_token)
    app = web.Application()
    add_routes(app, Table(store=lambda: world.store, identity=identity))
    client = TestClient(TestServer(app))
    await client.start_server()
    alice = bearer(discord.player(world.alice.id, "alice"))

    async def both() -> tuple[str, list[str], dict]:
        chat = await game_message(record, bot=world.bot, viewer=world.alice.id)
        labels = [getattr(item, "label", None) or getattr(getattr(item, "item", None), "label", "")
                  for item in chat.view.children]
        table = (await (await client.get(f"/api/games/{record.id}", headers=alice)).json())["state"]
        return chat.embed.description or "", labels, table

    try:
        for _ in range(2):  # while the day runs, then once it is over
            words, labels, table = await both()
            assert table["par"] == 7 and table["coach"] == -3 and table["share"]
            assert "par 7 seeing every card" in words and "coach -3" in words  # the chat says what the table says
            assert table["par_text"] == "par 7 seeing every card · coach -3"
            assert ("Share result" in labels) == table["share"]
            await world.env.advance_time(86_400)
        assert (await shown_to(world.store, record, world.bob.id, clock.now())).par == 7  # the day is over: anyone
    finally:
        await client.close()
        await identity.close()
    record2 = (await attempt.open_daily(world.store, world.alice.id, clock.now, guild_id=world.guild.id)).record
    while record2.status == "playing":
        record2 = (await solo.move(world.store, record2.id, world.alice.id, record2.version,
                                   legal_actions(record2.state)[-1])).record
    await world.store.set_daily_par(record2.day, 5, "T0", -1)
    theirs = await shown_to(world.store, record2, world.bob.id, clock.now())  # the day runs: not Bob's to see
    assert theirs.par is None and theirs.coach is None and not theirs.replay and not theirs.share
    mine = await shown_to(world.store, record2, world.alice.id, clock.now())
    assert mine.par == 5 and mine.coach == -1 and mine.replay and mine.share
