"""A database that is full or down is logged so an operator can read it: one line when the trouble starts, then one
line a minute with how many requests failed, never an ERROR with a traceback per request. Each player is still
told, every time. On a real SQLite file that may not grow (full, for real), under SimCord's virtual time."""

from __future__ import annotations

import logging

import pytest

from cogs.plumbing.errors import DATABASE_FULL
from cogs.plumbing.outages import DatabaseTrouble
from games.engine import Rules
from storage import DatabaseFull, DatabaseUnavailable
from storage.backends.base import Tx

pytestmark = pytest.mark.simcord(settle_timeout=30)
REQUESTS = 40


async def fill_up(store) -> None:
    pages = (await store.db.read("PRAGMA page_count"))[0][0]

    async def body(tx: Tx) -> None:
        await tx.execute(f"PRAGMA max_page_count = {pages}")  # the file may not grow: full, for real

    await store.db.write(body)
    with pytest.raises(DatabaseFull):  # the last free room taken
        for user in range(10_000, 20_000):
            await store.create_game(user, None, None, Rules(), seed=user)


def errors_logged(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_full_database_logs_one_line_then_a_count_a_minute_not_a_traceback_per_request(world, caplog):
    await world.alice.slash(world.channel, "scoundrel rules")  # the bot is up
    await fill_up(world.store)
    caplog.set_level(logging.INFO)
    caplog.clear()
    told = []
    for n in range(REQUESTS):  # every new game is refused: nothing can be stored
        result = await (world.alice, world.bob)[n % 2].slash(world.channel, "scoundrel play")
        said = ([result.response.content] if result.response else []) + [m.content for m in result.followups]
        told.append(DATABASE_FULL in said)
    assert told == [True] * REQUESTS  # each player hears it, every time
    lines = errors_logged(caplog)
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert "the database is full" in lines[0].getMessage() and lines[0].exc_info is None
    assert all(r.exc_info is None for r in caplog.records if r.levelno >= logging.INFO)

    caplog.clear()
    await world.env.advance_time(61)
    lines = errors_logged(caplog)
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert "the database is full" in lines[0].getMessage()
    assert f"{REQUESTS - 1} more requests failed in the last 60 s" in lines[0].getMessage()

    caplog.clear()
    await world.env.advance_time(121)  # a quiet stretch: nothing more is said
    assert errors_logged(caplog) == []
    with pytest.raises(ExceptionGroup):  # the refusals, as the tree's error handler saw them
        world.env.raise_errors()


async def test_each_kind_of_trouble_has_its_own_line(caplog):
    trouble = DatabaseTrouble()
    caplog.set_level(logging.INFO)
    down = DatabaseUnavailable("cannot connect to PostgreSQL at postgresql://bot:***@db/x")
    for _ in range(5):
        trouble.note(down, "/scoundrel play")
        trouble.note(DatabaseFull("a write failed: database or disk is full"), "component sc:g:1:2:s:T0")
    lines = [r.getMessage() for r in errors_logged(caplog)]
    assert len(lines) == 2 and "cannot be reached" in lines[0] and "is full" in lines[1]
    assert "postgresql://bot:***@db/x" in lines[0] and "/scoundrel play" in lines[0]
