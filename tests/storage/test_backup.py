"""``scoundrel-bot backup`` / ``restore``: copies of a live database that finish, are checked, keep no secret
unless asked, never leave half-written files, and go back in place with the daily secret."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from bot import backup as backup_cli
from games.engine import Rules, legal_actions
from storage import Store, migrate
from storage.backup import PARTIAL_SUFFIX, backup, remove_stale_partials, restore
from tests.storage.bulk import make_database
from tests.storage.helpers import ROOMY

pytestmark = pytest.mark.sqlite_only  # SQLite files; PostgreSQL has its own tests


def cli(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True, timeout=120,
                          **kwargs)


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
    facts = await asyncio.to_thread(backup, db_path, target)
    stop.set()
    await asyncio.gather(*players)
    assert facts["schema_version"] == migrate.latest_version() and facts["bytes"] > 0 and facts["checked"]
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


def test_backup_finishes_while_another_process_commits_all_the_time(tmp_path):
    """The online backup API restarted on every commit by another connection; VACUUM INTO does not."""
    db = tmp_path / "busy.sqlite3"
    make_database(db, 3000, padding=2000)
    stop = threading.Event()
    commits = 0

    def writer():
        nonlocal commits
        conn = sqlite3.connect(db, isolation_level=None, timeout=5)
        try:
            while not stop.is_set():
                conn.execute("UPDATE games SET message_id = coalesce(message_id, 0) + 1 WHERE id = ?",
                             (commits % 3000 + 1,))
                commits += 1
        finally:
            conn.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        time.sleep(0.05)
        before = commits
        facts = backup(db, tmp_path / "copy.sqlite3")
        during = commits - before
    finally:
        stop.set()
        thread.join()
    assert during > 10, "the writer kept committing while the copy was made"
    assert facts["checked"] and facts["bytes"] > 3000 * 2000


def _secret(path) -> bytes | None:
    conn = sqlite3.connect(path)
    try:
        row = conn.execute("SELECT value FROM bot_secrets WHERE name = 'daily'").fetchone()
        return bytes(row[0]) if row else None
    finally:
        conn.close()


async def test_the_daily_secret_stays_out_of_an_ordinary_backup(store, db_path, tmp_path):
    secret = await store.daily_secret()
    await store.create_game(5, 1, 2, Rules(), seed=3)
    plain = tmp_path / "plain.sqlite3"
    facts = await asyncio.to_thread(backup, db_path, plain)
    assert not facts["secret"] and facts["secret_removed"]
    assert _secret(plain) is None
    assert secret not in plain.read_bytes()  # not just unlinked: the bytes are gone from the file
    full = tmp_path / "full.sqlite3"
    facts = await asyncio.to_thread(backup, db_path, full, with_secret=True)
    assert facts["secret"] and _secret(full) == secret


async def test_store_backup_method(store, tmp_path):
    record = await store.create_game(5, 1, 2, Rules(), seed=3)
    target = tmp_path / "inline.sqlite3"
    await store.backup(target)
    copy = await Store.open(target)
    try:
        assert (await copy.load_game(record.id)).state == record.state
    finally:
        await copy.close()


def _make_small(db):
    async def make():
        s = await Store.open(db)
        await s.create_game(5, 1, 2, Rules(), seed=3)
        await s.daily_secret()
        await s.close()

    asyncio.run(make())


def test_the_command_line(tmp_path, capsys):
    db = tmp_path / "live.sqlite3"
    _make_small(db)
    target = tmp_path / "copy.sqlite3"
    assert backup_cli.main([str(target), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "integrity ok" in out and "without the daily secret" in out
    assert backup_cli.main([str(target), "--db", str(db)]) == 1  # will not overwrite ...
    assert "already exists" in capsys.readouterr().err
    assert backup_cli.main([str(target), "--db", str(db), "--force", "--with-secret"]) == 0  # ... unless asked
    assert "with the daily secret" in capsys.readouterr().out
    assert backup_cli.main([str(tmp_path / "x.sqlite3"), "--db", str(tmp_path / "missing.sqlite3")]) == 1
    assert "no database" in capsys.readouterr().err
    assert not [p for p in tmp_path.iterdir() if PARTIAL_SUFFIX in p.name]


def test_backup_with_config_finds_the_same_database_as_run(tmp_path):
    (tmp_path / "data").mkdir()
    db = tmp_path / "data" / "bot.db"
    _make_small(db)
    config = tmp_path / "config.toml"
    config.write_text('[bot]\ndatabase = "data/bot.db"\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # no token needed, and the path is relative to the config file, not to where the command runs
    result = cli("backup", str(tmp_path / "copy.sqlite3"), "--config", str(config), cwd=elsewhere,
                 env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert f"backed up {db} to" in result.stdout
    env_result = cli("backup", str(tmp_path / "copy2.sqlite3"), cwd=tmp_path,
                     env={"PATH": "/usr/bin:/bin", "SCOUNDREL_DATABASE": "data/bot.db"})
    assert env_result.returncode == 0 and f"backed up {db} to" in env_result.stdout
    bad = cli("backup", str(tmp_path / "copy3.sqlite3"), "--config", str(tmp_path / "nope.toml"))
    assert bad.returncode == 2 and bad.stderr.startswith("error: config file") and bad.stderr.count("\n") == 1
    both = cli("backup", "x", "--config", str(config), "--db", str(db))
    assert both.returncode == 2 and "not allowed with argument" in both.stderr


def test_stale_partials_are_removed_and_live_ones_kept(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(dead.stdout)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        stale = tmp_path / f".copy.sqlite3.{dead_pid}{PARTIAL_SUFFIX}"
        stale_journal = tmp_path / f".copy.sqlite3.{dead_pid}{PARTIAL_SUFFIX}-journal"
        live = tmp_path / f".other.sqlite3.{sleeper.pid}{PARTIAL_SUFFIX}"
        unrelated = tmp_path / "notes.partial"
        for path in (stale, stale_journal, live, unrelated):
            path.write_bytes(b"x")
        assert sorted(remove_stale_partials(tmp_path)) == sorted([stale, stale_journal])
        assert live.exists() and unrelated.exists()
    finally:
        sleeper.kill()
        sleeper.wait()


def _wait_for_partial(directory, proc, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(p.name.endswith(PARTIAL_SUFFIX) for p in directory.iterdir()):
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.005)
    return False


@pytest.fixture(scope="module")
def big_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("big") / "big.sqlite3"
    make_database(db, 20000, padding=4000)  # ~100 MB: a copy takes long enough to be interrupted
    return db


def test_a_killed_backup_is_cleaned_up_by_the_next_one(big_db, tmp_path):
    target = tmp_path / "copy.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "bot", "backup", str(target), "--db", str(big_db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert _wait_for_partial(tmp_path, proc), "the copy finished before it could be killed"
    proc.kill()
    proc.wait()
    assert [p for p in tmp_path.iterdir() if PARTIAL_SUFFIX in p.name], "the kill left a partial behind"
    assert not target.exists()
    result = cli("backup", str(tmp_path / "next.sqlite3"), "--db", str(big_db), "--no-check")
    assert result.returncode == 0, result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["next.sqlite3"]


def test_ctrl_c_stops_a_backup_without_a_traceback_or_leftovers(big_db, tmp_path):
    target = tmp_path / "copy.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "bot", "backup", str(target), "--db", str(big_db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert _wait_for_partial(tmp_path, proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


async def test_restore_puts_a_backup_back_with_its_secret(tmp_path):
    db = tmp_path / "bot.sqlite3"
    store = await Store.open(db)
    secret = await store.daily_secret()
    record = await store.create_game(5, 1, 2, Rules(), seed=3)
    plain, full = tmp_path / "plain.sqlite3", tmp_path / "full.sqlite3"
    await asyncio.to_thread(backup, db, plain)
    await asyncio.to_thread(backup, db, full, with_secret=True)
    with pytest.raises(Exception, match="in use: stop the bot"):  # never under a running bot
        await asyncio.to_thread(restore, plain, db)
    await store.create_game(6, 1, 2, Rules(), seed=4)  # made after the backup: the restore drops it
    await store.close()

    db.unlink()  # the disk died: only the backups are left
    with pytest.raises(Exception, match="holds no daily secret"):
        restore(plain, db)
    facts = restore(plain, db, secret_from=full)
    assert facts["secret_from"] == str(full)
    restored = await Store.open(db)
    try:
        assert await restored.daily_secret() == secret  # the same dailies as before
        assert (await restored.load_game(record.id)).state == record.state
        assert await restored.active_game(6) is None
    finally:
        await restored.close()


def test_restore_command_line(tmp_path):
    db = tmp_path / "bot.sqlite3"
    _make_small(db)
    secret = _secret(db)
    plain = tmp_path / "plain.sqlite3"
    assert cli("backup", str(plain), "--db", str(db)).returncode == 0
    # with the database still there, its secret is kept
    result = cli("restore", str(plain), "--db", str(db))
    assert result.returncode == 0, result.stderr
    assert "daily secret from the database being replaced" in result.stdout and _secret(db) == secret
    os.unlink(db)
    refused = cli("restore", str(plain), "--db", str(db))
    assert refused.returncode == 1 and "--secret-from" in refused.stderr and not db.exists()
    fresh = cli("restore", str(plain), "--db", str(db), "--new-secret")
    assert fresh.returncode == 0 and "a new daily secret" in fresh.stdout and _secret(db) is None


async def test_a_backup_copied_into_place_by_hand_warns_when_the_secret_is_remade(tmp_path, caplog):
    db = tmp_path / "bot.sqlite3"
    store = await Store.open(db)
    secret = await store.daily_secret()
    await store.put_daily(1, 12345)
    await store.close()
    plain = tmp_path / "plain.sqlite3"
    backup(db, plain)
    reopened = await Store.open(plain)  # what a careless restore (cp) would start with
    try:
        with caplog.at_level("WARNING", logger="storage.daily"):
            assert await reopened.daily_secret() != secret
            await reopened.daily_secret()
    finally:
        await reopened.close()
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1 and "daily secret was missing" in warnings[0]
