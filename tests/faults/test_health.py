"""/healthz over real HTTP tells the truth within 2 s: a database that cannot take a write (held locked by another
connection, as a stuck writer or a hung server looks) or a scheduled job failing for more than 15 minutes is a 503
with a reason."""

from __future__ import annotations

import asyncio
import sqlite3
import time

import aiohttp
import pytest

from tests.daily.test_daily_post import schedule
from tests.discord.harness import make_bot
from tests.faults.test_scheduled_jobs import Outage

MINUTE, HOUR = 60, 3600


@pytest.fixture
async def simcord_bot(db_path):
    bot = make_bot(db_path, service_address=("127.0.0.1", 0))
    yield bot
    await bot.close()


async def healthz(bot) -> tuple[int, dict, float]:
    started = time.monotonic()
    url = f"http://127.0.0.1:{bot.service.port}/healthz"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.json(), time.monotonic() - started


async def test_a_database_that_cannot_take_a_write_is_reported_within_two_seconds(db_path):
    """In real time (SimCord's clock would not let a probe wait on the database for real): the real bot's service
    and store, not logged in to Discord, asked over HTTP while another connection holds the database's write lock
    (reads still work, as they do on a stuck SQLite writer)."""
    from bot.service import Service
    from storage import open_store

    bot = make_bot(db_path)
    bot.store = await open_store(db_path)
    bot.service = Service(bot, "127.0.0.1", 0)
    await bot.service.start()
    try:
        status, body, _ = await healthz(bot)
        assert body["database"] == "ok"  # (503 all the same: not connected to Discord)
        blocker = sqlite3.connect(db_path, isolation_level=None)
        try:
            blocker.execute("BEGIN IMMEDIATE")  # another connection holds the write lock
            for _ in range(2):  # the second time while the first look still waits for the lock
                status, body, took = await healthz(bot)
                assert status == 503 and body["database"] == "down" and took < 2.0
                assert "database cannot be written" in body["reason"]
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        await asyncio.sleep(5.5)  # the look that was waiting for the lock ends
        status, body, _ = await healthz(bot)
        assert body["database"] == "ok"
    finally:
        await bot.close()


async def test_a_scheduled_post_failing_for_more_than_15_minutes_is_reported(world):
    admin, daily = await schedule(world, "09:30")
    await world.env.advance_time(9 * HOUR)
    with Outage(world, "guild_settings"):
        await world.env.advance_time(40 * MINUTE)  # 09:40: failing for 10 minutes
        status, body, _ = await healthz(world.bot)
        assert status == 200 and body["overdue"] == []
        await world.env.advance_time(10 * MINUTE)  # 09:50: for 20 minutes
        status, body, _ = await healthz(world.bot)
        assert status == 503 and body["overdue"] == ["post"] and "post" in body["reason"]
    await world.env.advance_time(20 * MINUTE)  # back, and the post made
    status, body, _ = await healthz(world.bot)
    assert status == 200 and body["overdue"] == []
