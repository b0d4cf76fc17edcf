"""Pruning, compaction, the WAL size limit, ``scoundrel-bot maintenance`` and the start-up check."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

import storage.backends.sqlite
from bot.run import check_database
from games.engine import Rules
from storage import Store
from storage.backup import PARTIAL_SUFFIX
from storage.maintenance import Policy, auto_vacuum_mode, connect, file_size, prune, run, startup_check
from tests.storage.bulk import finished_game, make_database
from tests.storage.helpers import START, Clock

pytestmark = pytest.mark.sqlite_only  # SQLite files and connections; PostgreSQL has its own


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True, timeout=120)


def _snapshots(db) -> dict[int, bool]:
    conn = sqlite3.connect(db)
    try:
        return {gid: snap is not None for gid, snap in conn.execute("SELECT id, snapshot FROM games")}
    finally:
        conn.close()


async def _play_out(store, record, state):
    for action in state.history:
        record = await store.play(record.id, record.user_id, record.version, action)
    return record


async def test_pruning_follows_the_policy_and_loses_nothing(db_path, caplog):
    clock = Clock()
    store = await Store.open(db_path, clock=clock)
    try:
        old = await _play_out(store, await store.create_game(1, 1, 1, Rules(), seed=1), finished_game(1))
        playing = await store.create_game(2, 1, 1, Rules(), seed=2)
        await store.put_par("k", "S2 S3", 5, "T0")
        assert await store.claim_daily_post(1, 100, "me", timedelta(minutes=2))
        await store.confirm_daily_post(1, 100, 7, 70)
        assert await store.reminders.claim(9, 100, "me")
        clock.advance(timedelta(days=6).total_seconds())
        recent = await _play_out(store, await store.create_game(3, 1, 1, Rules(), seed=3), finished_game(3))
        await store.put_par("k", "S4 S5", 7, "T1")
        assert await store.claim_daily_post(1, 101, "me", timedelta(minutes=2))
        await store.confirm_daily_post(1, 101, 7, 71)
        assert await store.reminders.claim(9, 101, "me")
    finally:
        await store.close()

    now = START + timedelta(days=8)  # old game ended 8 days ago, recent 2 days ago
    conn = connect(db_path)
    try:
        counts = prune(conn, now, Policy(snapshot_days=7, par_days=7, post_days=7, batch=1))
    finally:
        conn.close()
    assert counts == {"snapshots": 1, "par_cache": 1, "daily_posts": 1, "reminder_sends": 1}
    assert _snapshots(db_path) == {old.id: False, playing.id: True, recent.id: True}

    store = await Store.open(db_path)
    try:
        with caplog.at_level(logging.WARNING, logger="storage.games"):
            loaded = await store.load_game(old.id)
        assert loaded.state == old.state and loaded.score == old.score  # replayed from the action log
        assert not caplog.records, "a pruned snapshot is policy, not damage"
        assert await store.get_par("k", "S2 S3") is None and await store.get_par("k", "S4 S5") == (7, "T1")
        assert await store.daily_post_message(1, 100) is None
        assert not await store.claim_daily_post(1, 101, "other", timedelta(minutes=2))  # the recent post stands
        assert await store.daily_post_message(1, 101) == (7, 71)
        stats = await store.user_stats(1)
        assert stats.games == 1 and stats.best == old.score  # stats never depended on snapshots
    finally:
        await store.close()


def test_new_databases_give_freed_space_back(tmp_path):
    db = tmp_path / "bulk.sqlite3"
    make_database(db, 2000, padding=3000)
    conn = connect(db)
    try:
        assert auto_vacuum_mode(conn) == "incremental"
    finally:
        conn.close()
    before = file_size(db)
    report = run(db, now=datetime.now(UTC) + timedelta(days=30), quick=True)
    assert report.problems == [] and report.pruned["snapshots"] == 2000
    assert report.freed_pages > 0
    assert report.bytes_after < before / 2, (before, report.bytes_after)
    assert file_size(db) == report.bytes_after


def test_an_old_file_is_compacted_by_a_full_vacuum(tmp_path):
    db = tmp_path / "old.sqlite3"
    make_database(db, 1000, padding=3000)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA auto_vacuum = NONE")
    conn.execute("VACUUM")  # as files made before this version are
    conn.close()
    plain = run(db, now=datetime.now(UTC) + timedelta(days=30))
    assert plain.pruned["snapshots"] == 1000
    assert plain.auto_vacuum == "none" and plain.freed_pages == 0 and plain.bytes_after >= plain.bytes_before * 0.9
    full = run(db, vacuum=True)
    assert full.auto_vacuum == "incremental" and full.bytes_after < plain.bytes_after / 2


async def test_the_wal_file_shrinks_back_to_the_journal_size_limit(db_path, monkeypatch):
    limit = 64 * 1024
    monkeypatch.setattr(storage.backends.sqlite, "JOURNAL_SIZE_LIMIT", limit)
    store = await Store.open(db_path, checkpoint_every=50)
    try:
        big = await store.create_game(1, 1, 1, Rules(), seed=1)
        for user in range(2, 400):  # far more than the limit goes through the WAL
            await store.create_game(user, 1, 1, Rules(), seed=user)
        await store.play(big.id, 1, big.version, finished_game(1).history[0])
        await asyncio.sleep(0.2)  # let the background checkpoint run, then write again to reset the WAL
        await store.put_par("k", "S2", 1, "T0")
        wal = db_path.with_name(db_path.name + "-wal").stat().st_size
    finally:
        await store.close()
    assert wal <= limit + 64 * 1024, wal


def _corrupt(db):
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games_by_user'").fetchone()[0]
    conn.close()
    with open(db, "r+b") as f:  # scribble over an index page: the tables stay readable, the check fails
        f.seek((root - 1) * page_size + 8)
        f.write(b"\x07" * 200)


def test_maintenance_command_reports_and_refuses_to_touch_a_damaged_file(tmp_path):
    db = tmp_path / "bot.sqlite3"
    make_database(db, 500)
    result = cli("maintenance", "--db", str(db), "--snapshot-days", "0")
    assert result.returncode == 0, result.stderr
    assert "integrity: ok (full check)" in result.stdout and "pruned: 500 finished games' snapshots" in result.stdout
    again = cli("maintenance", "--db", str(db), "--check-only", "--quick")
    assert again.returncode == 0 and "pruned" not in again.stdout
    _corrupt(db)
    before = db.read_bytes()
    damaged = cli("maintenance", "--db", str(db))
    assert damaged.returncode == 1 and "is damaged" in damaged.stderr and "Traceback" not in damaged.stderr
    assert db.read_bytes() == before
    missing = cli("maintenance", "--db", str(tmp_path / "nope.sqlite3"))
    assert missing.returncode == 1 and missing.stderr.startswith("maintenance failed: no database")


def test_start_up_check_says_so_in_one_line_and_cleans_unfinished_backups(tmp_path, caplog):
    db = tmp_path / "bot.sqlite3"
    make_database(db, 300)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    leftover = tmp_path / f".copy.sqlite3.{int(dead.stdout)}{PARTIAL_SUFFIX}"
    leftover.write_bytes(b"half a copy")
    with caplog.at_level(logging.INFO, logger="bot.run"):
        assert check_database(db)
    assert not leftover.exists()
    assert startup_check(db) is None
    _corrupt(db)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="bot.run"):
        assert not check_database(db)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "\n" not in errors[0].getMessage()
    assert "failed its quick check" in errors[0].getMessage()


def test_a_file_that_is_not_a_database(tmp_path):
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not sqlite" * 100)
    assert "not a usable SQLite database" in startup_check(junk)


@pytest.mark.parametrize("flag", ["--snapshot-days", "--par-days"])
def test_negative_retention_is_a_usage_error(flag):
    result = cli("maintenance", flag, "-1")
    assert result.returncode == 2 and "must be 0 or more days" in result.stderr
