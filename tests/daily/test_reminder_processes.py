"""Two processes on one database (SQLite, and a real PostgreSQL server) send a player one reminder: each has its
own store and sender, and the claim in the database decides."""

from __future__ import annotations

import asyncio

import pytest

from cogs.account.reminders import StreakReminders
from storage import open_store
from tests.daily.test_reminders import HOUR, dms


@pytest.fixture(params=["sqlite", "postgres"])
def db_path(request, tmp_path):
    if request.param == "postgres":
        return request.getfixturevalue("pg_url")
    return tmp_path / "scoundrel.sqlite3"


async def test_two_senders_on_one_database_send_one_reminder(world):
    await world.alice.slash(world.channel, "scoundrel remind", when=1)
    await world.env.advance_time(22 * HOUR)
    ours = world.bot.get_cog("StreakReminders")
    other_store = await open_store(world.database, clock=world.store.now)

    class OtherProcess:  # a second process: its own store and sender, the same Discord
        store = other_store
        get_user, fetch_user = world.bot.get_user, world.bot.fetch_user
        offers, extensions = world.bot.offers, world.bot.extensions  # the same extensions: the daily's Play button

    other = StreakReminders(OtherProcess())
    try:
        await world.env.advance_time(HOUR - 10)  # 22:59:50, inside the early margin: both senders see it due
        sent = await asyncio.gather(ours.send_due(), other.send_due())
    finally:
        await other_store.close()
    await world.env.advance_time(60)
    assert sorted(sent) == [0, 1] and len(dms(world.alice)) == 1
