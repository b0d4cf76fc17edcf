"""The month board (``month_totals``): kept by the transaction that scores a counted daily, right across a month
boundary, equal to a plain sum over the games, rebuilt the same by ``rebuild_totals``."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta

from app.daily.days import DAILY_RULES, daily_seed, day_start
from games.engine.calendar import month_days, month_of
from games.engine.tally import DAY_FLOOR
from tests.storage.helpers import dying_line, play_line
from tests.storage.test_boards import DAY, GUILD_A, GUILD_B, dailies, dailies_db  # noqa: F401

CHANNEL = 601


def expected_month(played, month, guild=None):
    totals = defaultdict(lambda: [0, 0, 0, None, 0])
    for g in played:
        if month_of(g.day) == month and g.kind == "daily" and g.score is not None and guild in (None, g.guild_id):
            row = totals[g.user_id]
            row[0] += g.score - DAY_FLOOR
            row[1] += 1
            row[2] += g.status == "won"
            row[3] = g.ended_at if row[3] is None else max(row[3], g.ended_at)
            row[4] += g.ended_by is not None
    ranked = sorted(totals.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[1][3], kv[0]))
    return [(user, row[0], row[1], row[2], row[4]) for user, row in ranked]


def board_rows(board):
    return [(e.user_id, e.points, e.days, e.wins, e.forfeits) for e in board]


async def test_the_month_board_sums_the_months_counted_dailies_and_ranks_like_it(dailies):  # noqa: F811
    store, played, _ = dailies
    month = month_of(DAY)
    for guild in (None, GUILD_A, GUILD_B):
        board = await store.leaderboard_month(month, guild, limit=100)
        assert board_rows(board) == expected_month(played, month, guild)
        assert [e.rank for e in board] == list(range(1, len(board) + 1))
        for entry in board:
            assert await store.month_rank(entry.user_id, month, guild) == (entry.rank, len(board))
        assert await store.month_rank(999, month, guild) is None
    assert 11 not in [e.user_id for e in await store.leaderboard_month(month, limit=100)]  # practice: never
    assert len(await store.leaderboard_month(month, limit=3)) == 3
    assert await store.leaderboard_month(month + 1) == []


async def test_rebuilding_the_totals_gives_the_same_month_board(dailies):  # noqa: F811
    store, played, _ = dailies
    month = month_of(DAY)
    before = board_rows(await store.leaderboard_month(month, GUILD_A, limit=100))
    await store.rebuild_totals()  # runs the month totals' fill, in this backend's dialect
    assert board_rows(await store.leaderboard_month(month, GUILD_A, limit=100)) == before
    assert board_rows(await store.leaderboard_month(month, None, limit=100)) == expected_month(played, month)


async def test_a_daily_counts_in_the_month_of_its_own_day_across_the_boundary(store, clock):
    secret = await store.daily_secret()
    january, february = month_days(1), month_days(2)
    assert january == (1, 31) and february == (32, 59) and month_of(31) == 1 and month_of(32) == 2
    scores = {}  # each day's points
    for day, user in ((31, 1), (31, 2), (32, 1), (59, 2), (60, 3)):
        clock.now = day_start(day) + timedelta(hours=23, minutes=user)  # played on its own day, late
        record = await store.create_game(user, GUILD_A, CHANNEL, DAILY_RULES, seed=daily_seed(secret, day),
                                         kind="daily", day=day)
        clock.advance(30)
        scores[(day, user)] = (await play_line(store, record, dying_line(record.state))).score - DAY_FLOOR
    assert board_rows(await store.leaderboard_month(1, GUILD_A)) == sorted(
        [(1, scores[(31, 1)], 1, 0, 0), (2, scores[(31, 2)], 1, 0, 0)], key=lambda r: -r[1])
    assert board_rows(await store.leaderboard_month(2)) == sorted(
        [(1, scores[(32, 1)], 1, 0, 0), (2, scores[(59, 2)], 1, 0, 0)], key=lambda r: -r[1])
    assert board_rows(await store.leaderboard_month(3)) == [(3, scores[(60, 3)], 1, 0, 0)]
    await store.rebuild_totals()
    assert [e.user_id for e in await store.leaderboard_month(3)] == [3]
    assert len(await store.leaderboard_month(2, GUILD_A)) == 2
