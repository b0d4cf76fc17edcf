"""Copy a whole database between backends (SQLite → PostgreSQL and back), checked table by table.

The source is read in one consistent snapshot (a read transaction: SQLite's WAL and PostgreSQL's REPEATABLE READ
both give one), every table in turn, while a digest of each table's rows is taken. The target must be empty and
at the same schema version (both are opened through ``open_store``, which brings them to the latest); it is
written in one transaction, so a failed copy leaves it empty. Then the target's tables are digested again and
must equal the source's: same rows, same values, in every table (games, actions, dailies, attempts, settings,
posts, par cache, duels, running totals, the daily secret). Tables and columns are read from the schema itself,
so a column added by a later migration is copied too, and a column one side lacks stops the copy.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from .errors import DatabaseError
from .postgres import PgStore
from .store import Store

CHUNK = 5000
_PARENTS = ("games", "duels")  # rows others reference: copied first
_IDENTITY = ("games", "duels")  # PostgreSQL's id generators continue after the copied ids


class CopyError(DatabaseError):
    """The copy was refused or did not check out; the message says why."""


@dataclass
class TableDigest:
    rows: int = 0
    digest: int = 0  # sum of the rows' hashes: independent of the order rows come in

    def add(self, row) -> None:
        text = repr(tuple(_plain(value) for value in row)).encode()
        self.rows += 1
        self.digest = (self.digest + int.from_bytes(hashlib.blake2b(text, digest_size=16).digest(), "big")) % 2**128


def _plain(value):
    if isinstance(value, memoryview):
        return bytes(value)
    if isinstance(value, float):
        return repr(value)
    return value


async def copy_database(source: Store, target: Store) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target``; returns rows per table. Raises ``CopyError``."""
    tables = await _tables(source)
    if set(tables) != set(await _tables(target)):
        raise CopyError(f"the two databases have different tables: {sorted(set(tables) ^ set(await _tables(target)))}")
    for table in tables:
        if await _count(target, table):
            raise CopyError(f"the target is not empty (table {table} has rows): copy into a new, empty database")
    columns = {}
    for table in tables:
        columns[table] = await _columns(source, table)
        if set(columns[table]) != set(await _columns(target, table)):
            raise CopyError(f"table {table} has different columns in the two databases")
    digests: dict[str, TableDigest] = {}
    async with _snapshot(source) as read, _loading(target) as write:
        for table in tables:
            digest = digests[table] = TableDigest()
            async for chunk in read(table, columns[table]):
                for row in chunk:
                    digest.add(row)
                await write(table, columns[table], chunk)
    for table in tables:
        copied = TableDigest()
        async with _snapshot(target) as read:
            async for chunk in read(table, columns[table]):
                for row in chunk:
                    copied.add(row)
        if copied != digests[table]:
            raise CopyError(f"table {table} differs after the copy ({digests[table].rows} rows read, "
                            f"{copied.rows} in the target)")
    return {table: digests[table].rows for table in tables}


# --- per backend ------------------------------------------------------------------------------------------------

async def _tables(store: Store) -> list[str]:
    if isinstance(store, PgStore):
        rows = await store._read("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                                 "AND tablename <> 'schema_version'")
    else:
        rows = await store._read("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    names = sorted(r[0] for r in rows)
    return [t for t in _PARENTS if t in names] + [t for t in names if t not in _PARENTS]


async def _columns(store: Store, table: str) -> list[str]:
    if isinstance(store, PgStore):
        rows = await store._read("SELECT column_name FROM information_schema.columns WHERE table_schema = "
                                 "current_schema() AND table_name = ? ORDER BY ordinal_position", (table,))
        return [r[0] for r in rows]
    return [r[1] for r in await store._read(f'PRAGMA table_info("{table}")')]


async def _count(store: Store, table: str) -> int:
    return (await store._read(f'SELECT count(*) FROM "{table}"'))[0][0]


@contextlib.asynccontextmanager
async def _snapshot(store: Store):
    """``read(table, columns)``: chunks of rows, all from one consistent view of the database."""
    if isinstance(store, PgStore):
        async with store._conn().acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            async def read(table: str, columns: list[str]) -> AsyncIterator[list]:
                chunk = []
                async for row in conn.cursor(f'SELECT {_names(columns)} FROM "{table}"', prefetch=CHUNK):
                    chunk.append(tuple(row))
                    if len(chunk) >= CHUNK:
                        yield chunk
                        chunk = []
                if chunk:
                    yield chunk

            yield read
        return
    async with store._lock:
        db = store._conn()
        await db.execute("BEGIN")  # one read transaction: one snapshot of the WAL
        try:
            async def read(table: str, columns: list[str]) -> AsyncIterator[list]:
                async with db.execute(f'SELECT {_names(columns)} FROM "{table}"') as cursor:
                    while chunk := await cursor.fetchmany(CHUNK):
                        yield [tuple(row) for row in chunk]

            yield read
        finally:
            await db.execute("COMMIT")


@contextlib.asynccontextmanager
async def _loading(store: Store):
    """``write(table, columns, rows)`` inside one transaction, committed when the block ends without error."""
    if isinstance(store, PgStore):
        async with store._conn().acquire() as conn, conn.transaction():
            async def write(table: str, columns: list[str], rows: list) -> None:
                await conn.copy_records_to_table(table, records=rows, columns=columns)

            yield write
            for table in _IDENTITY:
                await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                   f"coalesce(max(id), 0) + 1, false) FROM {table}")
        return
    async with store._lock:
        db = store._conn()
        await db.execute("BEGIN IMMEDIATE")
        try:
            async def write(table: str, columns: list[str], rows: list) -> None:
                marks = ",".join("?" * len(columns))
                await db.executemany(f'INSERT INTO "{table}" ({_names(columns)}) VALUES ({marks})', rows)

            yield write
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")


def _names(columns: list[str]) -> str:
    return ", ".join(f'"{c}"' for c in columns)


__all__ = ["CopyError", "copy_database"]
