"""A daily started at the table has its par solved as chat's /scoundrel daily has it solved: starting it while its
par is unknown raises ``app.events.par_wanted``, and the bot (under SimCord, its service serving the table) solves
it in the solver's worker process, for real, in the background, when the day's own solve ran out of time."""

from __future__ import annotations

import pytest

from app import events
from app.solver.worker import ParTimeout, solve_par
from bot.config import Activity
from tests.discord.fixtures import db_path, world  # noqa: F401
from tests.discord.harness import make_bot
from tests.web.fake_discord import CLIENT_ID, CLIENT_SECRET
from tests.web.test_open_table import api


class MidnightTimesOut:
    """The real solver (``app.solver.worker.solve_par``), except that its first solve, the day's at 00:00, runs out of
    time (a fault injected): the day then has no par until someone asks again."""

    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self, *args, **kwargs):
        self.calls += 1
        if self.calls == 1:
            raise ParTimeout("the solver did not finish in time")
        return await solve_par(*args, **kwargs)


@pytest.fixture
async def simcord_bot(db_path, discord):  # noqa: F811
    activity = Activity(CLIENT_ID, CLIENT_SECRET, "https://table.example.org", discord.api_base)
    bot = make_bot(db_path, service_address=("127.0.0.1", 0), activity=activity, par_solver=MidnightTimesOut())
    yield bot
    await bot.close()


async def test_the_table_asks_for_the_par_of_a_daily_started_while_it_is_unknown(served, alice, store):
    client, table = served
    asked: list[int] = []
    events.listen_par_wanted(store, asked.append)  # as the bot listens (bot/client.py)
    state = (await (await client.post("/api/games", json={"kind": "daily"}, headers=alice)).json())["state"]
    assert asked == [state["day"]]
    await store.set_daily_par(state["day"], 5, "", None)
    await client.post("/api/games", json={"kind": "daily"}, headers=alice)  # the attempt resumed: par is known now
    await client.post("/api/games", json={"kind": "normal"}, headers=alice)
    assert asked == [state["day"]]


@pytest.mark.simcord(settle_timeout=60)
async def test_a_daily_started_at_the_table_has_its_par_solved(world, discord):  # noqa: F811
    token = discord.player(world.alice.id, "alice")
    await world.env.advance_time(60)  # the day's solve at 00:00 ran out of time: no par
    calls = world.bot.par_solver.calls
    assert calls >= 1 and (await world.store.get_daily(1)).par is None
    state = await api(world, "POST", "/api/games", token, kind="daily")
    assert state["kind"] == "daily" and state["day"] == 1
    await world.env.advance_time(60)  # solved in the background: the answer did not wait for it
    assert world.bot.par_solver.calls == calls + 1 and (await world.store.get_daily(1)).par is not None
