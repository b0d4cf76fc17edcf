"""The fair coach judges the moves that are not the best only far enough to show it, and gives the same answer as
judging every move exactly; the collector does not walk what a search kept."""

from __future__ import annotations

import gc
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import PRESETS, apply, deal, legal_actions, new_game
from games.engine.seeds import seed_from_bytes
from games.solver.fair import Coach
from games.solver.search import gc_paused
from tests.solver.brute_force import start_state
from tests.solver.test_fair import dealt, played_into, recommended

CLASSIC = PRESETS["classic"]


def _judged_in_full(coach: Coach, state):
    """The recommended move as it is defined: every legal move's figures exact, the highest expected score, then
    the higher chance to win, then the first in the engine's order."""
    return recommended(coach.advise(state, judge=legal_actions(state)).moves)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(12, 22), health=st.integers(4, 20), moves=st.integers(0, 10),
       samples=st.integers(1, 6))
def test_the_recommended_move_and_its_figures_are_those_of_judging_every_move(seed, size, health, moves, samples):
    rules, state = played_into(seed, size, health, moves)
    assert Coach(rules, samples).advise(state).best == _judged_in_full(Coach(rules, samples), state)


def test_on_the_classic_deals_the_same_hints_with_fewer_searches():
    """Along a line of the classic deal, each position's hint is the move judging every move exactly gives, with
    its exact figures, and it costs fewer search nodes than judging every move."""
    deck = deal(CLASSIC, seed_from_bytes(b"solver-bench/1"))
    state = new_game(CLASSIC, deck=deck)
    lean, full = Coach(CLASSIC, 4), Coach(CLASSIC, 4)
    lean_nodes = full_nodes = 0
    for _ in range(3):
        before = _nodes(lean), _nodes(full)
        best = lean.advise(state).best
        assert best == _judged_in_full(full, state)
        lean_nodes += _nodes(lean) - before[0]
        full_nodes += _nodes(full) - before[1]
        state = apply(state, best.action)
    assert lean_nodes < 0.8 * full_nodes


def _nodes(coach: Coach) -> int:
    return sum(position.search.nodes for position in coach._positions.values())


def test_only_the_recommended_move_and_the_moves_asked_about_have_figures():
    rng = random.Random("asked")
    rules, deck = dealt(rng, 16, 12)
    state = start_state(rules, deck)
    actions = legal_actions(state)
    advice = Coach(rules, 3).advise(state)
    assert advice.moves == (advice.best,)
    other = next(action for action in actions if action != advice.best.action)
    with pytest.raises(KeyError):
        advice.value_of(other)
    asked = Coach(rules, 3).advise(state, judge=(other,))
    assert asked.best == advice.best and asked.value_of(other).action == other
    wanted = (other, advice.best.action)
    assert [move.action for move in asked.moves] == [action for action in actions if action in wanted]


def test_what_a_search_kept_is_left_to_the_full_collections():
    """Objects made inside the pause and still alive after it are in the oldest generation: the young collections,
    frequent, never walk a coach's kept searches again."""
    was_on = gc.isenabled()
    gc.enable()
    try:
        with gc_paused():
            kept = [[i, i + 1] for i in range(1000)]
        kept.append([])  # an allocation after the pause: the young generation is collected if it is due
        for young in (0, 1):
            assert not any(obj is kept[0] for obj in gc.get_objects(generation=young))
        assert any(obj is kept[0] for obj in gc.get_objects(generation=2))
    finally:
        if not was_on:
            gc.disable()
