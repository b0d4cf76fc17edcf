"""The solver against its frozen previous version (``reference_solver``): the same par, the same best score at
every position, under every solvable rule set, on deals larger than brute force can check."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import PRESETS, apply, deal, legal_actions, new_game
from games.solver import solve
from games.solver.position import Position
from tests.solver import reference_solver as reference
from tests.solver.brute_force import play, start_state
from tests.solver.test_agreement import SOLVABLE


def mid_deals(preset_name: str, count: int, sizes=(12, 22)):
    """Random deals of 12-22 cards at random start and max health: wins, deaths and the potion bonus all occur."""
    rng = random.Random(f"solver-reference-{preset_name}")
    base = PRESETS[preset_name]
    for _ in range(count):
        start = rng.randint(1, 30)
        rules = base.with_health(start, max(start, rng.choice([start, 20, 25])))
        yield rules, tuple(rng.sample(rules.full_deck(), rng.randint(*sizes)))


@pytest.mark.parametrize("preset_name", SOLVABLE)
def test_par_equals_the_reference_solver_and_its_line_reaches_it(preset_name):
    outcomes = set()
    for rules, deck in mid_deals(preset_name, 25):
        expected = reference.solve(rules, deck).best_score
        solution = solve(rules, deck)
        codes = " ".join(c.code for c in deck)
        assert solution.best_score == expected, f"{rules.key} {codes}"
        assert play(rules, deck, solution.actions).score == expected, f"{rules.key} {codes}"
        outcomes.add(expected > 0)
    assert outcomes == {True, False}


@pytest.mark.parametrize("health", [1, 4])
def test_par_of_full_classic_deals_at_low_health_equals_the_reference(health):
    """Full 44-card deals that mostly cannot be won: the best death is exact too."""
    rules = PRESETS["classic"].with_health(health)
    pars = []
    for seed in range(3):
        deck = deal(rules, 1000 * health + seed)
        expected = reference.solve(rules, deck).best_score
        solution = solve(rules, deck)
        assert solution.best_score == expected, (health, seed)
        assert play(rules, deck, solution.actions).score == expected
        pars.append(expected)
    assert min(pars) <= 0  # deaths were compared, not only wins


@pytest.mark.parametrize("preset_name", SOLVABLE)
def test_every_position_of_random_lines_equals_the_reference(preset_name):
    """Mid-room, after avoids, in the final room: the best score from each position of random lines."""
    rng = random.Random(f"solver-reference-positions-{preset_name}")
    compared = 0
    for rules, deck in mid_deals(preset_name, 10, sizes=(10, 16)):
        ours, theirs = Position(rules, deck), reference.Position(rules, deck)
        state = start_state(rules, deck)
        while not state.over:
            expected = theirs.value(state)
            assert ours.value(state) == expected, f"{rules.key} {[c.code for c in deck]} {state.history}"
            action, kept = ours.best_action(state)
            assert kept == expected and theirs.value(apply(state, action)) == expected
            state = apply(state, rng.choice(legal_actions(state)))
            compared += 1
    assert compared > 20


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), preset_name=st.sampled_from(SOLVABLE), start=st.integers(1, 40),
       size=st.integers(4, 20), strays=st.integers(0, 30))
def test_any_position_of_any_deal_equals_the_reference(seed, preset_name, start, size, strays):
    rng = random.Random(seed)
    base = PRESETS[preset_name]
    rules = base.with_health(start, max(start, rng.choice([start, 20, 30])))
    deck = tuple(rng.sample(rules.full_deck(), size))
    state = start_state(rules, deck)
    for _ in range(strays):
        if state.over:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    assert Position(rules, deck).value(state) == reference.Position(rules, deck).value(state)


def test_a_full_game_position_by_position_equals_the_reference():
    """Every position of a 44-card game that strays from the best line now and then."""
    rules = PRESETS["classic"]
    deck = deal(rules, 7)
    ours, theirs = Position(rules, deck), reference.Position(rules, deck)
    rng, state = random.Random("reference-full-game"), new_game(rules, deck=deck)
    while not state.over:
        expected = theirs.value(state)
        assert ours.value(state) == expected, state.history
        action = rng.choice(legal_actions(state)) if rng.random() < 0.1 else ours.best_action(state)[0]
        state = apply(state, action)
