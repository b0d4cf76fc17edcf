"""Drivers' errors become storage's own at the backend boundary, classified by what they mean: out of reach
(``DatabaseUnavailable``), nothing can be stored (``DatabaseFull``). Real errors from real databases."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3

import asyncpg
import pytest

import storage.backends.sqlite
from games.engine import Rules
from storage import DatabaseError, DatabaseFull, DatabaseUnavailable, Store, open_store
from storage.backends.base import Tx
from tests.storage.helpers import Clock, raw


async def _pragma(store: Store, sql: str) -> None:
    async def body(tx: Tx) -> None:
        await tx.execute(sql)

    await store.db.write(body)


async def test_a_full_sqlite_file_is_database_full_and_keeps_what_was_stored(tmp_path):
    store = await Store.open(tmp_path / "full.sqlite3", clock=Clock())
    try:
        kept = await store.create_game(1, 2, 3, Rules(), seed=1)
        pages = (await store.db.read("PRAGMA page_count"))[0][0]
        await _pragma(store, f"PRAGMA max_page_count = {pages}")  # the file may not grow: full, for real
        with pytest.raises(DatabaseFull) as full:
            for user in range(2, 2000):
                await store.create_game(user, 2, 3, Rules(), seed=user)
        assert not isinstance(full.value.__cause__, DatabaseError)
        assert isinstance(full.value.__cause__, sqlite3.Error)  # the driver's error is the cause, never the type
        assert (await store.load_game(kept.id)).id == kept.id
    finally:
        await store.close()


async def test_a_sqlite_database_that_refuses_writes_fails_the_health_check_as_full(tmp_path):
    store = await Store.open(tmp_path / "readonly.sqlite3", clock=Clock())
    try:
        assert await store.ping() is True  # a committed write
        await _pragma(store, "PRAGMA query_only = ON")  # SQLITE_READONLY from now on
        with pytest.raises(DatabaseFull):
            await store.ping()
    finally:
        await store.close()


async def test_a_sqlite_database_locked_by_another_process_is_unavailable(tmp_path, monkeypatch):
    monkeypatch.setattr(storage.backends.sqlite, "BUSY_TIMEOUT_MS", 200)
    path = tmp_path / "locked.sqlite3"
    store = await Store.open(path, clock=Clock())
    try:
        with raw(path) as other:
            other.execute("PRAGMA busy_timeout = 0")
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            with pytest.raises(DatabaseUnavailable):
                await store.ping()
            other.execute("ROLLBACK")
        assert await store.ping() is True  # and it comes back
    finally:
        await store.close()


async def _terminate_others(url: str) -> None:
    admin = await asyncpg.connect(url)
    try:
        await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    finally:
        await admin.close()


async def test_a_postgresql_connection_terminated_mid_statement_is_unavailable(pg_url):
    store = await open_store(pg_url, clock=Clock())
    try:
        assert await store.ping() is True
        slow = asyncio.create_task(store.db.read("SELECT pg_sleep(10)"))
        await asyncio.sleep(0.3)
        await _terminate_others(pg_url)  # as a server shutdown or an operator does
        with pytest.raises(DatabaseUnavailable):
            await slow
        for _ in range(20):  # the pool replaces the lost connections
            with contextlib.suppress(DatabaseUnavailable):
                assert await store.ping() is True
                break
        else:
            raise AssertionError("the store did not reconnect")
    finally:
        await store.close()


async def test_a_postgresql_database_that_refuses_writes_fails_the_health_check_as_full(pg_url):
    store = await open_store(pg_url, clock=Clock())
    name = pg_url.rsplit("/", 1)[1]
    try:
        await _admin(pg_url, f"ALTER DATABASE {name} SET default_transaction_read_only = on")
        await _terminate_others(pg_url)  # new sessions are read-only: 25006 on every write
        outcome = None
        for _ in range(20):
            try:
                await store.ping()
            except DatabaseUnavailable:  # a connection the termination broke
                continue
            except DatabaseFull as full:
                outcome = full
                break
        assert isinstance(outcome, DatabaseFull)
        assert await store.get_guild_settings(1) is not None  # reads still answer
    finally:
        await _admin(pg_url, f"ALTER DATABASE {name} RESET default_transaction_read_only")
        await store.close()


async def _admin(url: str, sql: str) -> None:
    admin = await asyncpg.connect(url)
    try:
        await admin.execute("SET default_transaction_read_only = off")  # the admin may still write
        await admin.execute(sql)
    finally:
        await admin.close()


async def test_an_unreachable_postgresql_server_is_unavailable():
    with socket_closed() as port:
        with pytest.raises(DatabaseUnavailable):
            await open_store(f"postgresql://nobody@127.0.0.1:{port}/nothing")


@contextlib.contextmanager
def socket_closed():
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    yield port  # released: nothing listens there


@pytest.mark.parametrize(("error", "expected"), [
    (asyncpg.DiskFullError("could not extend file"), DatabaseFull),  # 53100
    (asyncpg.OutOfMemoryError("out of memory"), DatabaseFull),  # 53200
    (asyncpg.ReadOnlySQLTransactionError("read-only"), DatabaseFull),  # 25006
    (asyncpg.TooManyConnectionsError("too many clients"), DatabaseUnavailable),  # 53300
    (asyncpg.AdminShutdownError("terminating connection"), DatabaseUnavailable),  # 57P01
    (asyncpg.CannotConnectNowError("the database system is starting up"), DatabaseUnavailable),  # 57P03
    (asyncpg.ConnectionFailureError("connection failure"), DatabaseUnavailable),  # 08006
    (asyncpg.InternalClientError("cannot switch to state 12; another operation is in progress"),
     DatabaseUnavailable),
    (asyncpg.InterfaceError("connection is closed"), DatabaseUnavailable),
    (ConnectionResetError("reset by peer"), DatabaseUnavailable),
    (TimeoutError(), DatabaseUnavailable),
    (asyncpg.UndefinedTableError("no such table"), DatabaseError),  # a statement the server refused
])
def test_postgresql_errors_are_classified_by_their_sqlstate_class(error, expected):
    from storage.backends.postgres import _mapped

    mapped = _mapped(error, "doing")
    assert type(mapped) is expected
