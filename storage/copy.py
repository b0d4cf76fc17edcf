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
from dataclasses import dataclass

from storage.backends.base import ReadTable, WriteTable
from storage.errors import DatabaseError
from storage.store import Store

_PARENTS = ("games", "duels")  # rows others reference: copied first


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


# --- through the database interface ---------------------------------------------------------------------------

async def _tables(store: Store) -> list[str]:
    names = await store.db.tables()
    return [t for t in _PARENTS if t in names] + [t for t in names if t not in _PARENTS]


async def _columns(store: Store, table: str) -> list[str]:
    return await store.db.columns(table)


async def _count(store: Store, table: str) -> int:
    return (await store.db.read(f'SELECT count(*) FROM "{table}"'))[0][0]


def _snapshot(store: Store) -> contextlib.AbstractAsyncContextManager[ReadTable]:
    """``read(table, columns)``: chunks of rows, all from one consistent view of the database."""
    return store.db.snapshot()


def _loading(store: Store) -> contextlib.AbstractAsyncContextManager[WriteTable]:
    """``write(table, columns, rows)`` inside one transaction, committed when the block ends without error."""
    return store.db.loading()


__all__ = ["CopyError", "copy_database"]
