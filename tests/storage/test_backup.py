"""``python -m bot backup``: a consistent copy of a database that is being written to."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot import backup
from bot.engine import Rules, legal_actions
from storage import Store, migrate
from tests.storage.helpers import ROOMY

pytestmark = pytest.mark.sqlite_only  # SQLite files; PostgreSQL has its own tests


async def test_backup_of_a_live_database_while_moves_are_being_made(store, db_path, tmp_path):
    games = [await store.create_game(user, 1, 2, ROOMY, seed=user) for user in range(1, 9)]
    stop = asyncio.Event()

    async def keep_playing(record):
        while not stop.is_set() and record.playing:
            record = await store.play(record.id, record.user_id, record.version, legal_actions(record.state)[0])
            await asyncio.sleep(0)

    players = [asyncio.create_task(keep_playing(g)) for g in games]
    await asyncio.sleep(0.05)
    target = tmp_path / "copies" / "backup.sqlite3"
    facts = await asyncio.to_thread(backup.backup, db_path, target)
    stop.set()
    await asyncio.gather(*players)
    assert facts["schema_version"] == migrate.latest_version() and facts["bytes"] > 0
    conn = sqlite3.connect(target)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one self-contained file
        versions = dict(conn.execute("SELECT id, version FROM games"))
        logged = dict(conn.execute("SELECT game_id, count(*) FROM game_actions GROUP BY game_id"))
    finally:
        conn.close()
    assert len(versions) == 8
    assert all(logged.get(game_id, 0) == version for game_id, version in versions.items())  # consistent
    copy = await Store.open(target)
    try:
        for game_id in versions:
            assert (await copy.load_game(game_id)).version == versions[game_id]
    finally:
        await copy.close()


async def test_store_backup_method(store, tmp_path):
    record = await store.create_game(5, 1, 2, Rules(), seed=3)
    target = tmp_path / "inline.sqlite3"
    await store.backup(target)
    copy = await Store.open(target)
    try:
        assert (await copy.load_game(record.id)).state == record.state
    finally:
        await copy.close()


def test_the_command_line(tmp_path, capsys):
    db = tmp_path / "live.sqlite3"

    async def make():
        s = await Store.open(db)
        await s.create_game(5, 1, 2, Rules(), seed=3)
        await s.close()

    asyncio.run(make())
    target = tmp_path / "copy.sqlite3"
    assert backup.main([str(target), "--db", str(db)]) == 0
    assert "integrity ok" in capsys.readouterr().out
    assert backup.main([str(target), "--db", str(db)]) == 1  # will not overwrite ...
    assert "already exists" in capsys.readouterr().err
    assert backup.main([str(target), "--db", str(db), "--force"]) == 0  # ... unless asked
    assert backup.main([str(tmp_path / "x.sqlite3"), "--db", str(tmp_path / "missing.sqlite3")]) == 1
    assert "no database" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.partial"))
