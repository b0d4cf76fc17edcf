"""The census: a rare loss of the leading move is found on the orders not judged whole, and the figures read from
the orders judged whole stand for the others as stratified sampling says (no solving here: made-up scores)."""

from __future__ import annotations

import random
from statistics import fmean

import pytest

from games.solver.census import Census, settle

STEADY, RISKY, POOR = 0, 1, 2


def made_up(orders: int, deaths: set[int], seed: int = 1) -> list[list[int]]:
    """Three moves' best scores on each order: a steady move winning about 18, a risky one winning about 22 but dying
    (-150) on ``deaths``, a poor one winning about 8."""
    rng = random.Random(seed)
    table = []
    for k in range(orders):
        steady = rng.randint(15, 21)
        table.append([steady, -150 if k in deaths else steady + 4, steady - 10])
    return table


def run(table: list[list[int]], first: int = 16, budget: int | None = None, widest: int = 0):
    """A hint's census over ``table`` (``widest``: the orders beyond its first 256 it may take)."""
    census = Census(3, 32)
    asked: dict[str, list] = {"whole": [], "tests": []}

    def whole(k: int, moves=None) -> list[int | None]:
        asked["whole"].append(k)
        asked.setdefault("judged", []).append((k, None if moves is None else tuple(moves)))
        return table[k] if moves is None else [v if i in moves else None for i, v in enumerate(table[k])]

    def tests(k: int, moves: list[int]) -> list[bool]:
        asked["tests"].append((k, tuple(moves)))
        return [table[k][move] > 0 for move in moves]

    for k in range(first):
        census.add_whole(k, whole(k, None))
    spent = (lambda: len(asked["whole"]) >= budget) if budget else (lambda: False)
    total = min(len(table), 256) if widest else len(table)
    leader, close = settle(census, total, 200, whole, tests, spent, None, widest=widest)
    return census, leader, close, asked


def test_a_rare_death_hidden_from_the_first_orders_is_found():
    deaths = set(range(40, 256, 18))  # 12 of 256 (4.7 %): none in the first 32
    table = made_up(256, deaths)
    assert fmean(row[RISKY] for row in table[:32]) > fmean(row[STEADY] for row in table[:32])  # looks best at first
    census, leader, close, asked = run(table)
    truth = [fmean(row[i] for row in table) for i in range(3)]
    assert truth[RISKY] < truth[STEADY] - 2 and leader == STEADY and not close
    assert census.orders == 256  # a close first look, so every order tested
    assert deaths <= set(census.exact)  # every order the risky move lost on while it led, judged whole
    expected, margin, bounded = census.figures(STEADY)
    assert abs(expected - truth[STEADY]) <= margin and not bounded
    assert census.win_share(RISKY)[0] == pytest.approx(244 / 256)  # counted on every order: the move was tested


def test_a_clear_leader_is_trusted_on_fewer_orders():
    table = [[row[STEADY], row[STEADY] - 25, row[POOR]] for row in made_up(256, deaths=set())]
    census, leader, close, asked = run(table)
    assert leader == STEADY and not close
    assert census.orders < 256 and len(asked["whole"]) == 16  # tested where a hidden loss could still matter
    assert {moves for _, moves in asked["tests"]} == {(STEADY,)}  # the rivals, far behind, are never tested


def test_without_a_census_beyond_the_orders_judged_whole_the_figures_are_the_plain_mean():
    table = made_up(32, deaths={3, 20})
    census = Census(3, 32)
    for k in range(32):
        census.add_whole(k, table[k])
    for move in range(3):
        expected, margin, bounded = census.figures(move)
        assert expected == pytest.approx(fmean(row[move] for row in table)) and not bounded
    gap = census.gap(STEADY, RISKY)
    assert gap.mean == pytest.approx(fmean(row[STEADY] - row[RISKY] for row in table))


def test_the_budget_stops_more_orders_judged_whole_but_never_the_census():
    rng = random.Random(3)  # a rival as good on average, 6 points either way on each order: close
    table = [[row[STEADY], row[STEADY] + rng.choice((-6, 6)), row[POOR]] for row in made_up(256, deaths=set())]
    census, leader, close, asked = run(table, budget=20)
    assert census.orders == 256 and len(asked["whole"]) <= 16 + 16  # one more round at most, then it answers
    assert close  # and says what may be as good


def test_orders_judged_beyond_the_first_are_judged_only_for_the_moves_still_compared():
    rng = random.Random(5)  # a rival 1 point better on average, 6 either way on each order: judged until told apart
    table = [[row[STEADY], row[STEADY] + 1 + rng.choice((-6, 6)), row[POOR]] for row in made_up(256, deaths=set())]
    census, leader, close, asked = run(table)
    later = [moves for k, moves in asked["judged"] if k >= 16]
    assert later and all(moves == (STEADY, RISKY) for moves in later)  # the poor move, dismissed, is never solved
    assert all(census.exact[k][POOR] is None for k in range(16, 256) if k in census.exact)
    assert leader == RISKY and not close
    judged = sorted(k for k in census.exact)
    assert judged == list(range(len(judged)))  # read from the first orders, in the census's order
    gap = census.gap(RISKY, STEADY)
    truth = fmean(row[RISKY] - row[STEADY] for row in table)
    assert abs(gap.mean - truth) <= gap.margin  # the pair's figures come from every order judged for both
    expected, margin, _ = census.figures(POOR)  # the dismissed move's from its first 16
    assert expected == pytest.approx(fmean(row[POOR] for row in table[:16]))


def test_a_review_judges_every_move_on_the_orders_it_judges():
    rng = random.Random(2)  # move 0 looks best on the first orders, move 1 is; the move played is about 2 below
    table = []
    for k in range(256):
        base = rng.randint(12, 20)
        table.append([base + (6 if k < 8 else -2) + rng.choice((-3, 3)), base + 1 + rng.choice((-3, 3)),
                      base - 1 + rng.choice((-6, 6))])
    census = Census(3, 32)
    for k in range(8):
        census.add_whole(k, table[k])
    calls = []

    def whole(k: int, moves=None) -> list[int | None]:
        calls.append(moves)
        return table[k] if moves is None else [v if i in moves else None for i, v in enumerate(table[k])]

    def tests(k: int, moves: list[int]) -> list[bool]:
        return [table[k][move] > 0 for move in moves]

    leader, _ = settle(census, 256, 200, whole, tests, lambda: len(calls) >= 24, None, frozenset({2}), threshold=3.0)
    assert leader == 1 and len(census.exact) > 8  # the lead changed hands while the verdict needed more orders
    # a move dismissed at first took the lead: its scores are on every order judged, as the move played's are
    assert all(None not in census.exact[k] for k in census.exact) and set(calls) == {None}


def test_a_move_dismissed_on_the_deaths_of_the_first_orders_is_counted_on_the_census():
    rng = random.Random(6)  # the bold move wins about 6 more than the steady one, and dies on 4 orders: the first 16's
    table = []
    for k in range(256):
        steady = rng.randint(15, 21)
        table.append([steady, -150 if k in {1, 6, 9, 14} else steady + 6 + rng.randint(-4, 4), steady - 10])
    truth = [fmean(row[i] for row in table) for i in range(3)]
    assert truth[RISKY] > truth[STEADY] + 2  # four deaths in 256 orders: the bold move is the best by far
    census = Census(3, 32)
    for k in range(16):
        census.add_whole(k, table[k])
    assert census.gap(STEADY, RISKY).low > -0.5  # on the first 16 it looks far worse, at 95 %
    census, leader, close, asked = run(table)
    assert RISKY in census.tested and census.win_share(RISKY)[0] == pytest.approx(252 / 256)
    assert leader == RISKY


def test_a_hint_takes_more_orders_while_a_death_seen_once_could_hide_more_than_two_points():
    rng = random.Random(4)
    deaths = {100} | set(range(260, 1024, 32))  # once in the first 256 orders, then 24 times in 768 (2.4 % in all)
    table = []
    for k in range(1024):
        steady = rng.randint(15, 21)
        table.append([steady, -150 if k in deaths else steady + rng.choice((1, 2)), steady - 10])
    truth = [fmean(row[i] for row in table) for i in range(3)]
    assert truth[RISKY] < truth[STEADY] - 2  # more than 2 points below over every order
    assert fmean(row[RISKY] for row in table[:256]) > fmean(row[STEADY] for row in table[:256])  # not on the first
    census, leader, _, _ = run(table[:256])
    assert leader == RISKY and census.orders == 256  # what 256 orders show
    census, leader, _, asked = run(table, widest=1024)
    assert leader == STEADY and census.orders > 256
    assert {k for k in deaths if k < census.orders} <= set(census.exact)  # every death met, judged whole


def test_a_hint_takes_no_more_orders_where_no_move_in_question_dies():
    rng = random.Random(5)  # a rival as good on average, 6 points either way: close, but no death to miss
    table = [[row[STEADY], row[STEADY] + rng.choice((-6, 6)), row[POOR]] for row in made_up(1024, deaths=set())]
    census, _, _, _ = run(table, widest=1024)
    assert census.orders == 256
