"""``backup``, ``restore`` and ``maintenance`` on a real PostgreSQL server, run as an operator runs them: the
commands, in their own processes, with PostgreSQL's own pg_dump / pg_restore / VACUUM."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from datetime import timedelta

import pytest

from games.engine import Rules
from storage import open_store
from tests.postgres_server import RawPostgres
from tests.storage.bulk import finished_game
from tests.storage.helpers import Clock


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("SCOUNDREL_", "DISCORD_"))}
    environ.update(env or {})
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True, timeout=180,
                          env=environ)


async def _play_out(store, record, state):
    for action in state.history:
        record = await store.play(record.id, record.user_id, record.version, action)
    return record


async def _fill(url: str, clock: Clock | None = None) -> tuple[list[int], bytes]:
    """Two finished games and one in progress; the daily secret made. Returns the game ids and the secret."""
    store = await open_store(url, clock=clock)
    try:
        ids = []
        for user in (1, 2):
            ids.append((await _play_out(store, await store.create_game(user, 5, 6, Rules(), seed=user),
                                        finished_game(user))).id)
        ids.append((await store.create_game(3, 5, 6, Rules(), seed=3)).id)
        return ids, await store.daily_secret()
    finally:
        await store.close()


def _rows(url: str, sql: str) -> list[tuple]:
    conn = RawPostgres(url)
    try:
        return list(conn.execute(sql))
    finally:
        conn.close()


def test_backup_and_restore_with_pg_dump_keep_the_games_and_the_daily_secret(pg_url, tmp_path):
    ids, secret = asyncio.run(_fill(pg_url))
    archive = tmp_path / "backups" / "scoundrel.pgdump"
    made = cli("backup", str(archive), "--db", pg_url)
    assert made.returncode == 0, made.stderr
    assert "without the daily secret" in made.stdout and archive.stat().st_size > 0
    assert [p.name for p in archive.parent.iterdir()] == ["scoundrel.pgdump"]  # no partial file left
    again = cli("backup", str(archive), "--db", pg_url)
    assert again.returncode == 1 and "already exists" in again.stderr  # kept unless --force

    # a bad change after the backup: a game deleted, another started
    _rows(pg_url, f"DELETE FROM game_actions WHERE game_id = {ids[0]}")
    _rows(pg_url, f"DELETE FROM games WHERE id = {ids[0]}")
    asyncio.run(_start(pg_url, user=9))

    put_back = cli("restore", str(archive), "--db", pg_url)
    assert put_back.returncode == 0, put_back.stderr
    assert "daily secret from the database being replaced" in put_back.stdout
    assert sorted(r[0] for r in _rows(pg_url, "SELECT id FROM games")) == sorted(ids)
    assert [bytes(r[0]) for r in _rows(pg_url, "SELECT value FROM bot_secrets")] == [secret]
    assert asyncio.run(_secret_and_games(pg_url)) == (secret, len(ids))  # the bot opens it as it was


async def _start(url: str, user: int) -> None:
    store = await open_store(url)
    try:
        await store.create_game(user, 5, 6, Rules(), seed=user)
    finally:
        await store.close()


async def _secret_and_games(url: str) -> tuple[bytes, int]:
    store = await open_store(url)
    try:
        games = len(await store.recent_games(1)) + len(await store.recent_games(2)) + len(await store.recent_games(3))
        return await store.daily_secret(), games
    finally:
        await store.close()


def test_a_backup_with_the_secret_restores_into_an_empty_database(pg_url, postgres_server, tmp_path):
    ids, secret = asyncio.run(_fill(pg_url))
    archive = tmp_path / "with-secret.pgdump"
    assert cli("backup", str(archive), "--db", pg_url, "--with-secret").returncode == 0
    fresh = postgres_server.create_database()
    try:
        put_back = cli("restore", str(archive), "--db", fresh)
        assert put_back.returncode == 0, put_back.stderr
        assert "daily secret from the backup" in put_back.stdout
        assert sorted(r[0] for r in _rows(fresh, "SELECT id FROM games")) == sorted(ids)
        assert [bytes(r[0]) for r in _rows(fresh, "SELECT value FROM bot_secrets")] == [secret]
    finally:
        postgres_server.drop_database(fresh)


def test_restore_refuses_while_the_bot_is_connected_and_changes_nothing(pg_url, tmp_path):
    ids, _ = asyncio.run(_fill(pg_url))
    archive = tmp_path / "copy.pgdump"
    assert cli("backup", str(archive), "--db", pg_url).returncode == 0
    asyncio.run(_start(pg_url, user=9))

    async def restore_while_open() -> subprocess.CompletedProcess:
        store = await open_store(pg_url)  # the bot, running
        try:
            return await asyncio.to_thread(cli, "restore", str(archive), "--db", pg_url)
        finally:
            await store.close()

    refused = asyncio.run(restore_while_open())
    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines() == [refused.stderr.strip()]  # one line
    assert "is in use: stop the bot" in refused.stderr
    assert len(_rows(pg_url, "SELECT id FROM games")) == len(ids) + 1  # the game started after the backup stays


def test_a_sqlite_file_is_not_restored_into_postgres_but_says_what_to_run(pg_url, tmp_path):
    not_an_archive = tmp_path / "scoundrel.sqlite3"
    not_an_archive.write_bytes(b"SQLite format 3\x00" + bytes(100))
    refused = cli("restore", str(not_an_archive), "--db", pg_url)
    assert refused.returncode == 1 and "copy-db" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1


def test_maintenance_prunes_on_the_policy_and_vacuums(pg_url):
    clock = Clock()
    ids, _ = asyncio.run(_fill(pg_url, clock))
    asyncio.run(_par_and_post(pg_url, clock))
    clock.advance(timedelta(days=1).total_seconds())
    done = cli("maintenance", "--db", pg_url, "--snapshot-days", "0", "--par-days", "0", "--post-days", "0")
    assert done.returncode == 0, done.stderr
    assert "integrity: ok" in done.stdout and "VACUUM (ANALYZE) done" in done.stdout
    assert "pruned: 2 finished games' snapshots, 1 cached pars, 1 daily-post records" in done.stdout
    snapshots = dict(_rows(pg_url, "SELECT id, snapshot IS NOT NULL FROM games"))
    assert snapshots == {ids[0]: False, ids[1]: False, ids[2]: True}  # the game in progress keeps its own
    assert _rows(pg_url, "SELECT count(*) FROM par_cache") == [(0,)]
    assert asyncio.run(_finished_scores(pg_url, ids[:2]))  # replayed from the action log


async def _par_and_post(url: str, clock: Clock) -> None:
    store = await open_store(url, clock=clock)
    try:
        await store.put_par("k", "S2 S3", 5, "T0")
        assert await store.claim_daily_post(1, 100, "me", timedelta(minutes=2))
        await store.confirm_daily_post(1, 100, 7, 70)
    finally:
        await store.close()


async def _finished_scores(url: str, ids: list[int]) -> bool:
    store = await open_store(url)
    try:
        return all([(await store.load_game(game_id)).state.over for game_id in ids])
    finally:
        await store.close()


def test_maintenance_finds_a_broken_action_log_and_changes_nothing(pg_url):
    ids, _ = asyncio.run(_fill(pg_url))
    _rows(pg_url, f"DELETE FROM game_actions WHERE game_id = {ids[0]} AND seq = 2")
    found = cli("maintenance", "--db", pg_url, "--snapshot-days", "0")
    assert found.returncode == 1 and f"game {ids[0]}: version" in found.stderr
    assert all(r[0] for r in _rows(pg_url, "SELECT snapshot IS NOT NULL FROM games"))


def test_without_pg_dump_backup_refuses_in_one_line_saying_what_to_run(pg_url, tmp_path, monkeypatch, capsys):
    import storage.pg_backup
    from bot import cli as entry

    monkeypatch.setattr(storage.pg_backup, "find_tool", lambda name: None)  # a machine without PostgreSQL's tools
    assert entry.main(["backup", str(tmp_path / "x.pgdump"), "--db", pg_url]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "pg_dump is not installed" in err and "copy-db" in err
    assert not (tmp_path / "x.pgdump").exists()


@pytest.mark.parametrize("command", ["backup", "maintenance"])
def test_a_postgres_url_is_never_taken_for_a_file(command, tmp_path):
    url = "postgresql://u:secretpw@127.0.0.1:1/x"
    args = [str(tmp_path / "b.pgdump")] if command == "backup" else []
    failed = cli(command, *args, env={"SCOUNDREL_DATABASE": url})
    assert failed.returncode == 1
    assert "no database at" not in failed.stderr and "cannot connect to PostgreSQL" in failed.stderr
    assert "secretpw" not in failed.stdout + failed.stderr
