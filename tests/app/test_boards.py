"""The boards and a player's stats through the application layer (``app.players.boards``) on a real store: which
board a request means, the entries with their kept names, the player's own place, and the stats with streaks."""

from __future__ import annotations

import pytest

from app.daily import attempt as daily_attempt
from app.errors import BoardRefused
from app.players import boards
from games.engine.calendar import day_of, month_days, month_of
from tests.app.test_daily_attempt import finish

ALICE, BOB, GUILD, OTHER_GUILD = 1, 2, 10, 11


def test_which_board_a_request_means(clock):
    today = day_of(clock())
    with pytest.raises(BoardRefused, match=boards.FUTURE_DAY) as future:
        boards.which_board("daily", today, day=today + 1, guild_id=GUILD)
    assert (future.value.asked, future.value.today) == (today + 1, today)
    with pytest.raises(BoardRefused, match=boards.FUTURE_MONTH):
        boards.which_board("week", today, month=month_of(today) + 1, guild_id=GUILD)
    assert boards.which_board("daily", today, guild_id=GUILD) == boards.BoardRequest("daily", GUILD, today, today)
    earlier = month_of(today) - 1  # any board named with a month is that month's board, at its last day
    assert boards.which_board("week", today, month=earlier, guild_id=GUILD)[:3] == ("month", GUILD,
                                                                                    month_days(earlier)[1])
    assert boards.which_board("month", today, month=month_of(today)).day == today  # this month: up to today
    assert boards.which_board("all-time", today, server=False, guild_id=GUILD).guild_id is None
    outside = boards.which_board("daily", today)  # a server's board asked for outside any server
    assert outside.global_instead and outside.guild_id is None
    assert boards.which_board("week", 3).first_day == 1 and boards.which_board("week", 30).first_day == 24
    assert boards.recent_days(today)[:2] == [today, today - 1] and len(boards.recent_days(today)) == 25
    assert all(str(d).startswith("5") for d in boards.recent_days(today, "#5"))
    assert boards.recent_months(today)[0] == month_of(today)


async def test_a_board_holds_its_servers_results_with_kept_names_and_the_players_place(store, clock):
    today = day_of(clock())
    await finish(store, (await daily_attempt.open_daily(store, ALICE, clock, guild_id=GUILD, name="Alice")).record)
    await finish(store, (await daily_attempt.open_daily(store, BOB, clock, guild_id=OTHER_GUILD, name="Bob")).record)
    server = await boards.board_for(store, boards.which_board("daily", today, guild_id=GUILD), BOB)
    assert [e.user_id for e in server.entries] == [ALICE] and server.names == {ALICE: "Alice"}
    assert server.rank is None  # Bob played in another server
    every = await boards.board_for(store, boards.which_board("month", today, server=False), BOB)
    assert {e.user_id for e in every.entries} == {ALICE, BOB} and every.rank[1] == 2
    empty = await boards.board_for(store, boards.which_board("week", today, guild_id=GUILD + 5))
    assert (list(empty.entries), empty.names, empty.rank) == ([], {}, None)

    stats, streak, longest = await boards.player_stats(store, ALICE, today)
    assert (stats.games, streak, longest) == (1, 1, 1)
    assert (await boards.player_stats(store, ALICE, today + 2)).streak == 0  # a day missed: the streak is over
