"""The C search (``games/solver/_exact.c``) against ``search.Search``: the same bound and the same best score at every
turn start met along random lines of every solvable rule set, avoids included, and the same answer to "at least t?"
on both sides of the best; a room played into worth the best of its moves. And positions (``Position``) use it
whenever it is built.

Without a build these tests are skipped (a machine without a C compiler runs ``search.Search``), except under CI
(``CI=true``), where a missing build is a failure.
"""

from __future__ import annotations

import os
import random

import pytest

from games.engine import PRESETS, apply, deal, legal_actions, new_game
from games.engine.actions import AVOID
from games.engine.seeds import seed_from_bytes
from games.solver import native
from games.solver.deal import Deal
from games.solver.position import Position
from games.solver.search import Search, narrow
from tests.solver.test_agreement import SOLVABLE

ON_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(scope="module")
def exact():
    found = native.exact_type()
    if found is None:
        why = "the C search is not built (`pip install -e .` builds it) or SCOUNDREL_PURE_SOLVER=1"
        if ON_CI and os.environ.get(native.PURE_ENV, "") in ("", "0"):
            pytest.fail(f"CI=true but {why}")
        pytest.skip(why)
    return found


def turn_starts(rules, seed: int, rng: random.Random, skip: int):
    """(deal, situation) at every turn start of a line after the first ``skip`` turns (first rooms are the slowest
    for ``Search``): a best move four times in five, else a random one, and an avoid whenever it may with a chance of
    one in four (so that the line lives long and meets the avoided cards again)."""
    state = new_game(rules, deck=deal(rules, seed))
    position = Position(rules, tuple(card for card in state.room if card is not None) + state.dungeon)
    turns = 0
    while not state.over:
        situation = position.situation(state)
        if situation is not None:
            if turns >= skip:
                yield position.deal, situation
            turns += 1
        actions = legal_actions(state)
        avoid = [action for action in actions if action.kind == AVOID]
        if avoid and rng.random() < 1 / 4:
            action = avoid[0]
        elif rng.random() < 4 / 5:
            action = position.best_action(state)[0]
        else:
            action = rng.choice(actions)
        state = apply(state, action)


def c_search(exact, deal: Deal):
    return exact(bytes(deal.card_class), deal.max_health, deal.early_end, deal.room_counts_at_death,
                 deal.limit_step)


@pytest.mark.parametrize("preset", SOLVABLE)
def test_the_same_best_score_as_the_python_search(exact, preset):
    rules = PRESETS[preset]
    rng = random.Random(preset)
    compared = 0
    for i in range(3):
        seed = seed_from_bytes(f"exact-core/{preset}/{i}".encode())
        for deal_, situation in turn_starts(rules, seed, rng, skip=3):
            slow, fast = Search(deal_), c_search(exact, deal_)
            top = slow.ceiling(*situation[:3], *situation[4:])
            assert fast.ceiling(*situation[:3], *situation[4:]) == top
            assert fast.limit(situation[6], *situation[:3]) == situation[6]
            best = narrow(lambda t, s=slow, at=situation: s.test(*at, t), top)
            assert narrow(lambda t, s=fast, at=situation: s.test(*at, t), top) == best, (preset, i, situation)
            # fail-soft both ways: a pass is a score some line reaches, a fail a score none beats
            assert fast.test(*situation, best) >= best
            below = fast.test(*situation, best + 1)
            assert best <= below < best + 1
            assert fast.proven(*situation, best) and not fast.proven(*situation, best + 1)
            compared += 1
    assert compared >= 12


@pytest.mark.parametrize("preset", SOLVABLE)
def test_a_room_played_into_is_worth_the_best_of_its_moves(exact, preset):
    """One or two cards into a room, the C search answers the position itself (``Position.played_into``), where
    the walk asked it of each turn start the room's moves lead to: its value is the best of its moves' values (turn
    starts, the end of the game, or again a room played into), and its answers are fail-soft both ways."""
    rules = PRESETS[preset]
    rng = random.Random(f"played-into/{preset}")
    compared = 0
    for i in range(4):
        state = new_game(rules, deck=deal(rules, seed_from_bytes(f"played-into/{preset}/{i}".encode())))
        position = Position(rules, tuple(card for card in state.room if card is not None) + state.dungeon)
        while not state.over:
            for action in legal_actions(state):
                after = apply(state, action)
                into = position.played_into(after)
                if into is None:
                    continue
                best = position.value(after)
                assert best == max(position.value(apply(after, move)) for move in legal_actions(after))
                assert position.search.test_played_into(*into, best) >= best
                assert position.search.test_played_into(*into, best + 1) == best
                assert position.search.proven_played_into(*into, best)
                assert not position.search.proven_played_into(*into, best + 1)
                compared += 1
            state = apply(state, rng.choice(legal_actions(state)))
    assert compared >= 20


def test_positions_use_it_and_free_it(exact):
    rules = PRESETS["classic"]
    state = new_game(rules, deck=deal(rules, seed_from_bytes(b"exact-core/position")))
    position = Position(rules, tuple(card for card in state.room if card is not None) + state.dungeon)
    assert isinstance(position.search, exact)
    value = position.value(state)
    assert position.size() > 0 and position.search.nodes > 0
    assert position.release(10)
    assert position.size() == 0
    with pytest.raises(RuntimeError, match="released"):
        position.search.test(0, (), -1, False, 20, 0, 0, value)


def test_bad_arguments_are_refused(exact):
    with pytest.raises(ValueError):
        exact(bytes([0x3F]), 20, False, True, 0)  # kind 3 is no card
    fast = exact(bytes(Deal(PRESETS["classic"], deal(PRESETS["classic"], 7)).card_class), 20, False, True, 0)
    with pytest.raises(ValueError):
        fast.test(0, (99,), -1, False, 20, 0, 0, 1)  # no card 99 in a deal of 44
    with pytest.raises(ValueError):
        fast.test(45, (), -1, False, 20, 0, 0, 1)
