"""Every store call the bot makes gives up after a bounded wait (the store's ``wait``, storage/time_limit.py) with
StoreTimeout, which the player hears plainly; the call itself goes on, so what it was doing is not lost. In real
time, on a real store whose write lock another connection holds."""

from __future__ import annotations

import asyncio
import sqlite3
import time

import pytest

from cogs.plumbing.errors import DATABASE_SLOW, friendly_message
from games.engine import Rules, deal
from games.i18n.messages import ENGLISH
from storage import DatabaseUnavailable, open_store
from storage.time_limit import STORE_WAIT, StoreTimeout


async def test_a_store_call_that_does_not_answer_gives_up_in_time_and_still_finishes(tmp_path):
    database = tmp_path / "scoundrel.sqlite3"
    store = await open_store(database, wait=1.0)
    try:
        blocker = sqlite3.connect(database, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")  # the write lock, held by another connection
        started = time.perf_counter()
        with pytest.raises(StoreTimeout) as gave_up:
            await store.create_game(7, None, None, Rules(), 4, deal(Rules(), 4), "normal")
        assert time.perf_counter() - started < 2.0
        assert isinstance(gave_up.value, DatabaseUnavailable)
        assert friendly_message(gave_up.value) == (ENGLISH(DATABASE_SLOW), True)
        assert await store.active_game(7, "normal") is None  # (reads still work meanwhile)
        blocker.execute("ROLLBACK")  # the other writer lets go within SQLite's busy wait
        blocker.close()
        for _ in range(50):  # the call went on and made the game
            if await store.active_game(7, "normal") is not None:
                break
            await asyncio.sleep(0.1)
        assert (await store.active_game(7, "normal")).version == 0
    finally:
        await store.close()


async def test_the_bots_store_and_its_duels_have_the_time_limit(world):
    assert world.store.wait == STORE_WAIT and world.store.duels.wait == STORE_WAIT
