"""Shared helpers for the storage tests: a manual clock, deterministic lines of play, raw SQL access."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from functools import cache

from games.engine import Rules, apply, legal_actions, new_game
from storage import is_postgres
from tests.postgres_server import RawPostgres

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ROOMY = Rules().with_health(99)  # 99 health: lines that clear the dungeon are easy to find


class Clock:
    """A clock the test moves by hand (aware UTC)."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float = 1.0) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


def dying_line(state) -> list:
    """Take the first card left in each room barehanded until the game ends (classic health: a quick death)."""
    line = []
    while not state.over:
        action = next(a for a in legal_actions(state) if a.kind == "take")
        state = apply(state, action)
        line.append(action)
    return line


def _value(s) -> float:
    if s.status == "won":
        return 10**6 + s.score
    if s.status == "dead":
        return -(10**6)
    weapon = s.weapon.value if s.weapon else 0
    last = s.kills[-1].value if s.kills else 15
    return s.health * 3 + weapon * 2 + min(last, weapon + 3) - len(s.dungeon) * 0.5


def best_line(start, width: int = 5) -> list:
    """A beam search's line (not optimal; with ROOMY rules it often clears the dungeon)."""
    frontier = [start]
    while not all(s.over for s in frontier):
        following = []
        for s in frontier:
            following += [s] if s.over else [apply(s, a) for a in legal_actions(s)]
        following.sort(key=_value, reverse=True)
        frontier = following[:width]
    return list(frontier[0].history[len(start.history):])


@cache
def winning_seed(rules: Rules = ROOMY, start: int = 0) -> tuple[int, tuple]:
    """The first seed from ``start`` whose beam-search line wins, and that line."""
    for seed in range(start, start + 200):
        line = best_line(new_game(rules, seed=seed))
        final = new_game(rules, seed=seed)
        for action in line:
            final = apply(final, action)
        if final.status == "won":
            return seed, tuple(line)
    raise AssertionError("no winning seed found")  # pragma: no cover


async def play_line(store, record, line):
    for action in line:
        record = await store.play(record.id, record.user_id, record.version, action)
    return record


@contextmanager
def raw(path) -> Iterator[sqlite3.Connection]:
    """``with raw(path) as conn``: a plain connection (autocommit) for reaching behind the store's back; closed on
    leaving the block. A PostgreSQL URL gets a connection that answers like sqlite3's (``?`` placeholders,
    ``execute(...).fetchone()``), so one test body checks both backends."""
    if is_postgres(path):
        conn = RawPostgres(path)
        try:
            yield conn
        finally:
            conn.close()
        return
    conn = sqlite3.connect(path, isolation_level=None, timeout=5)
    try:
        conn.execute("PRAGMA busy_timeout = 5000")
        yield conn
    finally:
        conn.close()


async def until(condition, what: str) -> None:
    """Wait (briefly, yielding to the store's tasks) until ``condition()`` holds."""
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting until {what}")


def queued(store) -> set[int]:
    """The games whose moves wait for the next group commit."""
    return {move.game_id for move in store._moves._pending}


def commits_on_their_way(store) -> int:
    """Group commits taken from the queue and not finished (PostgreSQL has up to MOVE_CONNECTIONS, SQLite one)."""
    return sum(not task.done() for task in store._moves._flushers)
