"""The fair coach: its advice is a function of what the player can see, and exact where it enumerates the orders."""

from __future__ import annotations

import random
from itertools import permutations
from statistics import fmean

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import PRESETS, apply, legal_actions
from games.solver.fair import Coach, coach_play, distinct_orders, unseen_count
from games.solver.fair_review import MISTAKE_POINTS, fair_review
from games.solver.position import Position
from tests.solver.brute_force import best_from, start_state

CLASSIC = PRESETS["classic"]
SAMPLES = 3  # orders a test's coach judges on: the properties hold for any number, and few keep the tests quick


def dealt(rng: random.Random, size: int, health: int):
    rules = CLASSIC.with_health(health)
    return rules, tuple(rng.sample(rules.full_deck(), size))


def twin(deck, seen: int, rng: random.Random):
    """A deck that agrees with ``deck`` on its first ``seen`` cards and orders the rest otherwise."""
    rest = list(deck[seen:])
    rng.shuffle(rest)
    return tuple(deck[:seen]) + tuple(rest)


def line_while_unseen(rules, deck, rng: random.Random, moves: int):
    """Up to ``moves`` random legal moves from the deal, stopping before the game ends; and how many cards of the
    deal they showed (the seen cards are always the top of the deal)."""
    state, line = start_state(rules, deck), []
    while len(line) < moves and not state.over:
        action = rng.choice(legal_actions(state))
        if apply(state, action).over:
            break
        line.append(action)
        state = apply(state, action)
    return line, len(deck) - unseen_count(state)


def recommended(moves):
    """The recommended move among ``moves`` (in the engine's order) as it is defined: the highest expected score,
    then the higher chance to win, then the first."""
    return max(moves, key=lambda move: (move.expected, move.win, -moves.index(move)))


def played_into(seed: int, size: int, health: int, moves: int):
    """A deal of ``size`` cards drawn from ``seed``, with up to ``moves`` random moves played while cards are unseen:
    its rules and the state reached."""
    rng = random.Random(seed)
    rules, deck = dealt(rng, size, health)
    line, _ = line_while_unseen(rules, deck, rng, moves)
    return rules, replayed(rules, deck, line)[-1]


def replayed(rules, deck, line):
    states = [start_state(rules, deck)]
    for action in line:
        states.append(apply(states[-1], action))
    return states


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.integers(12, 20), health=st.integers(6, 20), moves=st.integers(0, 12))
def test_decks_that_agree_on_every_card_seen_get_the_same_advice(seed, size, health, moves):
    """Two decks that agree on every card seen so far and differ in the unseen order: the same hint at every
    position, the same review verdicts, and the same moves of the coach up to that point."""
    rng = random.Random(seed)
    rules, deck = dealt(rng, size, health)
    line, seen = line_while_unseen(rules, deck, rng, moves)
    other = twin(deck, seen, rng)
    coach_a, coach_b = Coach(rules, SAMPLES), Coach(rules, SAMPLES)
    for a, b in zip(replayed(rules, deck, line), replayed(rules, other, line), strict=True):
        assert coach_a.advise(a) == coach_b.advise(b)
    review_a = fair_review(rules, deck, line, start=start_state(rules, deck), coach=Coach(rules, SAMPLES))
    review_b = fair_review(rules, other, line, start=start_state(rules, other), coach=Coach(rules, SAMPLES))
    assert review_a.steps == review_b.steps and review_a.lines() == review_b.lines()
    # The coach's own play: the same moves as long as it has seen no card on which the decks differ.
    played_a = coach_play(rules, deck, SAMPLES, start=start_state(rules, deck)).moves
    played_b = coach_play(rules, other, SAMPLES, start=start_state(rules, other)).moves
    same = _moves_before_a_difference_shows(rules, deck, other, played_a)
    assert played_a[:same] == played_b[:same]


def _moves_before_a_difference_shows(rules, deck, other, line) -> int:
    """How many moves of ``line`` (from ``deck``) are made before any card on which ``other`` differs is seen."""
    differ = next((i for i, (x, y) in enumerate(zip(deck, other, strict=True)) if x != y), len(deck))
    state = start_state(rules, deck)
    for number, action in enumerate(line):
        if len(deck) - unseen_count(state) > differ:
            return number
        state = apply(state, action)
    return len(line)


def test_the_hindsight_solver_advises_differently_on_such_a_pair():
    """The reason for the fair coach: for two decks the player cannot tell apart, the solver that sees every card
    recommends different moves, while the fair coach's advice is the same for both."""
    rng = random.Random("hindsight")
    for _ in range(200):
        rules, deck = dealt(rng, rng.randint(10, 16), rng.randint(6, 20))
        other = twin(deck, 4, rng)  # only the first room seen
        a, b = start_state(rules, deck), start_state(rules, other)
        hindsight_a = Position(rules, deck).best_action(a)[0]
        hindsight_b = Position(rules, other).best_action(b)[0]
        if hindsight_a != hindsight_b:
            assert Coach(rules, SAMPLES).advise(a) == Coach(rules, SAMPLES).advise(b)
            return
    raise AssertionError("no pair of decks on which the hindsight solver's advice differs")


def test_with_few_unseen_cards_every_order_is_solved_and_the_figures_are_exact():
    """When the orders are few, the expected score and chance to win of each move are the average over every
    order of the unseen cards of the brute force's best score (every permutation, alike cards included)."""
    rng = random.Random("exact-orders")
    checked = 0
    while checked < 12:
        rules, deck = dealt(rng, rng.randint(7, 9), rng.randint(4, 20))
        state = start_state(rules, deck)
        u = unseen_count(state)
        advice = Coach(rules, SAMPLES).advise(state, judge=legal_actions(state))
        assert advice.exact == (distinct_orders(state.dungeon[:u]) <= 24)
        if not advice.exact or len(advice.moves) < 2:
            continue
        memo: dict = {}
        for move in advice.moves:
            values = [best_from(apply(state._replace(dungeon=order + state.dungeon[u:]), move.action), memo)
                      for order in permutations(state.dungeon[:u])]
            assert abs(move.expected - fmean(values)) < 1e-9
            assert abs(move.win - fmean(v > 0 for v in values)) < 1e-9
        assert advice.best.expected == max(move.expected for move in advice.moves)
        checked += 1


def test_a_review_marks_a_mistake_exactly_when_the_best_move_was_clearly_better():
    """A mistake is a move whose expected score was at least ``MISTAKE_POINTS`` below the best move's, on what the
    player could see then; it is told with that loss, rounded, and the better move."""
    rng = random.Random("fair-review")
    mistakes = fine = 0
    for _ in range(6):
        rules, deck = dealt(rng, rng.randint(10, 14), rng.randint(6, 20))
        line, _ = line_while_unseen(rules, deck, rng, 10)
        result = fair_review(rules, deck, line, start=start_state(rules, deck), coach=Coach(rules, SAMPLES))
        for state, step in zip(replayed(rules, deck, line), result.steps, strict=False):
            if step.choices == 1:
                assert not step.lost
                continue
            advice = Coach(rules, SAMPLES).advise(state, judge=(step.action,))
            loss = advice.best.expected - advice.value_of(step.action).expected
            assert bool(step.lost) == (loss >= MISTAKE_POINTS)
            if step.lost:
                assert step.lost == round(loss) and step.better == advice.best.action
                mistakes += 1
            else:
                fine += 1
        assert result.mistakes() == [n for n, step in enumerate(result.steps, 1) if step.lost]
    assert mistakes and fine
