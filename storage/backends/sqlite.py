"""SQLite through aiosqlite: one writer connection, read-only pools, a background WAL checkpointer.

* One long-lived writer connection, WAL mode, ``busy_timeout`` 5 s, foreign keys on; an ``asyncio.Lock`` keeps one
  transaction at a time on it. Every write is one ``BEGIN IMMEDIATE`` transaction: the write lock is taken up front,
  so two processes never deadlock upgrading a read lock to a write lock. A group of moves is one such transaction
  (one fsync for the whole group).
* ``synchronous=FULL``: a move is acknowledged only after its commit, so a commit must be on disk (WAL NORMAL would
  give up the last commits on a power cut). About a quarter of a millisecond per move (benchmarks/storage_bench.py).
* Checkpoints (copying the WAL back into the file, with an fsync) run on a connection of their own after every
  ``checkpoint_every`` writes (PASSIVE: never blocking the writer), so no click waits behind one; SQLite's automatic
  checkpoint stays on as a backstop at a larger size. No timer: an idle database has no task running.
* Plain reads go through read-only connections: under WAL a reader sees every transaction committed before its
  query starts and never waits for the writer's fsync. Two pools: game loads, and boards and stats, so a click's
  load never waits behind a board.
* A write transaction is one hand-off to the writer's thread: BEGIN, the body's statements and COMMIT run there in
  one call (``_in_one_go``), as a thread hand-off costs far more CPU than a statement. The body is the same
  ``async`` code the PostgreSQL backend awaits; here its ``Tx`` runs each statement at once, so the body never
  suspends and is run to its end in that thread.
* ``sqlite3`` errors become storage's own at this boundary (``_mapped``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import aiosqlite

from storage import migrate
from storage.backends.base import ConstraintViolation, Db, ReadTable, Row, Statement, Tx, WriteTable
from storage.backup import backup as copy_file
from storage.errors import DatabaseError, DatabaseFull, DatabaseUnavailable
from storage.maintenance import JOURNAL_SIZE_LIMIT

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
CHECKPOINT_EVERY = 100  # writes (moves or other transactions) between background WAL checkpoints
BACKSTOP_CHECKPOINT_PAGES = 10000  # SQLite's automatic checkpoint, should the background one fall behind
READ_CONNECTIONS = 2  # read-only connections for game loads, and as many again for boards and stats
CHUNK = 5000  # rows per chunk when copying a table
# Primary result codes (the low byte of an extended code), by what they mean.
_FULL = (sqlite3.SQLITE_FULL, sqlite3.SQLITE_READONLY)  # nothing can be stored
_UNREACHABLE = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_CANTOPEN)  # not in time, or not at all


_NAMES = tuple(str(number) for number in range(1, 100))  # "$1" is SQLite's parameter named "1"


def _bind(params: Sequence[Any]) -> dict[str, Any]:
    """``$1, $2, …`` are named parameters to SQLite: bound by name, so their order in the text does not matter."""
    return dict(zip(_NAMES, params, strict=False))  # as many names as there are values


def _mapped(exc: sqlite3.Error, doing: str) -> DatabaseError:
    """Storage's error for a driver's: by the result code SQLite gives (what went wrong, not which class)."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = f"{doing}: {exc}"
    if isinstance(exc, sqlite3.IntegrityError):
        return ConstraintViolation(text)
    if primary in _FULL or "disk is full" in str(exc) or "readonly database" in str(exc):
        return DatabaseFull(text)
    if primary in _UNREACHABLE or "database is locked" in str(exc):
        return DatabaseUnavailable(text)
    return DatabaseError(text)


class _DirectTx(Tx):
    """The writer's own ``sqlite3`` connection, in its thread, inside a transaction: each statement runs at once."""

    __slots__ = ("_conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: Statement, params: Sequence[Any] = ()) -> int:
        return self._conn.execute(sql if isinstance(sql, str) else sql.sqlite, _bind(params)).rowcount

    async def executemany(self, sql: Statement, rows: Sequence[Sequence[Any]]) -> None:
        self._conn.executemany(sql if isinstance(sql, str) else sql.sqlite, [_bind(r) for r in rows])

    async def execute_each(self, sql: Statement, rows: Sequence[Sequence[Any]]) -> int:
        return self._conn.executemany(sql if isinstance(sql, str) else sql.sqlite, [_bind(r) for r in rows]).rowcount

    async def fetch(self, sql: Statement, params: Sequence[Any] = ()) -> list[Row]:
        return self._conn.execute(sql if isinstance(sql, str) else sql.sqlite, _bind(params)).fetchall()


def _in_one_go(conn: sqlite3.Connection, body: Callable[[Tx], Awaitable[Any]]) -> Any:
    """In the writer's thread: ``body`` in one BEGIN IMMEDIATE transaction, committed on return, rolled back on an
    exception. ``body`` awaits only its ``_DirectTx``, which never suspends, so one ``send`` runs it to its end."""
    if conn.in_transaction:  # pragma: no cover - defensive: never left open by this class
        conn.execute("ROLLBACK")
    conn.execute("BEGIN IMMEDIATE")
    try:
        run = body(_DirectTx(conn))
        try:
            run.send(None)  # type: ignore[attr-defined]  # a coroutine
        except StopIteration as done:
            result = done.value
        else:
            run.close()  # type: ignore[attr-defined]
            raise RuntimeError("a write transaction's body awaited something other than its Tx")
        conn.execute("COMMIT")  # a failed COMMIT (disk full, I/O error) is rolled back below
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


class _ReadPool:
    """Read-only connections handed out one query at a time: a query waits only when all of them are busy."""

    def __init__(self, connections: list[aiosqlite.Connection]) -> None:
        self._all = list(connections)
        self._idle: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        for connection in self._all:
            self._idle.put_nowait(connection)

    async def fetchall(self, sql: str, params: dict[str, Any]) -> list[Row]:
        connection = await self._idle.get()
        try:
            return list(await connection.execute_fetchall(sql, params))
        finally:
            self._idle.put_nowait(connection)

    async def close(self) -> None:
        for connection in self._all:
            await connection.close()


class SqliteDb(Db):
    """A SQLite file. Open with ``await SqliteDb.open(path)``."""

    dialect = "sqlite"
    remembers_games = True  # a click's move skips reading the game its load just read (a hand-off saved)

    def __init__(self, conn: aiosqlite.Connection, path: str, checkpointer: aiosqlite.Connection | None,
                 checkpoint_every: int, readers: list[aiosqlite.Connection],
                 board_readers: list[aiosqlite.Connection]) -> None:
        self._db: aiosqlite.Connection | None = conn
        self.path = self.shown = path
        self._reader = _ReadPool(readers) if readers else None
        self._board_reader = _ReadPool(board_readers) if board_readers else self._reader
        self._lock = asyncio.Lock()  # one transaction at a time on the writer
        self._checkpointer = checkpointer
        self._checkpoint_every = checkpoint_every
        self._writes = 0  # since the last checkpoint
        self._checkpoint_task: asyncio.Task | None = None

    @classmethod
    async def open(cls, path: str | os.PathLike, *, synchronous: str = "FULL",
                   checkpoint_every: int | None = CHECKPOINT_EVERY, separate_reads: bool = True,
                   read_connections: int = READ_CONNECTIONS) -> SqliteDb:
        """Open (creating or upgrading) the database at ``path``. ``checkpoint_every=None`` keeps SQLite's own
        checkpoints; ``separate_reads=False`` reads on the writer. Raises ``SchemaTooNew`` for a database written by
        newer code and ``DatabaseError`` for a file that is not a usable SQLite database."""
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        path = str(path)
        await asyncio.to_thread(_prepare, path)
        try:
            db = await aiosqlite.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        except sqlite3.Error as exc:
            raise _mapped(exc, f"cannot open the database {path}") from exc
        checkpointer = None
        readers: list[aiosqlite.Connection] = []
        try:
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            await db.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT:d}")  # the WAL shrinks back
            version = list(await db.execute_fetchall("PRAGMA user_version"))[0][0]
            migrate.check_version(version, path)
            if version != migrate.latest_version():  # pragma: no cover - _prepare just upgraded it
                raise DatabaseError(f"{path} is at schema version {version} after upgrading")
            if checkpoint_every is not None:
                await db.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP_CHECKPOINT_PAGES:d}")
                checkpointer = await aiosqlite.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
                await checkpointer.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
                await checkpointer.execute(f"PRAGMA synchronous = {synchronous.upper()}")
                await checkpointer.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT:d}")
            for _ in range(2 * max(1, read_connections) if separate_reads else 0):
                reader = await aiosqlite.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
                readers.append(reader)
                await reader.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
                await reader.execute("PRAGMA query_only = ON")
        except BaseException as exc:
            for extra in (checkpointer, *readers):
                if extra is not None:
                    await extra.close()
            await db.close()
            if isinstance(exc, sqlite3.Error):
                raise _mapped(exc, f"cannot open the database {path}") from exc
            raise
        half = len(readers) // 2
        return cls(db, path, checkpointer, checkpoint_every or CHECKPOINT_EVERY, readers[:half], readers[half:])

    async def close(self) -> None:
        task, self._checkpoint_task = self._checkpoint_task, None
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        checkpointer, self._checkpointer = self._checkpointer, None
        if checkpointer is not None:
            await checkpointer.close()
        pools = {id(p): p for p in (self._reader, self._board_reader) if p is not None}
        self._reader = self._board_reader = None
        for pool in pools.values():
            await pool.close()
        async with self._lock:
            db, self._db = self._db, None
            if db is not None:
                await db.close()  # the last connection to close checkpoints the WAL into the file

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise DatabaseError("the store is closed")
        return self._db

    # --- reads and writes ----------------------------------------------------------------------------------
    async def read(self, sql: Statement, params: Sequence[Any] = (), *, board: bool = False) -> list[Row]:
        text = sql if isinstance(sql, str) else sql.sqlite
        pool = self._board_reader if board else self._reader
        try:
            if pool is not None:
                return await pool.fetchall(text, _bind(params))
            async with self._lock:
                return list(await self._conn().execute_fetchall(text, _bind(params)))
        except sqlite3.Error as exc:
            raise _mapped(exc, "a query failed") from exc

    async def transaction(self, body: Callable[[Tx], Awaitable[Any]], writes: int = 1, *, slow: bool = False) -> Any:
        """``body(tx)`` in one BEGIN IMMEDIATE transaction; commit on return, roll back on an exception."""
        async with self._lock:
            db = self._conn()
            try:
                # aiosqlite's own way of running a call in the connection's thread (``_execute``, on its
                # ``sqlite3`` connection ``_conn``): the whole transaction in one hand-off (see the module)
                result = await db._execute(_in_one_go, db._conn, body)
            except sqlite3.Error as exc:
                raise _mapped(exc, "a write failed") from exc
            self._wrote(writes)
            return result

    def _wrote(self, count: int = 1) -> None:
        """Count committed writes; start a background checkpoint when enough have gathered in the WAL."""
        self._writes += count
        if self._checkpointer is None or self._writes < self._checkpoint_every:
            return
        if self._checkpoint_task is not None and not self._checkpoint_task.done():
            return
        self._writes = 0
        self._checkpoint_task = asyncio.get_running_loop().create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        try:
            if self._checkpointer is not None:
                await self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except (sqlite3.Error, ValueError) as exc:  # pragma: no cover - the backstop checkpoint still runs
            log.warning("background checkpoint failed: %s", exc)

    # --- the operations that differ ----------------------------------------------------------------------
    async def integrity_check(self) -> str:
        rows = await self.read("PRAGMA integrity_check")
        return "\n".join(str(row[0]) for row in rows)

    async def backup(self, target: Any, *, with_secret: bool = False) -> dict:
        """Copy the live database to ``target`` (storage/backup.py: VACUUM INTO, checked; writes go on meanwhile)."""
        return await asyncio.to_thread(copy_file, self.path, target, overwrite=True, with_secret=with_secret)

    # --- copy-db -----------------------------------------------------------------------------------------
    async def tables(self) -> list[str]:
        rows = await self.read("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        return sorted(r[0] for r in rows)

    async def columns(self, table: str) -> list[str]:
        return [r[1] for r in await self.read(f'PRAGMA table_info("{table}")')]

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[ReadTable]:
        async with self._lock:
            db = self._conn()
            await db.execute("BEGIN")  # one read transaction: one snapshot of the WAL
            try:
                async def read(table: str, columns: list[str]) -> AsyncIterator[list[tuple]]:
                    async with db.execute(f'SELECT {_names(columns)} FROM "{table}"') as cursor:
                        while chunk := await cursor.fetchmany(CHUNK):
                            yield [tuple(row) for row in chunk]

                yield read
            finally:
                await db.execute("COMMIT")

    @contextlib.asynccontextmanager
    async def loading(self) -> AsyncIterator[WriteTable]:
        async with self._lock:
            db = self._conn()
            await db.execute("BEGIN IMMEDIATE")
            try:
                async def write(table: str, columns: list[str], rows: list[tuple]) -> None:
                    marks = ",".join("?" * len(columns))
                    await db.executemany(f'INSERT INTO "{table}" ({_names(columns)}) VALUES ({marks})', rows)

                yield write
            except BaseException as exc:
                await db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise _mapped(exc, "the copy failed") from exc
                raise
            await db.execute("COMMIT")


def _names(columns: list[str]) -> str:
    return ", ".join(f'"{c}"' for c in columns)


def _switch_to_wal(conn: sqlite3.Connection) -> str:
    """``PRAGMA journal_mode = WAL``, retried while another connection holds the file. Two connections switching at
    once both hold a shared lock and want an exclusive one; SQLite then answers "locked" at once, without waiting
    on the busy timeout, to one of them (it would be a deadlock otherwise), so the wait is here."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    pause = 0.001
    while True:
        try:
            return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause * (1 + random.random()))  # apart, so the next try does not meet the same lock
        pause = min(pause * 2, 0.05)


def _prepare(path: str) -> None:
    """Before the async connection opens: check the file, switch to WAL, apply pending migrations."""
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as exc:
        raise _mapped(exc, f"cannot open the database {path}") from exc
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        migrate.check_version(version, path)  # before anything could change the file
        if version == 0:  # a new file: free pages can then go back to the file system (storage/maintenance.py)
            conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
        mode = _switch_to_wal(conn)
        if mode.lower() != "wal":
            raise DatabaseError(f"{path}: cannot switch to WAL mode (journal mode stays {mode})")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        migrate.upgrade(conn, path)
    except sqlite3.DatabaseError as exc:
        mapped = _mapped(exc, path)
        if type(mapped) is DatabaseError:
            mapped = DatabaseError(f"{path} is not a usable SQLite database: {exc}")
        raise mapped from exc
    finally:
        conn.close()


__all__ = ["BUSY_TIMEOUT_MS", "CHECKPOINT_EVERY", "READ_CONNECTIONS", "SqliteDb"]
