"""Forgetting a player (storage/forget.py), on SQLite and PostgreSQL: everything kept about them goes, the boards
are what a full rebuild from the remaining games gives, other players keep what is theirs, and a finished duel
stays for the other player with the forgotten seat anonymous."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from games.engine import Rules, legal_actions
from storage import GameNotFound, duels, open_store
from storage.forget import FORGOTTEN
from storage.shares import SharePost
from tests.storage.helpers import Clock, dying_line

ME, OTHER, THIRD, GONE = 101, 202, 303, 404
GUILD, CHANNEL, DAY = 5, 6, 100
# Every column that holds a Discord user id, table by table.
USER_COLUMNS = {"games": ["user_id"], "daily_attempts": ["user_id"], "player_totals": ["user_id"],
                "week_totals": ["user_id"], "month_totals": ["user_id"], "reminders": ["user_id"],
                "reminder_sends": ["user_id"], "duels": ["player0", "player1"], "duel_actions": ["user_id"]}
TOTALS = {"player_totals": "user_id, guild_id, rules_key, games, wins, scored, total_score, best_score, last_at, "
                           "points",
          "week_totals": "week_end, guild_id, user_id, points, days, wins, forfeits, best, last_at",
          "month_totals": "month, guild_id, user_id, points, days, wins, forfeits, best, last_at"}


async def play_out(store, record):
    for action in dying_line(record.state):
        record = await store.play(record.id, record.user_id, record.version, action)
    return record


async def a_life_of_playing(store, user: int, name: str) -> dict:
    """A finished game, a counted daily with its Share post, a game in progress, a kept name, a reminder."""
    finished = await play_out(store, await store.create_game(user, GUILD, CHANNEL, Rules(), seed=user))
    daily = await play_out(store, await store.create_game(user, GUILD, CHANNEL, kind="daily", day=DAY))
    await store.keep_name(daily.id, name)
    await store.keep_share_post(SharePost(user * 10, CHANNEL, daily.id, DAY, "en-US"))
    playing = await store.create_game(user, GUILD, CHANNEL, Rules(), seed=user + 1)
    await store.reminders.set(user, 2)
    assert await store.reminders.claim(user, DAY, "me")
    return {"finished": finished, "daily": daily, "playing": playing}


async def finished_duel(store, first: int, second: int) -> duels.DuelRecord:
    challenge = await duels.create_challenge(store, first, second, GUILD, CHANNEL, seed=7, names=("me", "you"))
    started = await duels.answer_challenge(store, challenge.id, second, True)
    return await duels.play_duel(store, started.id, second, started.version, "R1")  # the second resigns


async def totals(store) -> dict[str, list[tuple]]:
    return {table: sorted(tuple(r) for r in await store.db.read(f"SELECT {columns} FROM {table}"))
            for table, columns in TOTALS.items()}


async def test_forgetting_a_player_removes_what_is_theirs_and_keeps_the_rest(store):
    await store.put_daily(DAY, 12345)
    mine = await a_life_of_playing(store, ME, "alice")
    theirs = await a_life_of_playing(store, OTHER, "bob")
    kept_duel = await finished_duel(store, ME, OTHER)
    lonely = await finished_duel(store, GONE, ME)  # GONE is forgotten first: then nobody is left of it
    await store.forget_player(GONE)
    open_challenge = await duels.create_challenge(store, THIRD, ME, GUILD, CHANNEL, seed=8)
    assert [e.user_id for e in await store.leaderboard_daily(DAY)] != []

    counts = await store.forget_player(ME)

    assert counts["games"] == 3 and counts["daily attempts"] == 1 and counts["share posts"] == 1
    assert counts["moves"] == mine["finished"].version + mine["daily"].version  # the game in progress has none
    assert counts["reminders"] == 2 and counts["board rows"] > 0
    assert counts["duels deleted"] == 2 and counts["duels kept anonymous"] == 1
    for table, columns in USER_COLUMNS.items():
        for column in columns:
            rows = await store.db.read(f"SELECT count(*) FROM {table} WHERE {column} = $1", (ME,))
            assert rows[0][0] == 0, table
    assert (await store.db.read("SELECT count(*) FROM share_posts WHERE message_id = $1", (ME * 10,)))[0][0] == 0
    # the boards: no trace of the player, and exactly what a rebuild from the remaining games gives
    assert ME not in [e.user_id for e in await store.leaderboard_daily(DAY)]
    assert ME not in [e.user_id for e in await store.leaderboard_all_time()]
    assert (await store.user_stats(ME)).games == 0 and await store.names_for([ME]) == {}
    after = await totals(store)
    await store.rebuild_totals()
    assert await totals(store) == after and any(after.values())
    # the other player keeps every game, name, post, reminder and place
    assert [g.id for g in await store.recent_games(OTHER)] == [theirs[k].id for k in ("playing", "daily", "finished")]
    assert await store.names_for([OTHER]) == {OTHER: "bob"} and await store.reminders.get(OTHER) is not None
    assert [e.user_id for e in await store.leaderboard_daily(DAY)] == [OTHER]
    # duels: the finished one stays for the other player, the forgotten seat anonymous; the rest are gone
    duel = await duels.load_duel(store, kept_duel.id)
    assert duel.players == (FORGOTTEN, OTHER) and duel.names == (None, "you") and duel.status == "abandoned"
    assert len(await store.db.read("SELECT code FROM duel_actions WHERE duel_id = $1", (duel.id,))) == 1
    for gone in (lonely.id, open_challenge.id):
        with pytest.raises(duels.DuelNotFound):
            await duels.load_duel(store, gone)
    assert await duels.open_duel(store, THIRD) is None  # the challenged player is free to duel again
    assert await store.forget_player(ME) == {name: 0 for name in counts}  # twice: nothing more to do


async def test_an_id_no_discord_user_has_is_refused(store):
    with pytest.raises(ValueError):
        await store.forget_player(FORGOTTEN)


def test_the_operators_command_forgets_a_player(db_path, tmp_path):
    async def two_players() -> None:
        store = await open_store(db_path, clock=Clock())
        try:
            await store.put_daily(DAY, 12345)
            await a_life_of_playing(store, ME, "alice")
            await a_life_of_playing(store, OTHER, "bob")
        finally:
            await store.close()

    async def who_is_left() -> set[int]:
        store = await open_store(db_path)
        try:
            return {row[0] for row in await store.db.read("SELECT DISTINCT user_id FROM games")}
        finally:
            await store.close()

    asyncio.run(two_players())
    done = subprocess.run([sys.executable, "-m", "bot", "forget", "--user", str(ME), "--db", str(db_path)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"forgot user {ME}: 3 games, ") and "1 share posts" in done.stdout
    assert asyncio.run(who_is_left()) == {OTHER}
    again = subprocess.run([sys.executable, "-m", "bot", "forget", "--user", str(ME), "--db", str(db_path)],
                           capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert again.returncode == 0 and again.stdout.strip() == f"nothing was kept about user {ME}"


def test_the_command_refuses_a_bad_id_or_a_missing_file(tmp_path):
    bad = subprocess.run([sys.executable, "-m", "bot", "forget", "--user", "alice", "--db", str(tmp_path / "x")],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "must be a Discord user id" in bad.stderr
    missing = subprocess.run([sys.executable, "-m", "bot", "forget", "--user", "5", "--db", str(tmp_path / "x")],
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 1 and "no database at" in missing.stderr and not (tmp_path / "x").exists()


async def test_a_move_on_a_forgotten_game_finds_no_game_even_when_it_was_held_in_memory(store):
    record = await store.create_game(ME, GUILD, CHANNEL, Rules(), seed=3)
    record = await store.play(record.id, ME, record.version, legal_actions(record.state)[0])  # remembered
    await store.forget_player(ME)
    with pytest.raises(GameNotFound):
        await store.play(record.id, ME, record.version, legal_actions(record.state)[0])
    assert await store.active_game(ME) is None
