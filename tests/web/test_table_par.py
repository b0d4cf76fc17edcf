"""A daily started at the table has its par solved as chat's /scoundrel daily has it solved: the routes hand the
day to the process's hook (``Table.par_missing``) while its par is unknown, and the bot (under SimCord, its service
serving the table) solves it in the solver's worker process, for real, in the background."""

from __future__ import annotations

import pytest

from bot.config import Activity
from scoundrel.par import solve_par
from tests.discord.fixtures import db_path, world  # noqa: F401
from tests.discord.harness import make_bot
from tests.web.fake_discord import CLIENT_ID, CLIENT_SECRET
from tests.web.test_open_table import api


@pytest.fixture
async def simcord_bot(db_path, discord):  # noqa: F811
    activity = Activity(CLIENT_ID, CLIENT_SECRET, "https://table.example.org", discord.api_base)
    bot = make_bot(db_path, service_address=("127.0.0.1", 0), activity=activity, par_solver=solve_par)
    yield bot
    await bot.close()


async def test_the_table_asks_for_the_par_of_a_daily_started_while_it_is_unknown(served, alice, store):
    client, table = served
    asked: list[int] = []
    table.par_missing = asked.append  # the process's hook (bot/chat_follows.py in the bot)
    state = (await (await client.post("/api/games", json={"kind": "daily"}, headers=alice)).json())["state"]
    assert asked == [state["day"]]
    await store.set_daily_par(state["day"], 5, "", None)
    await client.post("/api/games", json={"kind": "daily"}, headers=alice)  # the attempt resumed: par is known now
    await client.post("/api/games", json={"kind": "normal"}, headers=alice)
    assert asked == [state["day"]]


@pytest.mark.simcord(settle_timeout=60)
async def test_a_daily_started_at_the_table_has_its_par_solved(world, discord):  # noqa: F811
    token = discord.player(world.alice.id, "alice")
    keeper = world.bot.get_cog("DailyPoster").par
    state = await api(world, "POST", "/api/games", token, kind="daily")
    assert state["kind"] == "daily" and (await world.store.get_daily(state["day"])).par is None
    await world.env.advance_time(60)  # the solve runs in the background: the answer did not wait for it
    challenge = await world.store.get_daily(state["day"])
    assert challenge.par is not None and keeper.solves == 1
