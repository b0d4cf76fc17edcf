"""Keeping the database healthy and bounded: checks, pruning, compaction.

The policy (``Policy``; ``scoundrel-bot maintenance`` applies it, see docs/OPERATIONS.md):

* The action log (``game_actions``) is the truth and is never pruned: every game can be replayed from it.
* A finished game's snapshot (its state as JSON, including the turn-by-turn events it shows) is a cache for
  fast loading. It is dropped ``snapshot_days`` after the game ended; loading such a game replays its log.
  Games in progress always keep theirs.
* The par cache (best scores of arbitrary deals, for "Best possible") is dropped after ``par_days``; par is
  recomputed on demand. The daily's par lives with the daily challenge and is kept.
* Daily-post claims (which message a server's daily post is) are dropped after ``post_days``.
* Freed pages go back to the file system: databases created by this version use ``auto_vacuum=INCREMENTAL``
  and each run frees them in bounded steps; an older file needs one full ``VACUUM`` (``--vacuum``, with the bot
  stopped) to switch over.

Each pruning step deletes at most ``batch`` rows per transaction, so a running bot's moves wait at most a few
milliseconds behind it. ``journal_size_limit`` (set by the store on every connection) makes the WAL file shrink
back after a checkpoint instead of staying at its largest size.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from storage.errors import DatabaseError

BUSY_TIMEOUT_MS = 5000
JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024  # bytes the WAL file is truncated to after a checkpoint
INCREMENTAL_VACUUM_PAGES = 2048  # pages freed per step (8 MB at 4 KB pages), each step its own transaction


@dataclass(frozen=True, slots=True)
class Policy:
    snapshot_days: int = 7
    par_days: int = 90
    post_days: int = 30
    batch: int = 5000


def _micros(moment: datetime) -> int:
    return int(moment.timestamp() * 1_000_000)


def connect(path: str | os.PathLike) -> sqlite3.Connection:
    """A plain connection for maintenance work on an existing database."""
    path = Path(path)
    if not path.is_file():
        raise DatabaseError(f"no database at {path}")
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        conn.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT:d}")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"{path} is not a usable SQLite database: {exc}") from exc
    return conn


def check(conn: sqlite3.Connection, *, quick: bool = False) -> list[str]:
    """The problems ``integrity_check`` (or the faster ``quick_check``) finds; empty when the file is sound."""
    pragma = "quick_check" if quick else "integrity_check"
    try:
        rows = [str(row[0]) for row in conn.execute(f"PRAGMA {pragma}")]
    except sqlite3.DatabaseError as exc:
        return [" ".join(str(exc).split())]
    return [] if rows == ["ok"] else rows


def startup_check(path: str | os.PathLike) -> str | None:
    """One line describing what ``quick_check`` found wrong, or None. Never raises for a damaged file."""
    try:
        conn = connect(path)
    except DatabaseError as exc:
        return str(exc)
    try:
        problems = check(conn, quick=True)
    finally:
        conn.close()
    if not problems:
        return None
    problems = [line.strip() for problem in problems for line in problem.splitlines()
                if line.strip() and not line.startswith("***")]  # SQLite puts several lines in one row
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return (f"database {path} failed its quick check: {problems[0]}{more}; "
            "run `scoundrel-bot maintenance` for a full check and restore a backup if it fails")


def _batched(conn: sqlite3.Connection, sql: str, params: tuple, batch: int) -> int:
    """Run a ``... LIMIT ?`` statement in short transactions until it touches no more rows."""
    total = 0
    while True:
        conn.execute("BEGIN IMMEDIATE")
        try:
            changed = conn.execute(sql, (*params, batch)).rowcount
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        total += changed
        if changed < batch:
            return total


def prune(conn: sqlite3.Connection, now: datetime, policy: Policy = Policy()) -> dict[str, int]:
    """Apply the policy as of ``now`` (aware UTC); returns how many rows each step changed."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    now = now.astimezone(UTC)
    snapshots = 0
    last = conn.execute("SELECT coalesce(max(rowid), 0) FROM games").fetchone()[0]
    for low in range(0, last, policy.batch):  # walk the table once, one short transaction per slice
        conn.execute("BEGIN IMMEDIATE")
        try:
            snapshots += conn.execute(
                "UPDATE games SET snapshot = NULL WHERE rowid > ? AND rowid <= ? AND status <> 'playing' "
                "AND snapshot IS NOT NULL AND ended_at < ?",
                (low, low + policy.batch, _micros(now - timedelta(days=policy.snapshot_days)))).rowcount
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    par = _batched(
        conn, "DELETE FROM par_cache WHERE (rules_key, deck) IN (SELECT rules_key, deck FROM par_cache "
              "WHERE created_at < ? LIMIT ?)", (_micros(now - timedelta(days=policy.par_days)),), policy.batch)
    posts = _batched(
        conn, "DELETE FROM daily_posts WHERE (guild_id, day) IN (SELECT guild_id, day FROM daily_posts "
              "WHERE claimed_at < ? LIMIT ?)", (_micros(now - timedelta(days=policy.post_days)),), policy.batch)
    # Reminders claimed (the once-a-day record of streak reminders) are kept as long as the daily posts' records.
    reminders = _batched(
        conn, "DELETE FROM reminder_sends WHERE (user_id, day) IN (SELECT user_id, day FROM reminder_sends "
              "WHERE claimed_at < ? LIMIT ?)", (_micros(now - timedelta(days=policy.post_days)),), policy.batch)
    return {"snapshots": snapshots, "par_cache": par, "daily_posts": posts, "reminder_sends": reminders}


def auto_vacuum_mode(conn: sqlite3.Connection) -> str:
    return {0: "none", 1: "full", 2: "incremental"}[conn.execute("PRAGMA auto_vacuum").fetchone()[0]]


def free_pages(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA freelist_count").fetchone()[0]


def incremental_vacuum(conn: sqlite3.Connection, step: int = INCREMENTAL_VACUUM_PAGES) -> int:
    """Give free pages back to the file system in bounded steps; returns the pages freed."""
    if auto_vacuum_mode(conn) != "incremental":
        return 0
    freed = 0
    while (free := free_pages(conn)) > 0:
        conn.execute(f"PRAGMA incremental_vacuum({min(step, free):d})").fetchall()
        freed += free - free_pages(conn)
        if free_pages(conn) >= free:  # pragma: no cover - nothing more could be freed
            break
    return freed


def full_vacuum(conn: sqlite3.Connection) -> None:
    """Rewrite the whole file compactly and switch it to incremental auto-vacuum. Blocks writers throughout."""
    conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
    conn.execute("VACUUM")


def checkpoint(conn: sqlite3.Connection) -> None:
    """Copy the WAL into the database and truncate it (the bot's own checkpoints only ever let it shrink to
    ``journal_size_limit``)."""
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()


def file_size(path: str | os.PathLike) -> int:
    """Bytes of the database with its WAL."""
    return sum(Path(f"{path}{suffix}").stat().st_size for suffix in ("", "-wal")
               if Path(f"{path}{suffix}").exists())


@dataclass
class Report:
    problems: list[str]
    pruned: dict[str, int]
    freed_pages: int
    vacuumed: bool
    bytes_before: int
    bytes_after: int
    seconds: float
    auto_vacuum: str


def run(path: str | os.PathLike, *, now: datetime | None = None, policy: Policy = Policy(), quick: bool = False,
        vacuum: bool = False, prune_rows: bool = True,
        compact: bool = True, progress: Callable[[str], None] = lambda _: None) -> Report:
    """Check, prune and compact ``path``. Stops before changing anything if the check finds damage."""
    started = time.perf_counter()
    before = file_size(path)
    conn = connect(path)
    try:
        progress("checking integrity" + (" (quick)" if quick else ""))
        problems = check(conn, quick=quick)
        if problems:
            return Report(problems, {}, 0, False, before, before, time.perf_counter() - started,
                          auto_vacuum_mode(conn))
        pruned = {}
        if prune_rows:
            progress("pruning")
            pruned = prune(conn, now or datetime.now(UTC), policy)
        freed = 0
        if vacuum:
            progress("vacuuming (the whole file is rewritten)")
            full_vacuum(conn)
        elif compact:
            progress("freeing pages")
            freed = incremental_vacuum(conn)
        if compact or vacuum:
            checkpoint(conn)
        mode = auto_vacuum_mode(conn)
    finally:
        conn.close()
    return Report([], pruned, freed, vacuum, before, file_size(path), time.perf_counter() - started, mode)
