"""Duels and reminders are behind the store's one time limit like every other store call
(``storage/time_limit.py``): with the database not answering, a duel or reminder call gives up at the limit with
``StoreTimeout`` just as ``load_game`` does, and goes on by itself. On SQLite with its write lock held by another
connection, and on a hung PostgreSQL (every server process stopped)."""

from __future__ import annotations

import asyncio
import sqlite3
import time

from games.engine import Rules, deal
from storage import open_store
from storage.time_limit import StoreTimeout
from tests.faults.test_postgres_hung import hung

LIMIT = 0.3  # seconds: the store's time limit in these tests
ALICE, BOB = 1, 2


async def gives_up_in_time(call) -> float:
    """The seconds ``call`` took to give up with StoreTimeout."""
    started = time.perf_counter()
    try:
        await call
    except StoreTimeout:
        return time.perf_counter() - started
    raise AssertionError("the call did not give up")


async def test_a_duel_write_gives_up_at_the_stores_time_limit_like_a_game_write(tmp_path):
    database = tmp_path / "scoundrel.sqlite3"
    store = await open_store(database, wait=LIMIT)
    try:
        blocker = sqlite3.connect(database, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")  # the write lock, held by another connection
        game = await gives_up_in_time(store.create_game(ALICE, None, None, Rules(), 4, deal(Rules(), 4), "normal"))
        duel = await gives_up_in_time(store.duels.create_challenge(ALICE, BOB, None, None, seed=4))
        assert LIMIT <= game < LIMIT + 0.5 and LIMIT <= duel < LIMIT + 0.5, (game, duel)
        blocker.execute("ROLLBACK")
        blocker.close()
        for _ in range(50):  # each call went on by itself once the lock was let go
            if await store.duels.open_duel(ALICE) is not None and await store.active_game(ALICE) is not None:
                break
            await asyncio.sleep(0.1)
        assert (await store.duels.open_duel(BOB)).players == (ALICE, BOB)
    finally:
        await store.close()


async def test_a_duel_read_on_a_hung_postgresql_gives_up_at_the_limit_like_load_game(pg_url, postgres_server):
    store = await open_store(pg_url, wait=LIMIT)
    try:
        game = await store.create_game(ALICE, None, None, Rules(), 4, deal(Rules(), 4), "normal")
        duel = await store.duels.create_challenge(ALICE, BOB, None, None, seed=4)
        with hung(postgres_server, 3 * LIMIT + 1.0):
            loading_game = await gives_up_in_time(store.load_game(game.id))
            loading_duel = await gives_up_in_time(store.duels.load_duel(duel.id))
        assert LIMIT <= loading_game < LIMIT + 0.5 and LIMIT <= loading_duel < LIMIT + 0.5, (loading_game,
                                                                                              loading_duel)
        assert (await store.duels.load_duel(duel.id)).id == duel.id  # answered again once the server is back
    finally:
        await store.close()


async def test_a_reminder_claim_gives_up_at_the_stores_time_limit_and_goes_on_by_itself(tmp_path):
    database = tmp_path / "scoundrel.sqlite3"
    store = await open_store(database, wait=LIMIT)
    try:
        await store.reminders.set(ALICE, 2)
        blocker = sqlite3.connect(database, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")  # the write lock, held by another connection
        claim = await gives_up_in_time(store.reminders.claim(ALICE, 60, "this process"))
        assert LIMIT <= claim < LIMIT + 0.5, claim
        blocker.execute("ROLLBACK")
        blocker.close()
        for _ in range(50):  # the claim went on by itself once the lock was let go: nobody claims it twice
            if await store.reminders.outcome(ALICE, 60) is not None:
                break
            await asyncio.sleep(0.1)
        assert await store.reminders.outcome(ALICE, 60) == ""  # claimed, not yet sent
        assert not await store.reminders.claim(ALICE, 60, "another process")
    finally:
        await store.close()
