"""Reads have their own connections: a click's game load never queues behind board reads."""

from __future__ import annotations

import asyncio

import pytest

from games.engine import Rules

pytestmark = pytest.mark.sqlite_only  # SQLite files and connections; PostgreSQL has its own

SLOW = ("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) "
        "SELECT count(*) FROM n")  # a board query as slow as the old week board at 100k players


async def test_a_game_load_does_not_wait_for_boards_being_read(store):
    record = await store.create_game(1, 2, 3, Rules(), seed=4)
    boards = [asyncio.create_task(store.db.read(SLOW, board=True)) for _ in range(3)]  # three boards at once
    await asyncio.sleep(0.01)
    loaded = await store.load_game(record.id)
    assert loaded.id == record.id
    assert not all(task.done() for task in boards)  # the click was answered while the boards were still reading
    assert [(await task)[0][0] for task in boards] == [3000000] * 3
    assert (await store.leaderboard_week(1)) == []  # a board waits for a free board connection, not for games


async def test_without_separate_reads_everything_shares_the_writer(db_path, clock):
    from storage import Store

    store = await Store.open(db_path, clock=clock, separate_reads=False)
    try:
        record = await store.create_game(1, 2, 3, Rules(), seed=4)
        assert (await store.load_game(record.id)).id == record.id
        assert await store.leaderboard_daily(1) == []
    finally:
        await store.close()
