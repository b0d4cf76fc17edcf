"""PostgreSQL through asyncpg, for several bot processes sharing one database.

* A pool of connections (asyncpg reconnects by itself: a connection broken by a server restart is replaced on the
  next acquire; a connection going back to the pool is reused as it is, without asyncpg's reset round trip). Plain
  reads run on any pooled connection; a write of several statements is one transaction at SERIALIZABLE isolation,
  which gives what SQLite's ``BEGIN IMMEDIATE`` gives: it behaves as if it ran alone. When two collide (two
  processes claiming the same daily post), PostgreSQL aborts one and it is run again from the start.
* The busiest writes are one statement each, outside any transaction block (one round trip, its own commit), at
  READ COMMITTED, where the guarantee comes from the statement itself: a group of moves (``APPLY_MOVES``) updates
  each game only from the version its move was made on, so of two racing clicks exactly one applies;
  ``START_GAME`` leans on the unique indexes (one running game per player and slot, one counted attempt per player
  and day). Up to ``MOVE_CONNECTIONS`` groups are on their way at once, on connections of their own.
* ``synchronous_commit`` stays on: COMMIT returns once the WAL is flushed, and a move is acknowledged only after
  it, so an acknowledged move survives the bot being killed (and the server).
* Errors are classified by SQLSTATE class at this boundary (``_mapped``): out of reach (08, 57, 53300, a connection
  the server is terminating, timeouts) is ``DatabaseUnavailable``; out of disk or resources (53xxx) or read-only is
  ``DatabaseFull``; a constraint is ``ConstraintViolation``. Nothing half-written stays.
* Schema changes live in ``storage/pg_migrations`` with the same numbers as ``storage/migrations``; the applied
  version is kept in ``schema_version`` and a database newer than the code is refused (``SchemaTooNew``).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import asyncpg

from storage import migrate
from storage.backends.base import (
    CheckedWrite,
    ConstraintViolation,
    Db,
    Move,
    Outcomes,
    ReadTable,
    Row,
    Statement,
    Tx,
    WriteTable,
    redact,
    url_problem,
)
from storage.backends.pg_moves import APPLY_ENDING_MOVES, APPLY_MOVES, START_GAME, outcomes, totals_columns
from storage.errors import DatabaseError, DatabaseFull, DatabaseUnavailable

MIGRATIONS = "pg_migrations"
POOL_SIZE = 10
MOVE_CONNECTIONS = 2  # the moves' own pool: one group commit on its way, the next one ready to go
CONNECT_TIMEOUT = 5.0  # seconds to reach the server before a click is told to try again
COMMAND_TIMEOUT = 30.0  # a statement the server does not answer (a network cut without a reset) fails, not hangs
MIGRATION_TIMEOUT = 3600.0
SERIALIZATION_RETRIES = 100
STATEMENT_RETRIES = 5  # a one-statement group chosen as a deadlock's victim is rolled back whole: run it again
CHUNK = 5000  # rows per chunk when copying a table
_MIGRATION_LOCK = 0x5C0D7E1  # pg_advisory_lock key: one process migrates at a time
_RETRY = (asyncpg.SerializationError, asyncpg.DeadlockDetectedError)
_OUT_OF_REACH = ("08", "57")  # SQLSTATE classes: connection exception; operator intervention (shutdown, cancel)
_TOO_MANY_CONNECTIONS = "53300"
_READ_ONLY = "25006"  # read_only_sql_transaction (a standby, or default_transaction_read_only)


# Every game whose action log does not hold exactly moves 1…version (``integrity_check``, ``maintenance``).
LOG_CHECK = ("SELECT g.id, g.version, count(a.seq), coalesce(max(a.seq), 0) FROM games g "
             "LEFT JOIN game_actions a ON a.game_id = g.id GROUP BY g.id, g.version "
             "HAVING count(a.seq) <> g.version OR coalesce(max(a.seq), 0) <> g.version ORDER BY g.id")


def log_problems(rows: Sequence[Sequence[Any]]) -> list[str]:
    return [f"game {r[0]}: version {r[1]}, log of {r[2]} moves up to {r[3]}" for r in rows]


def _reason(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _mapped(exc: BaseException, doing: str) -> DatabaseError:
    """Storage's error for a driver's, by what it means (SQLSTATE class), not by its name."""
    text = f"{doing}: {_reason(exc)}"
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return ConstraintViolation(text)
    state = getattr(exc, "sqlstate", None) if isinstance(exc, asyncpg.PostgresError) else None
    if state is not None:
        if state[:2] in _OUT_OF_REACH or state == _TOO_MANY_CONNECTIONS:
            return DatabaseUnavailable(text)
        if state[:2] == "53" or state == _READ_ONLY:  # disk full, out of memory, ... : nothing can be stored
            return DatabaseFull(text)
        return DatabaseError(text)
    # Not the server's answer: the connection broke, timed out, or is being terminated under a statement
    # (asyncpg then says e.g. "cannot switch to state 12; another operation is in progress").
    if isinstance(exc, (OSError, asyncio.TimeoutError, asyncpg.InterfaceError, asyncpg.InternalClientError)):
        return DatabaseUnavailable(text)
    return DatabaseError(text)


_DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError,
                  asyncio.TimeoutError)


def _count(status: str) -> int:
    """Rows touched, from a command tag such as ``UPDATE 1`` or ``INSERT 0 3``."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


class _PgTx(Tx):
    __slots__ = ("_conn", "_timeout")

    def __init__(self, conn: asyncpg.Connection, timeout: float | None) -> None:
        self._conn = conn
        self._timeout = timeout  # None: the pool's COMMAND_TIMEOUT

    async def execute(self, sql: Statement, params: Sequence[Any] = ()) -> int:
        text = sql if isinstance(sql, str) else sql.postgres
        return _count(await self._conn.execute(text, *params, timeout=self._timeout))

    async def executemany(self, sql: Statement, rows: Sequence[Sequence[Any]]) -> None:
        await self._conn.executemany(sql if isinstance(sql, str) else sql.postgres, rows, timeout=self._timeout)

    async def execute_each(self, sql: Statement, rows: Sequence[Sequence[Any]]) -> int:
        return sum([await self.execute(sql, params) for params in rows])

    async def fetch(self, sql: Statement, params: Sequence[Any] = ()) -> list[Row]:
        return await self._conn.fetch(sql if isinstance(sql, str) else sql.postgres, *params, timeout=self._timeout)


async def _back_off(seconds: float) -> None:
    """The pause before a write that collided with another is run again, timed in real time on a worker thread
    rather than by the event loop's timers: the other side is a database shared with other processes, whatever
    clock this loop keeps. (Under SimCord the loop's timers keep virtual time, which stands still until every
    task is idle; a caller waiting through a lock for this write is not, so a timer here would never fire.)"""
    if seconds <= 0:
        await asyncio.sleep(0)
    else:
        await asyncio.get_running_loop().run_in_executor(None, time.sleep, seconds)


class PostgresDb(Db):
    """A PostgreSQL database. Open with ``await PostgresDb.open(url)``."""

    dialect = "postgres"
    move_flushers = MOVE_CONNECTIONS
    remembers_games = True

    def __init__(self, pool: asyncpg.Pool, url: str, mover: asyncpg.Pool | None = None) -> None:
        self._pool: asyncpg.Pool | None = pool
        self.shown = redact(url)
        # The group commits of moves have connections of their own: a move never waits in line behind reads.
        self._mover = mover

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> PostgresDb:
        """Connect to the database at ``url`` (``postgresql://user:password@host:port/name``) and apply pending
        migrations. Raises ``DatabaseUnavailable`` when the server cannot be reached and ``SchemaTooNew`` for a
        database written by newer code (left untouched)."""
        shown = redact(url)
        problem = url_problem(url)
        if problem is not None:
            raise DatabaseError(f"cannot use {shown}: {problem}")
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, timeout=CONNECT_TIMEOUT,
                                             command_timeout=COMMAND_TIMEOUT, reset=_keep_session)
        except (*_DRIVER_ERRORS, ValueError) as exc:
            if isinstance(exc, ValueError):  # a malformed URL
                raise DatabaseError(f"cannot connect to PostgreSQL at {shown}: {_reason(exc)}") from exc
            raise _mapped(exc, f"cannot connect to PostgreSQL at {shown}") from exc
        try:
            async with pool.acquire() as conn:
                await upgrade(conn, shown)
            mover = await asyncpg.create_pool(url, min_size=1, max_size=MOVE_CONNECTIONS, timeout=CONNECT_TIMEOUT,
                                              command_timeout=COMMAND_TIMEOUT, reset=_keep_session)
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, _DRIVER_ERRORS):
                raise _mapped(exc, f"lost PostgreSQL at {shown} while opening") from exc
            raise
        return cls(pool, url, mover)

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        mover, self._mover = self._mover, None
        for each in (pool, mover):
            if each is not None:
                await each.close()

    def _conn(self) -> asyncpg.Pool:
        if self._pool is None:
            raise DatabaseError("the store is closed")
        return self._pool

    # --- reads and writes ----------------------------------------------------------------------------------
    async def read(self, sql: Statement, params: Sequence[Any] = (), *, board: bool = False) -> list[Row]:
        try:
            return await self._conn().fetch(sql if isinstance(sql, str) else sql.postgres, *params)
        except _DRIVER_ERRORS as exc:
            raise _mapped(exc, "PostgreSQL refused a query") from exc

    async def transaction(self, body: Callable[[Tx], Awaitable[Any]], writes: int = 1, *, slow: bool = False) -> Any:
        """``body(tx)`` in one SERIALIZABLE transaction, again from the start after a serialization failure
        (another transaction got there first). Commit on return; roll back on an exception."""
        timeout = MIGRATION_TIMEOUT if slow else None
        for attempt in range(SERIALIZATION_RETRIES):
            try:
                async with self._conn().acquire(timeout=CONNECT_TIMEOUT) as conn:
                    async with conn.transaction(isolation="serializable"):
                        return await body(_PgTx(conn, timeout))
            except _RETRY:
                # The first retry at once (the transaction that won has committed: the next attempt sees it), then
                # with a growing random pause when many collide.
                await _back_off(random.uniform(0, 0.002 * min(attempt, 10)) if attempt else 0)
            except _DRIVER_ERRORS as exc:
                raise _mapped(exc, "PostgreSQL refused a transaction") from exc
        raise DatabaseError(f"a transaction kept colliding with others ({SERIALIZATION_RETRIES} attempts)")

    async def _statement(self, pool: asyncpg.Pool, sql: str, args: Sequence[Any], *, many: bool = False) -> Any:
        """One statement outside any transaction block (its own commit): the first row, or every row with
        ``many``. A statement chosen as a deadlock's victim was rolled back whole and is run again."""
        for attempt in range(STATEMENT_RETRIES):
            try:
                return await (pool.fetch(sql, *args) if many else pool.fetchrow(sql, *args))
            except asyncpg.DeadlockDetectedError as exc:
                if attempt == STATEMENT_RETRIES - 1:
                    raise _mapped(exc, "PostgreSQL refused a statement") from exc
                await _back_off(random.uniform(0, 0.002 * (attempt + 1)))
            except _DRIVER_ERRORS as exc:
                raise _mapped(exc, "PostgreSQL refused a statement") from exc
        raise AssertionError("unreachable")  # pragma: no cover

    # --- the operations that differ ----------------------------------------------------------------------
    async def commit_moves(self, group: list[Move], now_us: int, checked: CheckedWrite) -> Outcomes:
        """Moves in one statement (``APPLY_MOVES``, or ``APPLY_ENDING_MOVES`` when some end a counted game and
        their totals are kept in the same statement): one round trip and one commit for the whole group, where
        ``checked`` takes a SERIALIZABLE transaction of a round trip per move. A group that reaches a daily past
        its day (to be closed instead) or upserts one totals row twice takes ``checked``."""
        ids = [m.game_id for m in group]
        if len(set(ids)) != len(ids) or any(m.expiry is not None and now_us >= m.expiry[0] for m in group):
            return await super().commit_moves(group, now_us, checked)
        args: list[list[Any]] = [ids, [m.expected for m in group], [m.code for m in group],
                                 [m.snapshot for m in group], [m.status for m in group], [m.score for m in group],
                                 [m.ended_us for m in group], [m.at_us for m in group]]
        statement = APPLY_MOVES
        if any(m.tally for m in group):
            totals = totals_columns(group)
            if totals is None:
                return await super().commit_moves(group, now_us, checked)
            args += totals
            statement = APPLY_ENDING_MOVES
        # A constraint violation (e.g. a stray action-log row) is ConstraintViolation: the caller splits the group.
        rows = await self._statement(self._mover or self._conn(), statement, args, many=True)
        return outcomes(group, rows)

    async def start_game(self, values: Sequence[Any], checked: Callable[[Tx], Awaitable[tuple[str, Any]]]
                         ) -> tuple[str, Any]:
        """One statement (``START_GAME``), one round trip and its own commit."""
        row = await self._statement(self._conn(), START_GAME, values)
        if row[0] is not None:
            return ("new", row[0])
        if row[2] is not None:  # checked first, as the transaction does: a running daily is also a used attempt
            return ("active", tuple(row)[2:])
        if row[1] is not None:
            return ("used", row[1])
        raise DatabaseError("a new game was neither created nor refused")  # pragma: no cover - by construction

    async def integrity_check(self) -> str:
        """"ok" when every game's action log holds exactly moves 1…version; otherwise one line per game that
        does not (PostgreSQL checks its own pages; this checks what the bot relies on)."""
        return "\n".join(log_problems(await self.read(LOG_CHECK))) or "ok"

    async def backup(self, target: Any, *, with_secret: bool = False) -> dict:
        raise DatabaseError("back up a PostgreSQL database with `scoundrel-bot backup` (pg_dump) or `copy-db`")

    # --- copy-db -----------------------------------------------------------------------------------------
    async def tables(self) -> list[str]:
        rows = await self.read("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                               "AND tablename <> 'schema_version'")
        return sorted(r[0] for r in rows)

    async def columns(self, table: str) -> list[str]:
        rows = await self.read("SELECT column_name FROM information_schema.columns WHERE table_schema = "
                               "current_schema() AND table_name = $1 ORDER BY ordinal_position", (table,))
        return [r[0] for r in rows]

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[ReadTable]:
        async with self._conn().acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            async def read(table: str, columns: list[str]) -> AsyncIterator[list[tuple]]:
                chunk = []
                async for row in conn.cursor(f'SELECT {_names(columns)} FROM "{table}"', prefetch=CHUNK):
                    chunk.append(tuple(row))
                    if len(chunk) >= CHUNK:
                        yield chunk
                        chunk = []
                if chunk:
                    yield chunk

            yield read

    @contextlib.asynccontextmanager
    async def loading(self) -> AsyncIterator[WriteTable]:
        async with self._conn().acquire() as conn, conn.transaction():
            async def write(table: str, columns: list[str], rows: list[tuple]) -> None:
                await conn.copy_records_to_table(table, records=rows, columns=columns)

            yield write
            for table in await _identity_tables(conn):  # id generators continue after the copied ids
                await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                   f"coalesce(max(id), 0) + 1, false) FROM {table}")


async def _identity_tables(conn: asyncpg.Connection) -> list[str]:
    rows = await conn.fetch("SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() "
                            "AND column_name = 'id' AND (is_identity = 'YES' OR column_default LIKE 'nextval%') "
                            "ORDER BY table_name")
    return [r[0] for r in rows]


def _names(columns: list[str]) -> str:
    return ", ".join(f'"{c}"' for c in columns)


async def _keep_session(conn: asyncpg.Connection) -> None:
    """A connection going back to the pool is reused as it is. asyncpg's default reset sends ``RESET ALL``, ``CLOSE
    ALL``, ``UNLISTEN *`` and ``pg_advisory_unlock_all()`` on every release, a second round trip for every query;
    the store leaves nothing of that kind behind (no session settings, cursors, listeners; the migration lock is
    released where it is taken). An open transaction is still rolled back by the pool before this is called."""


# --- migrations ---------------------------------------------------------------------------------------------

async def schema_version(conn: asyncpg.Connection) -> int:
    """The applied schema version (0 for an empty database)."""
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        return 0
    return await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version")


async def upgrade(conn: asyncpg.Connection, shown: str, target: int | None = None) -> int:
    """Bring the database to ``target`` (default: the latest), one transaction per migration, one process at a
    time (an advisory lock). A database newer than the code is refused before anything is written."""
    steps = migrate.migrations(MIGRATIONS)
    known = steps[-1].version if steps else 0
    target = known if target is None else target
    migrate.check_version(await schema_version(conn), shown, known)
    await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
    try:
        current = await schema_version(conn)
        migrate.check_version(current, shown, known)
        for migration in steps:
            if migration.version <= current or migration.version > target:
                continue
            try:
                async with conn.transaction():
                    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                                       "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)")
                    await conn.execute(migration.sql, timeout=MIGRATION_TIMEOUT)
                    await conn.execute("INSERT INTO schema_version (version, name, applied_at) "
                                       "VALUES ($1, $2, (extract(epoch FROM clock_timestamp()) * 1e6)::bigint)",
                                       migration.version, migration.name)
            except asyncpg.PostgresError as exc:
                raise DatabaseError(f"{shown}: migration {migration.name} failed: {exc}") from exc
            current = migration.version
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)
    return current


__all__ = ["LOG_CHECK", "MIGRATIONS", "MOVE_CONNECTIONS", "PostgresDb", "log_problems", "redact", "schema_version",
           "upgrade"]
