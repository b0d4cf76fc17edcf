"""What only PostgreSQL has: its migrations and version table, an unreachable or restarting server."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

from games.engine import Rules, legal_actions
from storage import DatabaseError, SchemaTooNew, migrate, open_store
from storage.backends.postgres import MIGRATIONS
from tests.storage.helpers import raw

USER, GUILD, CHANNEL = 1001, 501, 601
LATEST = migrate.latest_version(MIGRATIONS)
TABLES = {"games", "game_actions", "daily_challenges", "daily_attempts", "guild_settings", "daily_posts",
          "bot_secrets", "player_totals", "par_cache", "duels", "duel_actions", "heartbeat", "schema_version"}


def versions(url) -> list[int]:
    with raw(url) as conn:
        return [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY version")]


def tables(url) -> set[str]:
    with raw(url) as conn:
        return {r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}


def test_the_postgresql_migrations_mirror_the_sqlite_ones():
    """Same numbers and names: schema version N means the same tables on both backends (and copy-db relies on it)."""
    assert [m.name for m in migrate.migrations(MIGRATIONS)] == [m.name for m in migrate.migrations()]


async def test_an_empty_database_is_created_at_the_latest_version(pg_empty_url):
    pg_url = pg_empty_url
    store = await open_store(pg_url)
    await store.close()
    assert versions(pg_url) == list(range(1, LATEST + 1)) and TABLES <= tables(pg_url)
    store = await open_store(pg_url)  # opening again changes nothing
    await store.close()
    assert versions(pg_url) == list(range(1, LATEST + 1))


async def test_processes_opening_a_new_database_at_once_migrate_it_once(pg_empty_url):
    pg_url = pg_empty_url
    stores = await asyncio.gather(*(open_store(pg_url) for _ in range(4)))
    for store in stores:
        await store.close()
    assert versions(pg_url) == list(range(1, LATEST + 1))


async def test_a_newer_database_is_refused_and_left_alone(pg_url):
    store = await open_store(pg_url)
    record = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=1)
    await store.close()
    with raw(pg_url) as conn:
        conn.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (?, 'from the future', 0)",
                     (LATEST + 1,))
    before = tables(pg_url)
    with pytest.raises(SchemaTooNew) as caught:
        await open_store(pg_url)
    assert caught.value.found == LATEST + 1 and caught.value.known == LATEST
    assert tables(pg_url) == before and versions(pg_url)[-1] == LATEST + 1
    with raw(pg_url) as conn:
        assert conn.execute("SELECT count(*) FROM games WHERE id = ?", (record.id,)).fetchone()[0] == 1


async def test_an_unreachable_server_is_a_database_error_without_the_password(postgres_server):
    url = f"postgresql://scoundrel:hunter2@127.0.0.1:{_closed_port()}/scoundrel"
    started = time.monotonic()
    with pytest.raises(DatabaseError) as caught:
        await open_store(url)
    assert time.monotonic() - started < 10
    assert "hunter2" not in str(caught.value) and "127.0.0.1" in str(caught.value)


async def test_a_server_restart_loses_nothing_and_the_pool_reconnects(postgres_server, pg_url):
    store = await open_store(pg_url)
    try:
        record = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=7)
        record = await store.play(record.id, USER, 0, legal_actions(record.state)[0])
        await asyncio.to_thread(postgres_server.server_stop, "immediate")  # a crash: no shutdown checkpoint
        try:
            with pytest.raises(DatabaseError):
                await store.play(record.id, USER, record.version, legal_actions(record.state)[0])
            with pytest.raises(DatabaseError):
                await store.load_game(record.id)
        finally:
            await asyncio.to_thread(postgres_server.server_start)
        loaded = await store.load_game(record.id)  # the same store: the pool opened new connections
        assert loaded.version == 1 and loaded.state == record.state
        moved = await store.play(record.id, USER, 1, legal_actions(record.state)[0])
        assert moved.version == 2 and await store.game_actions(record.id) == [a.code for a in moved.state.history]
    finally:
        await store.close()


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # released on leaving: nothing listens there
