"""Hand-made deals whose best score is plain to see, full deals replayed through the engine, refusals."""

from __future__ import annotations

import pytest

from games.engine import PRESETS, Rules, apply, deal, replay
from games.engine.actions import Action
from games.engine.cards import parse_card
from games.solver import SolverRefused, solve
from games.solver.deal import Deal
from games.solver.position import Position
from games.solver.search import Search
from tests.solver.brute_force import best_from, play, start_state

CLASSIC = PRESETS["classic"]


def cards(rules: Rules, *codes: str):
    return tuple(parse_card(code, rules.full_deck()) for code in codes)


def test_a_lone_potion_at_full_health_scores_the_bonus():
    solution = solve(CLASSIC, cards(CLASSIC, "H10"))
    assert solution.best_score == 30 and [a.code for a in solution.actions] == ["T0"]


def test_final_room_kills_strongest_first_and_drinks_last():
    # Equip ♦2, kill ♠4 (2 damage) then ♣3 (1 damage): 17 health; ♥5 last heals to 20 and scores the bonus.
    deck = cards(CLASSIC, "H5", "D2", "C3", "S4")
    solution = solve(CLASSIC, deck)
    assert solution.best_score == 25
    assert play(CLASSIC, deck, solution.actions).score == 25
    assert solution.actions[-1].code == "T0"


def test_under_the_early_ending_the_bound_leaves_out_the_monsters_that_cost_most_not_the_strongest():
    # ♦9 held at 16 health. ♣K and ♠Q on the weapon (4 + 3), ♥5, then ♣10, ♣9 and ♣7 on it (1): out at 13, with ♣A
    # and ♠9 never played. Leaving out the three strongest (♣A, ♣K, ♠Q) instead made a bound of 11, below that line,
    # and a search that trusts its bound raised "the upper bound was beaten".
    rules = PRESETS["early-win"]
    deck = cards(rules, "C13", "H5", "S12", "C7", "C14", "C9", "C10", "S9")
    state = start_state(rules, deck)._replace(health=16, weapon=cards(rules, "D9")[0])
    assert play_from(state, "W0 W2 T1 W3 W2 W0").score == 13  # the room, then ♣7 ♣A ♣9 ♣10 (♣A carried out)
    position = Position(rules, deck)
    assert best_from(state) == 13
    assert position.value(state) == 13
    assert position.ceiling(state) >= 13
    situation = position.situation(state)
    assert Search(position.deal).ceiling(*situation[:3], *situation[4:]) >= 13


def play_from(state, codes: str):
    for code in codes.split():
        state = apply(state, Action.parse(code))
    return state


def test_a_hopeless_room_is_best_lost_to_the_strongest_monster():
    # 5 health against four face cards: whichever monster comes first kills; dying to the ace leaves 13+12+11.
    rules = CLASSIC.with_health(5)
    deck = cards(rules, "C11", "S12", "C13", "S14")
    solution = solve(rules, deck)
    assert solution.best_score == -36 and not solution.winnable
    assert [a.code for a in solution.actions] == ["T3"]


def test_when_death_counts_the_dungeon_only_the_room_left_is_free():
    rules = PRESETS["rules-sheet"].with_health(5)
    assert solve(rules, cards(rules, "C11", "S12", "C13", "S14")).best_score == 0


def test_early_win_ends_before_the_last_card():
    # ♣2 ♣3 then ♥5 at 15 health: 20 and a potion last; ♣4 is carried and the game is won before ♠A is drawn.
    rules = PRESETS["early-win"]
    deck = cards(rules, "C2", "C3", "C4", "H5", "S14")
    solution = solve(rules, deck)
    assert solution.best_score == 25
    assert play(rules, deck, solution.actions).score == 25


@pytest.mark.parametrize(("preset_name", "seed", "par"), [("classic", 7, 30), ("classic", 8, 30)])
def test_full_deals_replay_to_the_reported_score(preset_name, seed, par):
    rules = PRESETS[preset_name]
    deck = deal(rules, seed)
    solution = solve(rules, deck)
    assert solution.best_score == par and solution.states > 0
    assert replay(rules, deck, solution.actions).score == par


@pytest.mark.parametrize(("preset_name", "health"), [("classic", 20), ("classic", 4), ("lenient", 20),
                                                     ("early-win", 20), ("rules-sheet", 6)])
def test_the_line_is_read_from_what_the_search_proved(preset_name, health):
    """Walking down the optimal line searches nothing the par's search did not (that walk once cost more than the
    search itself, trying choices the search never needed)."""
    rules = PRESETS[preset_name].with_health(health)
    for seed in range(3):
        deck = deal(rules, seed)
        search = Search(Deal(rules, deck))
        best = search.exact((0, (), -1, False, health, 0, 0))
        solution = solve(rules, deck)
        assert solution.best_score == best and solution.states == search.nodes
        assert replay(rules, deck, solution.actions).score == best


@pytest.mark.parametrize("preset_name", ["shuffled-avoid", "expansion"])
def test_rules_with_chance_are_refused(preset_name):
    rules = PRESETS[preset_name]
    with pytest.raises(SolverRefused):
        solve(rules, rules.full_deck())
