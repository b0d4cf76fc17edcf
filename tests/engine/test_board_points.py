"""The boards of several days reward playing (games.engine.tally's points), on their own: no database.

The boards are ranked here as storage ranks them (``storage.totals.DAYS_ORDER``: most points, most days, the earlier
last finish, the smaller id), from the rows the tally gives, added up as storage's upserts add them.
"""

from __future__ import annotations

from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from app.daily.days import DAILY_RULES
from games.engine import WON, apply, forfeit_score, legal_actions, new_game
from games.engine.seeds import SEED_BITS
from games.engine.tally import DAILIES, DAILY, DAY_FLOOR, EndedGame, day_points, tally_all

DAY_US = 86_400_000_000
USERS = (1, 2, 3, 4)
GUILDS = (7, 8, None)
LAST_DAY = 45  # the boards cross a month's end (January has 31 days)

seeds = st.integers(min_value=0, max_value=(1 << SEED_BITS) - 1)
scores = st.integers(min_value=DAY_FLOOR, max_value=30)


def daily(user: int, day: int, score: int, guild: int | None, minute: int) -> EndedGame:
    """A counted daily as it ended: a positive score is a win; a negative one a death or a forfeit."""
    return EndedGame(user_id=user, guild_id=guild, rules_key=DAILY_RULES.key, kind=DAILY, day=day,
                     status=WON if score > 0 else "dead", score=score, at=day * DAY_US + minute * 60_000_000,
                     forfeit=score == DAY_FLOOR)


def boards(games: list[EndedGame]) -> dict[tuple, list[tuple[int, tuple]]]:
    """Every board of several days the games reach: (kind, period, guild) -> [(user, (points, days, last at))],
    best first."""
    adds = tally_all(games)
    totals: dict[tuple, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))

    def add(board: tuple, user: int, points: int, days: int, at: int) -> None:
        row = totals[board][user]
        row[0] += points
        row[1] += days
        row[2] = max(row[2], at)

    for week_end, guild, user, points, _wins, _forfeits, _best, at in adds.weeks:
        add(("week", week_end, guild), user, points, 1, at)
    for month, guild, user, points, _wins, _forfeits, _best, at in adds.months:
        add(("month", month, guild), user, points, 1, at)
    for user, guild, key, games, *_, at, points in adds.players:
        if key == DAILIES:
            add(("all-time", 0, guild), user, points, games, at)
    return {board: sorted(((user, tuple(row)) for user, row in rows.items()),
                          key=lambda entry: (-entry[1][0], -entry[1][1], entry[1][2], entry[0]))
            for board, rows in totals.items()}


@st.composite
def histories(draw):
    """Dailies of four players over 45 days (each player at most once a day, in one server or none), and one more
    daily a player skipped."""
    played = draw(st.lists(st.tuples(st.sampled_from(USERS), st.integers(1, LAST_DAY)), max_size=40, unique=True))
    games = [daily(user, day, draw(scores), draw(st.sampled_from(GUILDS)), draw(st.integers(0, 1439)))
             for user, day in played]
    skipped = [(user, day) for user in USERS for day in range(1, LAST_DAY + 1) if (user, day) not in played]
    user, day = draw(st.sampled_from(skipped))
    return games, daily(user, day, draw(scores), draw(st.sampled_from(GUILDS)), draw(st.integers(0, 1439)))


@settings(max_examples=300, deadline=None)
@given(histories())
def test_playing_one_more_day_never_ranks_a_player_lower_on_any_board(history):
    games, extra = history
    without, with_it = boards(games), boards([*games, extra])
    player = extra.user_id
    for board, entries in without.items():
        after = dict(with_it[board])
        for user, row in entries:
            if user != player:
                assert after[user] == row  # the day added to no one else's total
        places = [user for user, _ in entries]
        if player in places:
            ranked_below = set(places[places.index(player) + 1:])
            places_after = [user for user, _ in with_it[board]]
            assert ranked_below <= set(places_after[places_after.index(player) + 1:]), board
            assert after[player][0] >= dict(entries)[player][0]  # never fewer points


@given(st.integers(DAY_FLOOR, 30), st.integers(DAY_FLOOR, 30))
def test_a_days_points_are_never_negative_and_keep_the_scores_order(a, b):
    assert day_points(a) >= 0 and day_points(b) >= 0
    assert (day_points(a) < day_points(b)) == (a < b)


@settings(max_examples=60, deadline=None)
@given(seeds, st.lists(st.integers(min_value=0, max_value=1_000), max_size=200))
def test_no_daily_can_end_below_the_floor_and_giving_up_at_once_reaches_it(seed, choices):
    state = new_game(DAILY_RULES, seed=seed)
    assert forfeit_score(state) == DAY_FLOOR  # the floor is the lowest score there is, not a guess below it
    for choice in choices:
        if state.over:
            break
        assert forfeit_score(state) >= DAY_FLOOR
        actions = legal_actions(state)
        state = apply(state, actions[choice % len(actions)])
    assert (state.score if state.over else forfeit_score(state)) >= DAY_FLOOR
