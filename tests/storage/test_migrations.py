"""Schema migrations: from nothing, from every earlier version (with data), refusing newer databases."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading

import pytest

from games.engine import Rules, apply, deck_codes, legal_actions, new_game, to_json
from games.engine.tally import DAY_FLOOR
from storage import DatabaseError, SchemaTooNew, Store, migrate
from storage.migrate import Migration
from tests.storage.helpers import dying_line, raw

pytestmark = pytest.mark.sqlite_only  # SQLite files; PostgreSQL has its own tests

LATEST = migrate.latest_version()
TABLES = {"games", "game_actions", "daily_challenges", "daily_attempts", "guild_settings", "daily_posts",
          "bot_secrets", "player_totals", "par_cache"}


def tables(path) -> set[str]:
    with raw(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def user_version(path) -> int:
    with raw(path) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


def make_database_at(path, version: int) -> None:
    with raw(path) as conn:
        migrate.upgrade(conn, str(path), target=version)


def add_v1_data(path) -> dict:
    """Rows as code of schema version 1 wrote them: a finished game with its log, one in progress, a daily."""
    rules = Rules()
    rules_json = json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"))
    finished = new_game(rules, seed=11)
    line = dying_line(finished)
    for action in line:
        finished = apply(finished, action)
    playing = apply(new_game(rules, seed=12), legal_actions(new_game(rules, seed=12))[0])
    with raw(path) as conn:
        conn.execute("BEGIN")
        for game_id, user, state, status in ((1, 7, finished, "dead"), (2, 8, playing, "playing")):
            conn.execute(
                "INSERT INTO games (id, user_id, guild_id, channel_id, kind, slot, day, rules_json, rules_key, "
                "rules_name, seed, deck, status, version, snapshot, score, started_at, ended_at) "
                "VALUES (?, ?, 55, 66, 'normal', 'normal', NULL, ?, ?, 'classic', ?, ?, ?, ?, ?, ?, 1000, ?)",
                (game_id, user, rules_json, rules.key, 10 + game_id, deck_codes(state.start_deck), status,
                 len(state.history), to_json(state), state.score, 2000 if status != "playing" else None))
            conn.executemany("INSERT INTO game_actions (game_id, seq, code, at) VALUES (?, ?, ?, 1500)",
                             [(game_id, i, a.code) for i, a in enumerate(state.history, 1)])
        conn.execute("INSERT INTO daily_challenges (day, seed, rules_json, rules_key, created_at) "
                     "VALUES (3, 99, ?, ?, 0)", (rules_json, rules.key))
        conn.execute("INSERT INTO guild_settings (guild_id, daily_channel_id, daily_time, preset, updated_at) "
                     "VALUES (55, 66, '08:30', 'lenient', 0)")
        conn.execute("COMMIT")
    return {"finished": finished, "playing": playing}


async def test_an_empty_file_is_created_at_the_latest_version(db_path):
    store = await Store.open(db_path)
    await store.close()
    assert user_version(db_path) == LATEST and TABLES <= tables(db_path)
    with raw(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # Opening again changes nothing.
    store = await Store.open(db_path)
    await store.close()
    assert user_version(db_path) == LATEST


async def test_a_zero_byte_file_is_an_empty_database(db_path):
    db_path.write_bytes(b"")
    store = await Store.open(db_path)
    await store.close()
    assert user_version(db_path) == LATEST


@pytest.mark.parametrize("start", range(0, LATEST))
async def test_every_earlier_version_upgrades_keeping_its_data(db_path, start):
    make_database_at(db_path, start)
    assert user_version(db_path) == start
    data = add_v1_data(db_path) if start >= 1 else None
    store = await Store.open(db_path)
    try:
        assert user_version(db_path) == LATEST and TABLES <= tables(db_path)
        if data is None:
            return
        finished, playing = await store.load_game(1), await store.load_game(2)
        assert finished.state == data["finished"] and finished.status == "dead"
        assert playing.state == data["playing"] and playing.playing
        moved = await store.play(2, 8, 1, legal_actions(playing.state)[0])
        assert moved.version == 2
        assert (await store.get_daily(3)).seed == 99
        assert (await store.get_guild_settings(55)).daily_time_text == "08:30"
        if start >= 2:
            return  # the raw v1 rows went in after migration 2, which is what fills the totals below
        # Version 2's totals were filled from the games version 1 had already finished.
        stats = await store.user_stats(7, 55)
        assert (stats.games, stats.wins, stats.best) == (1, 0, data["finished"].score)
        assert [e.user_id for e in await store.leaderboard_all_time(55)] == [7]
    finally:
        await store.close()


async def test_a_newer_database_is_refused_and_left_alone(db_path):
    make_database_at(db_path, LATEST)
    with raw(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST + 1}")
        conn.execute("PRAGMA journal_mode = DELETE")
    with pytest.raises(SchemaTooNew) as caught:
        await Store.open(db_path)
    message = str(caught.value)
    assert f"schema version {LATEST + 1}" in message and "newer version of the bot" in message
    assert (caught.value.found, caught.value.known) == (LATEST + 1, LATEST)
    assert user_version(db_path) == LATEST + 1
    with raw(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


async def test_a_file_that_is_not_a_database_gets_a_clear_error(db_path):
    db_path.write_bytes(b"this is a text file, not SQLite\n" * 200)
    with pytest.raises(DatabaseError, match="not a usable SQLite database"):
        await Store.open(db_path)


async def test_a_failing_migration_changes_nothing(db_path, monkeypatch):
    make_database_at(db_path, LATEST)
    real = migrate.migrations()
    broken = Migration(LATEST + 1, f"{LATEST + 1:04d}_broken.sql",
                       "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n")
    monkeypatch.setattr(migrate, "migrations", lambda folder="migrations": [*real, broken])
    with pytest.raises(DatabaseError, match="broken.sql failed"):
        await Store.open(db_path)
    assert user_version(db_path) == LATEST and "half_done" not in tables(db_path)


async def test_two_stores_opening_an_old_database_at_once_upgrade_it_once(db_path):
    make_database_at(db_path, 1)
    add_v1_data(db_path)
    stores = await asyncio.gather(*(Store.open(db_path) for _ in range(4)))
    try:
        assert user_version(db_path) == LATEST
        stats = await stores[0].user_stats(7)
        assert stats.games == 1  # the totals were filled once, not once per store
    finally:
        for store in stores:
            await store.close()


async def test_opening_waits_for_another_connections_write_before_switching_to_wal(db_path):
    # SQLite answers "locked" at once, without its busy timeout, to a switch to WAL that meets another connection's
    # write (waiting could deadlock); opening must wait for that write instead of failing.
    make_database_at(db_path, 1)
    held, release = threading.Event(), threading.Event()

    def write_for_a_while() -> None:
        conn = sqlite3.connect(db_path, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        held.set()
        release.wait(5)
        conn.execute("COMMIT")
        conn.close()

    writer = threading.Thread(target=write_for_a_while)
    writer.start()
    try:
        held.wait(5)
        opening = asyncio.ensure_future(Store.open(db_path))
        await asyncio.sleep(0.2)
        assert not opening.done()  # still waiting, not failed
        release.set()
        store = await opening
    finally:
        release.set()
        writer.join()
    try:
        assert user_version(db_path) == LATEST
    finally:
        await store.close()


def test_migration_files_are_numbered_without_gaps_and_split_into_statements():
    found = migrate.migrations()
    assert [m.version for m in found] == list(range(1, LATEST + 1))
    for migration in found:
        statements = migration.statements()
        assert statements and all(sqlite3.complete_statement(s) for s in statements)


async def test_version_4_fills_the_dailies_only_totals_from_finished_dailies(db_path):
    make_database_at(db_path, 3)
    data = add_v1_data(db_path)
    with raw(db_path) as conn:  # game 1 was a counted daily of day 3 that ended before the upgrade
        conn.execute("UPDATE games SET kind = 'daily', slot = 'daily', day = 3 WHERE id = 1")
        conn.execute("INSERT INTO player_totals (user_id, guild_id, rules_key, games, wins, scored, total_score) "
                     "VALUES (7, 55, '*', 1, 0, 1, 0)")  # what version 3 code kept for it
    store = await Store.open(db_path)
    try:
        board = await store.leaderboard_all_time(55, dailies_only=True)
        assert [(e.user_id, e.games, e.wins, e.best) for e in board] == [(7, 1, 0, data["finished"].score)]
        assert (await store.user_stats(7, 55)).dailies.games == 1
    finally:
        await store.close()


async def test_version_5_makes_an_unchosen_server_preset_follow_the_bot_default(db_path):
    make_database_at(db_path, 4)
    with raw(db_path) as conn:
        conn.execute("INSERT INTO guild_settings (guild_id, daily_channel_id, daily_time, updated_at) "
                     "VALUES (1, 10, '07:00', 0)")  # the old default: preset 'classic', never chosen
        conn.execute("INSERT INTO guild_settings (guild_id, preset, updated_at) VALUES (2, 'lenient', 0)")
    store = await Store.open(db_path)
    try:
        first, second = await store.get_guild_settings(1), await store.get_guild_settings(2)
        assert (first.preset, first.daily_time_text, first.daily_channel_id) == (None, "07:00", 10)
        assert second.preset == "lenient"
        with pytest.raises(sqlite3.IntegrityError):  # the HH:MM check survived the rebuild
            with raw(db_path) as conn:
                conn.execute("UPDATE guild_settings SET daily_time = 'noon' WHERE guild_id = 1")
    finally:
        await store.close()


async def test_dailies_given_up_before_forfeits_existed_are_scored_once_on_open(db_path, tmp_path):
    from datetime import UTC, datetime

    from app.daily.days import DAILY_RULES, daily_seed
    from games.engine import forfeit_score
    from tests.storage.helpers import Clock

    # A database at version 6, as that code wrote it: a counted daily abandoned with no score.
    make_database_at(db_path, 6)
    store = await Store.open(tmp_path / "donor.sqlite3", clock=Clock(datetime(2026, 1, 5, tzinfo=UTC)))
    try:
        record = await store.create_game(7, 55, 66, DAILY_RULES, seed=daily_seed(b"x" * 32, 5), kind="daily", day=5)
        state = record.state
    finally:
        await store.close()
    rules_json = json.dumps(DAILY_RULES.to_dict(), sort_keys=True, separators=(",", ":"))
    with raw(db_path) as conn:
        conn.execute(
            "INSERT INTO games (id, user_id, guild_id, channel_id, kind, slot, day, rules_json, rules_key, rules_name, "
            "seed, deck, status, version, snapshot, score, started_at, ended_at) VALUES (1, 7, 55, 66, 'daily', "
            "'daily', 5, ?, ?, 'classic', NULL, ?, 'abandoned', 0, ?, NULL, 1000, 2000)",
            (rules_json, DAILY_RULES.key, deck_codes(state.start_deck), to_json(state)))
        conn.execute("INSERT INTO daily_attempts (user_id, day, game_id, created_at) VALUES (7, 5, 1, 1000)")
        conn.execute("INSERT INTO player_totals (user_id, guild_id, rules_key, games, wins, scored, total_score, "
                     "best_score, average, last_at) VALUES (7, 0, 'daily', 1, 0, 0, 0, NULL, NULL, 2000)")
    for _ in range(2):  # the second opening finds nothing left to score
        store = await Store.open(db_path)
        try:
            [entry] = await store.leaderboard_daily(5)
            assert (entry.user_id, entry.score, entry.ended_by) == (7, forfeit_score(state), "abandoned")
            [week] = await store.leaderboard_week(5)
            assert (week.points, week.days, week.forfeits) == (forfeit_score(state) - DAY_FLOOR, 1, 1)
            [all_time] = await store.leaderboard_all_time(dailies_only=True)
            assert (all_time.games, all_time.best) == (1, forfeit_score(state))  # still one game played
        finally:
            await store.close()


async def test_version_13_fills_the_month_totals_from_counted_dailies_in_their_own_months(db_path):
    make_database_at(db_path, 12)
    data = add_v1_data(db_path)
    score = data["finished"].score
    with raw(db_path) as conn:  # game 1: a counted daily of Daily #31 (31 January); game 3, the same on #32
        conn.execute("UPDATE games SET kind = 'daily', slot = 'daily', day = 31 WHERE id = 1")
        columns = ("user_id, guild_id, channel_id, kind, slot, rules_json, rules_key, rules_name, seed, deck, status, "
                   "version, snapshot, score, started_at, ended_at")
        conn.execute(f"INSERT INTO games (id, day, {columns}) SELECT 3, 32, {columns} FROM games WHERE id = 1")
    store = await Store.open(db_path)
    try:
        for month in (1, 2):
            for guild in (55, None):
                [entry] = await store.leaderboard_month(month, guild)
                assert (entry.user_id, entry.points, entry.days, entry.wins) == (7, score - DAY_FLOOR, 1, 0)
        assert await store.leaderboard_month(3) == []
        assert await store.reminders.get(7) is None  # the reminder tables start empty: nobody opted in
    finally:
        await store.close()
