"""The fair coach's shortcuts (rival moves dropped once they cannot win the tie-break, a move the position's own
search already proved taken as exact) give the advice of the straightforward definition: every legal move solved
exactly on every order, the highest expected score, then the higher chance to win, then the first in the engine's
order."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import PRESETS, apply, deal, legal_actions, new_game
from games.engine.seeds import seed_from_bytes
from games.solver.fair import Coach, MoveValue, orders, visible
from games.solver.position import Position
from tests.solver.test_fair import dealt, line_while_unseen, played_into, recommended, replayed

CLASSIC = PRESETS["classic"]


def every_move(state, samples: int) -> list[MoveValue]:
    """Every legal move's figures with no shortcut: each move's exact value on each order, in the engine's order."""
    seen = visible(state)
    dungeons, _ = orders(seen, samples)
    room = tuple(card for card in seen.room if card is not None)
    positions = [(Position(seen.rules, room + dungeon), seen._replace(dungeon=dungeon)) for dungeon in dungeons]
    figures = []
    for action in legal_actions(seen):
        values = [position.value(apply(here, action)) for position, here in positions]
        figures.append(MoveValue(action, sum(values) / len(values), sum(v > 0 for v in values) / len(values)))
    return figures


def straightforward(state, samples: int) -> MoveValue:
    """The recommended move by its definition."""
    return recommended(every_move(state, samples))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(10, 20), health=st.integers(3, 20), moves=st.integers(0, 10),
       samples=st.integers(1, 6))
def test_small_deals_get_the_straightforward_advice(seed, size, health, moves, samples):
    rules, state = played_into(seed, size, health, moves)
    if len(legal_actions(state)) > 1:
        assert Coach(rules, samples).advise(state).best[:3] == straightforward(state, samples)[:3]  # move, figures


def small_position(seed: int):
    """A small deal with a few random moves played, and the orders its coach judges on, all drawn from ``seed``."""
    rng = random.Random(seed)
    size, health, moves, samples = rng.randint(10, 20), rng.randint(3, 20), rng.randint(0, 10), rng.randint(2, 6)
    rules, deck = dealt(rng, size, health)
    line, _ = line_while_unseen(rules, deck, rng, moves)
    return rules, replayed(rules, deck, line)[-1], samples


def test_a_move_with_the_same_total_and_more_orders_won_is_not_dropped():
    """Seed 339: two moves have the same expected score; the one later in the engine's order wins on more orders."""
    rules, state, samples = small_position(339)
    figures = every_move(state, samples)
    best = straightforward(state, samples)
    assert any(move.expected == best.expected and move.win < best.win for move in figures)
    assert Coach(rules, samples).advise(state).best[:3] == best[:3]


def test_along_classic_deals_every_hint_is_the_straightforward_one():
    """Two classic deals along the recommended line, one coach kept along each, as the bot keeps it; in the first
    rooms of the first deal several moves tie (the tie-break decides)."""
    ties = 0
    for name in (b"solver-bench/2", b"solver-bench/0"):
        state = new_game(CLASSIC, deck=deal(CLASSIC, seed_from_bytes(name)))
        coach = Coach(CLASSIC, 2)
        for _ in range(6):
            if len(legal_actions(state)) > 1:
                figures = every_move(state, 2)
                best = recommended(figures)
                assert coach.advise(state).best[:3] == best[:3]
                ties += sum(move[1:] == best[1:] for move in figures) > 1
                state = apply(state, best.action)
            else:
                state = apply(state, legal_actions(state)[0])
    assert ties  # the tie-break was exercised
