"""``maintenance`` on PostgreSQL: the same check and pruning policy as on SQLite (storage/maintenance.py), then
PostgreSQL's own ``VACUUM (ANALYZE)``.

* The check is the one the bot relies on: every game's action log holds exactly moves 1…version (PostgreSQL
  checks its own pages). If it finds a problem nothing is changed.
* Pruning deletes at most ``policy.batch`` rows per statement (each its own transaction), so a running bot's moves
  wait a few milliseconds at most.
* ``VACUUM (ANALYZE)`` marks the freed rows reusable and refreshes the planner's statistics, without blocking the
  bot; ``vacuum=True`` runs ``VACUUM (FULL, ANALYZE)``, which rewrites every table and gives the space back to the
  file system but locks each table while it does: run it with the bot stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import asyncpg

from storage.backends.base import redact, url_problem
from storage.backends.postgres import LOG_CHECK, log_problems
from storage.errors import DatabaseError, DatabaseUnavailable
from storage.maintenance import Policy, Report

DEFAULT_POLICY = Policy()
PRUNE = {  # what each step deletes (or empties), $1 the cut-off in microseconds, $2 the batch
    "snapshots": "UPDATE games SET snapshot = NULL WHERE id IN (SELECT id FROM games WHERE status <> 'playing' "
                 "AND snapshot IS NOT NULL AND ended_at < $1 LIMIT $2)",
    "par_cache": "DELETE FROM par_cache WHERE (rules_key, deck) IN (SELECT rules_key, deck FROM par_cache "
                 "WHERE created_at < $1 LIMIT $2)",
    "daily_posts": "DELETE FROM daily_posts WHERE (guild_id, day) IN (SELECT guild_id, day FROM daily_posts "
                   "WHERE claimed_at < $1 LIMIT $2)",
    "reminder_sends": "DELETE FROM reminder_sends WHERE (user_id, day) IN (SELECT user_id, day FROM reminder_sends "
                      "WHERE claimed_at < $1 LIMIT $2)",
}


def _cutoffs(now: datetime, policy: Policy) -> dict[str, int]:
    days = {"snapshots": policy.snapshot_days, "par_cache": policy.par_days, "daily_posts": policy.post_days,
            "reminder_sends": policy.post_days}
    return {step: int((now - timedelta(days=n)).timestamp() * 1_000_000) for step, n in days.items()}


async def _count(conn: asyncpg.Connection, sql: str, *args) -> int:
    tail = (await conn.execute(sql, *args)).rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


async def _size(conn: asyncpg.Connection) -> int:
    return await conn.fetchval("SELECT pg_database_size(current_database())")


async def run_postgres(url: str, *, now: datetime | None = None, policy: Policy = DEFAULT_POLICY, vacuum: bool = False,
                       prune_rows: bool = True, compact: bool = True,
                       progress: Callable[[str], None] = lambda _: None) -> Report:
    """Check, prune and vacuum the database at ``url``. Stops before changing anything if the check finds damage."""
    started = time.perf_counter()
    problem = url_problem(url)
    if problem is not None:
        raise DatabaseError(f"cannot use {redact(url)}: {problem}")
    try:
        conn = await asyncpg.connect(url, timeout=10)
    except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise DatabaseUnavailable(f"cannot connect to PostgreSQL at {redact(url)}: {type(exc).__name__}") from exc
    try:
        if await conn.fetchval("SELECT to_regclass('games')") is None:
            raise DatabaseError(f"{redact(url)} holds no bot database (no games table)")
        before = await _size(conn)
        progress("checking every game's action log")
        problems = log_problems(await conn.fetch(LOG_CHECK))
        if problems:
            return Report(problems, {}, 0, False, before, before, time.perf_counter() - started, "postgres")
        pruned: dict[str, int] = {}
        if prune_rows:
            progress("pruning")
            cutoffs = _cutoffs((now or datetime.now(UTC)).astimezone(UTC), policy)
            for step, sql in PRUNE.items():
                pruned[step] = 0
                while (changed := await _count(conn, sql, cutoffs[step], policy.batch)) > 0:
                    pruned[step] += changed
                    if changed < policy.batch:
                        break
        if vacuum:
            progress("VACUUM (FULL, ANALYZE): every table rewritten")
            await conn.execute("VACUUM (FULL, ANALYZE)")
        elif compact:
            progress("VACUUM (ANALYZE)")
            await conn.execute("VACUUM (ANALYZE)")
        after = await _size(conn)
    except asyncpg.PostgresError as exc:
        raise DatabaseError(f"maintenance of {redact(url)} failed: {type(exc).__name__}: {exc}") from exc
    finally:
        await conn.close()
    return Report([], pruned, 0, vacuum, before, after, time.perf_counter() - started, "postgres")


__all__ = ["PRUNE", "run_postgres"]
