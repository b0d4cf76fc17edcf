"""The coach judges as many orders as it takes to be sure, says how sure it is, and keeps one order's search at a
time: checked against every order solved exactly, on small deals where that is tractable."""

from __future__ import annotations

import random
from statistics import fmean

import pytest

from games.engine import PRESETS, apply, legal_actions
from games.solver import fair, orders
from games.solver.fair import Coach, _all_orders, distinct_orders, unseen_count, visible
from games.solver.hint_words import hint_phrase
from games.solver.position import Position
from games.solver.racing import CLOSE, dismissed, gap, verdict, win_interval
from tests.solver.brute_force import start_state

CLASSIC = PRESETS["classic"]


def exact_means(state) -> dict:
    """Each move's mean best score over every distinct order of the unseen cards (each as likely as another)."""
    seen = visible(state)
    u = unseen_count(seen)
    unseen, known = seen.dungeon[:u], seen.dungeon[u:]
    room = tuple(card for card in seen.room if card is not None)
    values: dict = {action: [] for action in legal_actions(seen)}
    for order in _all_orders(unseen):
        position = Position(state.rules, room + order + known)
        here = seen._replace(dungeon=order + known)
        for action in values:
            values[action].append(position.value(apply(here, action)))
    return {action: fmean(found) for action, found in values.items()}


def sampled_positions(count: int, seed: str):
    """Room-first positions of small deals whose unseen cards have more orders than the coach solves in full, and
    few enough to solve them all here."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        rules = CLASSIC.with_health(rng.randint(8, 16))
        deck = tuple(rng.sample(rules.full_deck(), 9))
        state = start_state(rules, deck)
        if 24 < distinct_orders(state.dungeon[:unseen_count(state)]) and len(legal_actions(state)) > 2:
            found.append(state)
    return found


def test_the_intervals_are_the_textbook_ones():
    assert win_interval(8, 8)[0] == pytest.approx(0.6756, abs=1e-4)  # 8 wins of 8 is not "100 %"
    assert win_interval(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)
    same = gap([5, -30, 12], [5, -30, 12])
    assert (same.mean, same.margin) == (0, 0) and dismissed(same)
    wide = gap([30, -150, 30, 30], [30, 30, -150, 30])
    assert wide.mean == 0 and wide.margin > 100 and not dismissed(gap([0] * 4, [1, 2, 1, 2]))
    assert verdict(gap([10] * 5, [0] * 5), 3.0) is True and verdict(gap([1] * 5, [0] * 5), 3.0) is False
    assert verdict(wide, 3.0) is None


def test_judged_until_sure_the_advice_is_the_best_move_on_every_order():
    for state in sampled_positions(4, "sure"):
        coach = Coach(state.rules)
        advice = coach.advise(state)
        means = exact_means(state)
        best = max(means.values())
        assert means[advice.best.action] >= best - CLOSE - 1e-9, (advice, means)  # never worse than half a point
        assert len(coach._positions) <= fair.KEPT_ORDERS  # the last orders' searches kept for the line's next move
        assert not advice.exact and advice.orders >= 16
        # the expected score shown lies within its interval of the truth
        assert abs(advice.best.expected - means[advice.best.action]) <= advice.best.margin + 1e-9


def test_the_figures_say_how_sure_they_are_and_a_budget_gives_the_same_advice_every_time(monkeypatch):
    state = sampled_positions(1, "figures")[0]
    small = Coach(state.rules).advise(state, budget=1, first=2)  # the fewest orders judged whole: two
    assert not small.exact and small.best.margin > 0
    assert small.best.win_low is not None and small.best.win_high is not None  # an interval, never a bare "100 %"
    again = Coach(state.rules).advise(state, budget=1, first=2)
    assert again == small  # a budget of work, not of time: the same position, the same answer
    assert "about" in hint_phrase(state, small)
    sure = Coach(state.rules).advise(state)
    assert sure.sure or sure.orders >= fair.MAX_ORDERS  # not sure only on the whole census (wider: up to 1,024)
    assert sure.best.margin <= small.best.margin  # more orders judged whole, a narrower interval
    monkeypatch.setattr(orders, "EXACT_ORDERS", 10**6)
    exact = Coach(state.rules).advise(state)  # every order: exact figures, plain words
    assert exact.exact and "about" not in hint_phrase(state, exact) and " and " not in hint_phrase(state, exact)
    means = exact_means(state)
    assert exact.best.expected == pytest.approx(max(means.values()))


def test_decks_that_agree_on_what_was_seen_get_the_same_sure_advice():
    state = sampled_positions(1, "twins")[0]
    rng = random.Random(7)
    u = unseen_count(state)
    rest = list(state.dungeon[:u])
    rng.shuffle(rest)
    twin = state._replace(dungeon=tuple(rest) + state.dungeon[u:])
    assert twin.dungeon != state.dungeon
    assert Coach(state.rules).advise(state, budget=5_000) == Coach(state.rules).advise(twin, budget=5_000)
