"""Migration 0017 on both backends: the boards of several days, summed scores until then, become sums of points
(``games.engine.tally.day_points``), the same totals a rebuild from the games makes, and the player who played one
more day no longer ranks below the one who skipped it."""

from __future__ import annotations

import json

import asyncpg
import pytest

from app.daily.days import DAILY_RULES
from games.engine import apply, deck_codes, new_game, to_json
from games.engine.calendar import month_of
from games.engine.tally import DAY_FLOOR
from storage import is_postgres, migrate, open_store
from storage.backends.postgres import upgrade
from tests.storage.helpers import dying_line, raw

GUILD, FIRST, SECOND = 55, 40, 41  # two days of one week and one month (February)
SKIPPER, PLAYER = 7, 8
BEFORE = 16  # the last schema that summed scores


@pytest.fixture
def empty_path(backend, tmp_path, request):
    if backend == "sqlite":
        return tmp_path / "old.sqlite3"
    return request.getfixturevalue("pg_empty_url")


async def at_version(path, version: int) -> None:
    if is_postgres(path):
        conn = await asyncpg.connect(str(path))
        try:
            await upgrade(conn, "old", target=version)
        finally:
            await conn.close()
    else:
        with raw(path) as conn:
            migrate.upgrade(conn, str(path), target=version)


def insert_daily(conn, game_id: int, user: int, day: int, seed: int) -> int:
    """A counted daily that died, as schema version 1 stored it; its score."""
    state = new_game(DAILY_RULES, seed=seed)
    for action in dying_line(state):
        state = apply(state, action)
    rules_json = json.dumps(DAILY_RULES.to_dict(), sort_keys=True, separators=(",", ":"))
    conn.execute(
        "INSERT INTO games (id, user_id, guild_id, channel_id, kind, slot, day, rules_json, rules_key, rules_name, "
        "seed, deck, status, version, snapshot, score, started_at, ended_at) "
        "VALUES (?, ?, ?, 66, 'daily', 'daily', ?, ?, ?, 'classic', ?, ?, 'dead', ?, ?, ?, ?, ?)",
        (game_id, user, GUILD, day, rules_json, DAILY_RULES.key, seed, deck_codes(state.start_deck),
         len(state.history), to_json(state), state.score, day * 1000, day * 1000 + game_id))
    return state.score


def totals(path) -> list[list[tuple]]:
    with raw(path) as conn:
        players = conn.execute("SELECT user_id, guild_id, rules_key, games, wins, scored, total_score, best_score, "
                               "last_at, points FROM player_totals ORDER BY 1, 2, 3").fetchall()
        days = [conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3").fetchall()
                for table in ("week_totals", "month_totals")]
    return [[tuple(row) for row in rows] for rows in (players, *days)]


async def test_the_points_migration_turns_summed_scores_into_points_as_a_rebuild_does(empty_path):
    path = empty_path
    await at_version(path, 1)
    with raw(path) as conn:  # both play the first day alike; one also plays (and dies on) the second
        first = insert_daily(conn, 1, SKIPPER, FIRST, seed=11)
        assert insert_daily(conn, 2, PLAYER, FIRST, seed=11) == first
        second = insert_daily(conn, 3, PLAYER, SECOND, seed=12)
    assert first < 0 and second < 0
    await at_version(path, BEFORE)  # the week and month totals are filled by the migrations that made them
    with raw(path) as conn:
        old_week = conn.execute("SELECT user_id, total FROM week_totals WHERE week_end = ? AND guild_id = ? "
                                "ORDER BY total DESC", (SECOND, GUILD)).fetchall()
    assert [tuple(row) for row in old_week] == [(SKIPPER, first), (PLAYER, first + second)]  # skipping paid

    store = await open_store(path)
    try:
        want = [(PLAYER, first + second - 2 * DAY_FLOOR, 2), (SKIPPER, first - DAY_FLOOR, 1)]
        for guild in (GUILD, None):
            week = await store.leaderboard_week(SECOND, guild)
            month = await store.leaderboard_month(month_of(SECOND), guild)
            all_time = await store.leaderboard_all_time(guild, dailies_only=True)
            assert [(e.user_id, e.points, e.days) for e in week] == want
            assert [(e.user_id, e.points, e.days) for e in month] == want
            assert [(e.user_id, e.points, e.games) for e in all_time] == want
        migrated = totals(path)
        assert {row[2]: row[9] for row in migrated[0] if row[:2] == (PLAYER, GUILD)} == {
            DAILY_RULES.key: want[0][1], "*": want[0][1], "daily": want[0][1]}
        await store.rebuild_totals()
        assert totals(path) == migrated
    finally:
        await store.close()
