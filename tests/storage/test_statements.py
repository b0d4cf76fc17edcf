"""Every named statement of the storage areas is valid on both backends: prepared by the database itself
(SQLite ``EXPLAIN``, PostgreSQL ``PREPARE``), on a database at the latest schema. Where the two dialects differ the
statement is an ``Sql`` pair, and each database gets its own text; nothing is rewritten at run time."""

from __future__ import annotations

import importlib

import asyncpg

from storage import Store
from storage.backends.base import Sql
from tests.storage.helpers import raw

AREAS = ("storage.games", "storage.moves", "storage.daily", "storage.posts", "storage.guilds", "storage.boards",
         "storage.par", "storage.sql", "storage.store", "storage.duels", "storage.months", "storage.reminders",
         "storage.shares")
POSTGRES_ONLY = ("storage.backends.pg_moves",)  # PostgreSQL's one-statement writes
VERBS = ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH")


def statements(modules) -> dict[str, str | Sql]:
    """Every public module-level statement (a ``str`` both take, or an ``Sql`` pair), by its qualified name."""
    found = {}
    for name in modules:
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if attr.startswith("_") or not attr.isupper():
                continue
            if isinstance(value, Sql) and value.sqlite.lstrip().upper().startswith(VERBS):
                found[f"{name}.{attr}"] = value
            elif isinstance(value, str) and value.lstrip().upper().startswith(VERBS):
                found[f"{name}.{attr}"] = value
    return found


def test_the_areas_name_their_statements():
    named = statements(AREAS)
    assert len(named) > 60 and any(isinstance(s, Sql) for s in named.values())
    assert len(statements(POSTGRES_ONLY)) == 3


async def test_every_statement_prepares_on_sqlite(tmp_path):
    db_path = tmp_path / "statements.sqlite3"
    await (await Store.open(db_path)).close()  # the latest schema
    unbound = {str(n): None for n in range(1, 41)}  # $1 … $40: named parameters to SQLite
    with raw(db_path) as conn:
        for name, sql in statements(AREAS).items():
            text = sql.sqlite if isinstance(sql, Sql) else sql
            try:
                conn.execute("EXPLAIN " + text, unbound).fetchall()
            except Exception as exc:  # noqa: BLE001 - name the statement that failed
                raise AssertionError(f"{name} does not prepare on SQLite: {exc}") from exc


async def test_every_statement_prepares_on_postgresql(pg_url):
    conn = await asyncpg.connect(pg_url)  # a database at the latest schema
    try:
        for name, sql in {**statements(AREAS), **statements(POSTGRES_ONLY)}.items():
            text = sql.postgres if isinstance(sql, Sql) else sql
            try:
                await conn.prepare(text)  # PREPARE: parsed, typed and planned by the server
            except asyncpg.PostgresError as exc:
                raise AssertionError(f"{name} does not prepare on PostgreSQL: {exc}") from exc
    finally:
        await conn.close()
