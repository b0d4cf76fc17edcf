"""What a finished game adds to the boards (games.engine.tally), on its own: no database."""

from games.engine import Rules, new_game
from games.engine.tally import (
    ALL_GUILDS,
    ALL_RULES,
    DAILIES,
    DAY_FLOOR,
    WEEK_DAYS,
    EndedGame,
    counts,
    forfeit,
    tally,
    tally_all,
)

KEY = Rules().key


def ended(kind="normal", status="won", score=12, guild=7, day=None, forfeit=False) -> EndedGame:
    return EndedGame(user_id=1, guild_id=guild, rules_key=KEY, kind=kind, day=day, status=status, score=score,
                     at=1000, forfeit=forfeit)


def test_a_normal_game_counts_under_its_rules_and_every_rule_set_here_and_everywhere():
    rows = tally(ended())
    assert {(r[1], r[2]) for r in rows.players} == {(7, KEY), (7, ALL_RULES), (ALL_GUILDS, KEY),
                                                     (ALL_GUILDS, ALL_RULES)}
    assert all(r[3:8] == (1, 1, 1, 12, 12) for r in rows.players) and not rows.weeks
    assert all(r[10] == 0 for r in rows.players)  # points are the dailies' only


def test_a_game_outside_a_server_counts_only_everywhere():
    assert {r[1] for r in tally(ended(guild=None)).players} == {ALL_GUILDS}


def test_practice_and_hinted_games_and_duels_never_count():
    assert not tally(ended(kind="practice")) and not counts("practice")
    assert not tally(ended(), hinted=True) and not counts("normal", hinted=True)
    assert not counts("duel")


def test_a_counted_daily_adds_the_dailies_board_and_the_seven_weeks_holding_its_day():
    rows = tally(ended(kind="daily", status="dead", score=-5, day=30))
    assert {r[2] for r in rows.players} == {KEY, ALL_RULES, DAILIES}
    assert all(r[4] == 0 for r in rows.players)  # dead: played, not won
    assert sorted({r[0] for r in rows.weeks}) == list(range(30, 30 + WEEK_DAYS))
    assert all(r[3] == -5 - DAY_FLOOR and r[5] == 0 and r[6] == -5 for r in rows.weeks)  # points; best score
    assert len(rows.weeks) == 2 * WEEK_DAYS
    assert all(r[6] == -5 and r[10] == -5 - DAY_FLOOR for r in rows.players)


def test_a_forfeited_daily_counts_its_forfeit_in_the_weeks():
    rows = tally(ended(kind="daily", status="abandoned", score=-20, day=3, forfeit=True))
    assert all(r[5] == 1 for r in rows.weeks)


def test_an_unscored_game_counts_as_played_but_adds_no_score_and_no_week():
    rows = tally(ended(kind="daily", status="abandoned", score=None, day=3, forfeit=True))
    assert all(r[3] == 1 and r[5] == 0 and r[7] is None for r in rows.players) and not rows.weeks


def test_a_late_score_adds_no_second_game():
    assert all(r[3] == 0 for r in tally(ended(), new=False).players)
    assert len(tally_all([ended(), ended(kind="practice"), ended()]).players) == 8


def test_only_a_counted_daily_given_up_is_scored_by_its_forfeit():
    state = new_game(Rules(), seed=3)
    assert forfeit("daily", state) is not None and forfeit("daily", state) < 0
    assert forfeit("normal", state) is None and forfeit("practice", state) is None
    assert forfeit("daily", None) is None  # an unreadable state: no score


def test_a_counted_daily_adds_the_month_holding_its_day_once_per_server():
    last_of_january, first_of_february = 31, 32
    for day, month in ((last_of_january, 1), (first_of_february, 2)):
        rows = tally(ended(kind="daily", status="dead", score=-5, day=day))
        assert sorted(r[0:2] for r in rows.months) == [(month, ALL_GUILDS), (month, 7)]
        assert all(r[3] == -5 - DAY_FLOOR and r[4] == 0 and r[5] == 0 and r[6] == -5 for r in rows.months)
    assert all(r[5] == 1 for r in tally(ended(kind="daily", status="abandoned", score=-20, day=3,
                                              forfeit=True)).months)
    assert not tally(ended()).months and not tally(ended(kind="daily", score=None, day=3)).months
