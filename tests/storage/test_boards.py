"""Leaderboards and stats against answers worked out independently (plain Python over the played games)."""

from __future__ import annotations

import asyncio
import random
import shutil
from collections import defaultdict

import pytest

from app.daily.days import DAILY_RULES, daily_seed
from games.engine import Rules, apply, forfeit_score, legal_actions, new_game
from games.engine.tally import DAY_FLOOR
from storage import ALL_RULES, open_store
from tests.storage.helpers import ROOMY, Clock, dying_line, play_line, raw, winning_seed

GUILD_A, GUILD_B, CHANNEL, DAY = 501, 502, 601, 120


def random_line(state, seed):
    rng = random.Random(seed)
    line = []
    while not state.over:
        action = rng.choice(legal_actions(state))
        state = apply(state, action)
        line.append(action)
    return line


async def play_daily(store, clock, user, day, guild, line_seed, secret):
    record = await store.create_game(user, guild, CHANNEL, DAILY_RULES, seed=daily_seed(secret, day), kind="daily",
                                     day=day)
    clock.advance(60)
    return await play_line(store, record, random_line(record.state, line_seed))


async def build_dailies(store, clock):
    """Ten players, nine days, two servers; some days skipped, one practice game, one abandoned attempt."""
    secret = await store.daily_secret()
    played = []
    for day in range(DAY - 8, DAY + 1):
        for user in range(1, 11):
            if (user + day) % 4 == 0:
                continue  # skipped that day
            guild = GUILD_A if user <= 6 else GUILD_B
            if user == 10 and day == DAY:
                record = await store.create_game(user, guild, CHANNEL, DAILY_RULES, seed=daily_seed(secret, day),
                                                 kind="daily", day=day)
                played.append(await store.abandon(record.id, user))
                continue
            played.append(await play_daily(store, clock, user, day, guild, user * 1000 + day, secret))
    practice = await store.create_game(11, GUILD_A, CHANNEL, DAILY_RULES, seed=daily_seed(secret, DAY),
                                       kind="practice", day=DAY)
    await play_line(store, practice, dying_line(practice.state))
    return played


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def dailies_db(request, tmp_path_factory):
    """Built once for the module and backend (a few hundred committed moves); each test gets its own copy."""
    server = request.getfixturevalue("postgres_server") if request.param == "postgres" else None
    path = server.create_database() if server else tmp_path_factory.mktemp("dailies") / "dailies.sqlite3"

    async def build():
        clock = Clock()
        store = await open_store(path, clock=clock)
        with raw(path) as conn:  # a fixed secret: the same deals on every run
            conn.execute("INSERT INTO bot_secrets (name, value) VALUES ('daily', ?)", (b"storage-tests" * 2,))
        try:
            return await build_dailies(store, clock)
        finally:
            await store.close()

    yield server, path, asyncio.run(build())
    if server:
        server.drop_database(path)


@pytest.fixture
async def dailies(dailies_db, tmp_path):
    server, source, played = dailies_db
    if server:
        path = server.create_database(template=source)
    else:
        path = tmp_path / "copy.sqlite3"
        shutil.copyfile(source, path)  # closed cleanly: the WAL was checkpointed into the main file
    store = await open_store(path, clock=Clock())
    try:
        yield store, played, path
    finally:
        await store.close()
        if server:
            server.drop_database(path)


def expected_daily(played, day, guild=None):
    rows = [g for g in played if g.day == day and g.score is not None and guild in (None, g.guild_id)]
    rows.sort(key=lambda g: (-g.score, g.ended_by is not None, g.ended_at, g.id))
    return [(g.user_id, g.score) for g in rows]


async def test_daily_board_all_and_per_server(dailies):
    store, dailies, _ = dailies
    assert len({g.score for g in dailies if g.day == DAY and g.score is not None}) > 3  # a real ranking
    for guild in (None, GUILD_A, GUILD_B):
        board = await store.leaderboard_daily(DAY, guild, limit=100)
        assert [(e.user_id, e.score) for e in board] == expected_daily(dailies, DAY, guild)
        assert [e.rank for e in board] == list(range(1, len(board) + 1))
        assert all(e.guild_id == guild for e in board if guild is not None)
    top3 = await store.leaderboard_daily(DAY, None, limit=3)
    assert [(e.user_id, e.score) for e in top3] == expected_daily(dailies, DAY)[:3]
    # Given up: on the board, marked, with the forfeit score (every monster not yet slain counts against it).
    [gave_up] = [e for e in await store.leaderboard_daily(DAY, limit=100) if e.user_id == 10]
    abandoned = next(g for g in dailies if g.user_id == 10 and g.day == DAY)
    assert gave_up.ended_by == "abandoned" and gave_up.score == forfeit_score(abandoned.state) < 0
    assert 11 not in [e.user_id for e in await store.leaderboard_daily(DAY, limit=100)]  # practice: never


async def test_daily_ties_go_to_the_earlier_finish(store, clock):
    secret = await store.daily_secret()
    seed = daily_seed(secret, DAY)
    line = dying_line(new_game(DAILY_RULES, seed=seed))
    for user in (3, 1, 2):  # same deal, same line, same score: finishing order decides
        record = await store.create_game(user, GUILD_A, CHANNEL, DAILY_RULES, seed=seed, kind="daily", day=DAY)
        clock.advance(10)
        await play_line(store, record, line)
    board = await store.leaderboard_daily(DAY, GUILD_A)
    assert [e.user_id for e in board] == [3, 1, 2] and len({e.score for e in board}) == 1


async def test_week_board_sums_the_points_of_the_seven_days(dailies):
    store, dailies, _ = dailies
    for guild in (None, GUILD_A, GUILD_B):
        totals = defaultdict(lambda: [0, 0, 0, None])
        for g in dailies:
            if DAY - 6 <= g.day <= DAY and g.score is not None and guild in (None, g.guild_id):
                row = totals[g.user_id]
                row[0] += g.score - DAY_FLOOR
                row[1] += 1
                row[2] += g.status == "won"
                row[3] = g.ended_at if row[3] is None else max(row[3], g.ended_at)
        expected = sorted(totals.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[1][3], kv[0]))
        board = await store.leaderboard_week(DAY, guild, limit=100)
        assert [(e.user_id, e.points, e.days, e.wins) for e in board] == [
            (user, row[0], row[1], row[2]) for user, row in expected]
        assert [e.user_id for e in board if e.forfeits] == ([10] if guild in (None, GUILD_B) else [])
    assert len(await store.leaderboard_week(DAY, limit=4)) == 4
    assert await store.leaderboard_week(DAY - 20) == []


async def test_daily_days_for_streaks(dailies):
    store, dailies, _ = dailies
    for user in (1, 7, 10):
        expected = sorted(g.day for g in dailies if g.user_id == user and g.score is not None and g.ended_by is None)
        assert await store.daily_days(user) == expected
    assert await store.daily_days(11) == []


async def test_all_time_board_and_stats(store, clock):
    """Wins first, then best score, then average; abandoned games count as played, not won."""
    seeds = []
    start = 0
    while len(seeds) < 4:
        seed, line = winning_seed(ROOMY, start)
        seeds.append((seed, line))
        start = seed + 1
    played = []

    async def win(user, guild, n):
        seed, line = seeds[n]
        record = await store.create_game(user, guild, CHANNEL, ROOMY, seed=seed)
        clock.advance(30)
        played.append(await play_line(store, record, line))

    async def die(user, guild, seed):
        record = await store.create_game(user, guild, CHANNEL, Rules(), seed=seed)
        clock.advance(30)
        played.append(await play_line(store, record, dying_line(record.state)))

    async def give_up(user, guild, seed):
        record = await store.create_game(user, guild, CHANNEL, Rules(), seed=seed)
        played.append(await store.abandon(record.id, user))

    await win(1, GUILD_A, 0)
    await win(1, GUILD_A, 1)
    await die(1, GUILD_A, 50)
    await win(2, GUILD_A, 2)
    await give_up(2, GUILD_A, 51)
    await win(3, GUILD_B, 3)
    await die(3, GUILD_B, 52)
    await win(4, None, 0)  # a DM game: only on the every-server board
    await die(5, GUILD_A, 53)
    await die(5, GUILD_A, 54)
    assert {g.status for g in played} == {"won", "dead", "abandoned"}

    def expected(guild, rules_key=None):
        per = defaultdict(list)
        for g in played:
            if guild in (None, g.guild_id) and rules_key in (None, g.rules.key):
                per[g.user_id].append(g)
        rows = []
        for user, games in per.items():
            scores = [g.score for g in games if g.score is not None]
            wins = sum(g.status == "won" for g in games)
            rows.append((user, wins, len(games), max(scores) if scores else None,
                         sum(scores) / len(scores) if scores else None))
        rows.sort(key=lambda r: (-r[1], -(r[3] if r[3] is not None else -10**9),
                                 -(r[4] if r[4] is not None else -10**9), r[0]))
        return rows

    for guild in (None, GUILD_A, GUILD_B):
        for key in (None, ROOMY.key, Rules().key):
            board = await store.leaderboard_all_time(guild, limit=100, rules_key=key)
            got = [(e.user_id, e.wins, e.games, e.best, None if e.average is None else round(e.average, 9))
                   for e in board]
            want = [(*row[:4], None if row[4] is None else round(row[4], 9)) for row in expected(guild, key)]
            assert got == want, (guild, key)
    board = await store.leaderboard_all_time(GUILD_A)
    assert [e.user_id for e in board][:2] == [1, 2]  # two wins, then one
    assert await store.leaderboard_all_time(None, dailies_only=True) == []  # normal games only so far

    stats = await store.user_stats(1)
    assert (stats.games, stats.wins, stats.losses) == (3, 2, 1)
    assert stats.win_rate == pytest.approx(2 / 3)
    scores = [g.score for g in played if g.user_id == 1]
    assert stats.best == max(scores) and stats.average == pytest.approx(sum(scores) / 3)
    assert {(r.rules_name, r.games, r.wins) for r in stats.by_rules} == {("custom", 2, 2), ("classic", 1, 0)}
    two = await store.user_stats(2, GUILD_A)
    assert (two.games, two.wins, two.scored) == (2, 1, 1)  # the abandoned game: played, lost, no score
    assert (await store.user_stats(2, GUILD_B)).games == 0
    assert (await store.user_stats(4, GUILD_A)).games == 0 and (await store.user_stats(4)).wins == 1
    assert (await store.user_stats(99)).games == 0


async def test_running_totals_equal_a_rebuild_from_the_games(dailies):
    store, _, db_path = dailies
    def totals():
        with raw(db_path) as conn:
            players = conn.execute(
                "SELECT user_id, guild_id, rules_key, games, wins, scored, total_score, best_score, "
                "round(CAST(average AS NUMERIC), 9), last_at, points FROM player_totals ORDER BY 1, 2, 3").fetchall()
            days = [conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3").fetchall()
                    for table in ("week_totals", "month_totals")]
        return [[tuple(row) for row in rows] for rows in (players, *days)]

    kept = totals()
    assert any(row[2] == ALL_RULES for row in kept[0]) and all(kept)
    assert all(row[10] > 0 for row in kept[0])  # every row holds dailies, each worth points
    await store.rebuild_totals()
    assert totals() == kept


async def test_all_time_daily_board_counts_counted_dailies_only(dailies, clock):
    store, played, _ = dailies
    # A normal game won by player 1 must not reach the daily board (it does reach the overall totals).
    seed, line = winning_seed(ROOMY, 0)
    await play_line(store, await store.create_game(1, GUILD_A, CHANNEL, ROOMY, seed=seed), line)
    for guild in (None, GUILD_A, GUILD_B):
        per = defaultdict(list)
        for g in played:
            if g.kind == "daily" and guild in (None, g.guild_id):
                per[g.user_id].append(g)
        want = []
        for user, games in per.items():
            scores = [g.score for g in games if g.score is not None]
            average = round(sum(scores) / len(scores), 9) if scores else None
            points = sum(score - DAY_FLOOR for score in scores)
            last = max(g.ended_at for g in games)
            want.append((user, points, sum(g.status == "won" for g in games), len(games),
                         max(scores) if scores else None, average, last))
        want.sort(key=lambda r: (-r[1], -r[3], r[6], r[0]))  # most points, most days, the earlier last finish
        board = await store.leaderboard_all_time(guild, limit=100, dailies_only=True)
        got = [(e.user_id, e.points, e.wins, e.games, e.best, None if e.average is None else round(e.average, 9))
               for e in board]
        assert got == [row[:6] for row in want], guild
    stats = await store.user_stats(1)
    dailies_of_1 = [g for g in played if g.user_id == 1 and g.kind == "daily"]
    assert stats.dailies.games == len(dailies_of_1) and stats.games == len(dailies_of_1) + 1
    assert "daily" not in {r.rules_key for r in stats.by_rules}
    with pytest.raises(ValueError, match="rules_key"):
        await store.leaderboard_all_time(None, dailies_only=True, rules_key=ROOMY.key)


async def test_a_players_own_rank_matches_the_full_board_on_every_board(dailies):
    store, played, _ = dailies
    boards = {"daily": lambda g: store.leaderboard_daily(DAY, g, limit=100),
              "week": lambda g: store.leaderboard_week(DAY, g, limit=100),
              "all-time": lambda g: store.leaderboard_all_time(g, limit=100, dailies_only=True)}
    for name, board in boards.items():
        for guild in (None, GUILD_A, GUILD_B):
            full = await board(guild)
            assert len(full) >= 2
            for entry in full:
                assert await store.leaderboard_rank(name, entry.user_id, DAY, guild) == (entry.rank, len(full))
            assert await store.leaderboard_rank(name, 999, DAY, guild) is None  # never played
    # user 10 gave up today's attempt: on today's board with the forfeit, last among equal scores
    board = await store.leaderboard_daily(DAY, limit=100)
    assert await store.leaderboard_rank("daily", 10, DAY) == (next(e.rank for e in board if e.user_id == 10),
                                                             len(board))
    with pytest.raises(ValueError):
        await store.leaderboard_rank("monthly", 1, DAY)
