"""Scheduled work survives an outage of the database: the daily post, the midnight sweep and the day's par are
each retried with back-off until done for their day, and go out once, the same day, soon after the outage ends.

The fault is real: a table of the bot's SQLite database is renamed away behind its back for the outage (every
query on it fails, as on a database that is down), and renamed back when the outage ends. Time is SimCord's.
"""

from __future__ import annotations

import sqlite3

import pytest

from app.solver.worker import solve_par
from cogs.daily.post import DailyPoster
from storage import ABANDONED, EXPIRED
from tests.daily.helpers import admin_of
from tests.daily.test_daily_post import at, posts, schedule

MINUTE, HOUR = 60, 3600


def rename(database, old: str, new: str) -> None:
    with sqlite3.connect(database) as db:
        db.execute(f"ALTER TABLE {old} RENAME TO {new}")


class Outage:
    """The database fails every query on ``table`` while the outage lasts."""

    def __init__(self, world, table: str) -> None:
        self.world, self.table = world, table

    def __enter__(self) -> Outage:
        rename(self.world.database, self.table, f"{self.table}_away")
        return self

    def __exit__(self, *exc) -> None:
        rename(self.world.database, f"{self.table}_away", self.table)


def poster(world) -> DailyPoster:
    return world.bot.get_cog("DailyPoster")


async def test_a_post_due_while_the_database_is_down_goes_out_once_soon_after_it_is_back(world):
    admin, daily = await schedule(world, "09:30")
    await world.env.advance_time(9 * HOUR)  # 09:00
    with Outage(world, "guild_settings"):  # not even the list of servers to post in can be read
        await world.env.advance_time(HOUR)  # past 09:30, to 10:00
        assert posts(daily) == []
        assert "post" in poster(world).jobs.overdue(world.env.now())  # 30 min late: /healthz says so
    await world.env.advance_time(20 * MINUTE)  # 10:20
    [post] = posts(daily)
    assert post.embeds[0].title.endswith("#1")
    assert at(1, 10, 0) <= post.created_at <= at(1, 10, 20)  # the same day, soon after the outage
    assert poster(world).jobs.overdue(world.env.now()) == []
    await world.env.advance_time(2 * HOUR)
    assert len(posts(daily)) == 1  # once


async def test_a_post_due_during_an_outage_that_lasts_past_a_restart_still_goes_out_that_day(world):
    from tests.daily.helpers import restart

    admin, daily = await schedule(world, "09:30")
    await world.env.advance_time(9 * HOUR)
    with Outage(world, "guild_settings"):
        await restart(world)  # the new process starts with the database down: its catch-up fails too
        await world.env.advance_time(HOUR)
        assert posts(daily) == []
    await world.env.advance_time(20 * MINUTE)
    assert len(posts(daily)) == 1


async def test_the_midnight_sweep_missed_in_an_outage_closes_yesterdays_dailies_once_the_database_is_back(world):
    started = await world.alice.slash(world.channel, "scoundrel daily")  # day 1's daily, left unfinished
    game = await world.store.daily_attempt(world.alice.id, 1)
    assert started.ephemeral and game.playing
    await world.env.advance_time(23 * HOUR + 50 * MINUTE)
    with Outage(world, "games"):
        await world.env.advance_time(30 * MINUTE)  # past midnight, to 00:20
    await world.env.advance_time(20 * MINUTE)  # 00:40
    closed = await world.store.load_game(game.id)
    assert (closed.status, closed.ended_by) == (ABANDONED, EXPIRED)
    assert "sweep" not in poster(world).jobs.overdue(world.env.now())


@pytest.mark.simcord(settle_timeout=120)
async def test_the_days_par_missed_in_an_outage_is_solved_once_the_database_is_back(world):
    world.bot.par_solver = poster(world).par.solver = solve_par  # the real solver, in its worker process
    admin = admin_of(world)
    await admin.slash(world.channel, "scoundrel-admin daily", channel=world.guild.create_text_channel("d"),
                      time="00:00")
    assert await _par(world, 2) is not None  # tomorrow's, solved right after today's
    await world.env.advance_time(23 * HOUR + 50 * MINUTE)
    with Outage(world, "daily_challenges"):
        await world.env.advance_time(30 * MINUTE)  # past midnight, to 00:20: day 3's par cannot be started
        assert "par" in poster(world).jobs.overdue(world.env.now())
    await world.env.advance_time(30 * MINUTE)  # 00:50
    assert await _par(world, 3) is not None
    assert poster(world).par.solves == 3  # days 1 and 2 when the post was turned on, day 3 once: not again


async def _par(world, day: int):
    challenge = await world.store.get_daily(day)
    return None if challenge is None else challenge.par
