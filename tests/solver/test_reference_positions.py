"""A part of the coach's reference set (``benchmarks/results/coach_reference.jsonl``, every legal move solved exactly
on 256 orders drawn apart from the coach's): the positions, among those the reference is sure of, where judging a few
orders most often advises a move more than 2 points below the best. The bot's hint must not. And moves it is sure
were mistakes that a few orders most often show as fine: the bot's review must call them mistakes."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from statistics import fmean

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from coach_quality import cost, reference  # noqa: E402  # the reference's best move, and what another costs
from coach_reference import load, state_of  # noqa: E402

from games.engine import legal_actions  # noqa: E402
from games.solver.fair import HINT_BUDGET, REVIEW_FIRST_ORDERS, REVIEW_MOVE_BUDGET, Coach  # noqa: E402
from games.solver.fair_review import MISTAKE_POINTS, is_mistake  # noqa: E402
from games.solver.racing import gap  # noqa: E402

FAR = 2.0
FEW = 8  # orders a plain sample judges (the coach before the census)


def best_of(values: list[float]) -> int:
    """The move with the best mean: the first of the highest."""
    return max(range(len(values)), key=lambda i: (values[i], -i))


def reference_rows() -> list[dict]:
    return list(load().values())


def misled_by_few(row: dict, draws: int = 50) -> float:
    """How often the best mean on ``FEW`` of the reference's orders is a move more than ``FAR`` below the best."""
    rng = random.Random(f"{row['deal']}/{row['turn']}")
    wrong = 0
    for _ in range(draws):
        picked = rng.sample(range(row["orders"]), FEW)
        sample = [fmean(row["values"][k][i] for k in picked) for i in range(len(row["actions"]))]
        wrong += cost(row, best_of(sample)) > FAR
    return wrong / draws


def settled(row: dict) -> bool:
    """Whether the reference itself is sure there: every move is known to within half a point of the best, or shown
    more than ``FAR`` below it (paired 95 % intervals)."""
    columns = list(zip(*row["values"], strict=True))
    _, best = reference(row)
    return all(g.margin <= 0.5 or g.low >= FAR for g in (gap(columns[best], column) for column in columns))


def hard_positions(count: int) -> list[dict]:
    cheap = sorted((row for row in reference_rows() if not row["exact"] and 10 <= row["unseen"] <= 20 and settled(row)),
                   key=lambda row: (row["deal"], row["turn"]))
    return [row for row in cheap if misled_by_few(row) >= 0.15][:count]


@pytest.mark.parametrize("row", hard_positions(5), ids=lambda row: f"deal{row['deal']}-room{row['turn']}")
def test_the_hint_is_never_far_below_the_best_where_few_orders_mislead(row):
    state = state_of(row)
    assert [action.code for action in legal_actions(state)] == row["actions"]  # the reference's position, rebuilt
    advice = Coach(state.rules).advise(state, budget=HINT_BUDGET)
    assert cost(row, row["actions"].index(advice.best.action.code)) <= FAR


# Moves the reference is sure gave away more than the review's threshold (a death on some orders), that a review
# judging 8 orders, then twice as many within its budget, called fine (``benchmarks/review_quality.py``).
HIDDEN_MISTAKES = [(9, 7, "A"), (16, 6, "T1"), (24, 6, "A")]


def reference_row(deal_number: int, room: int) -> dict:
    return next(row for row in reference_rows() if (row["deal"], row["turn"]) == (deal_number, room))


@pytest.mark.parametrize("deal_number,room,code", HIDDEN_MISTAKES)
def test_the_review_calls_a_move_that_dies_on_few_orders_a_mistake(deal_number, room, code):
    row = reference_row(deal_number, room)
    columns = list(zip(*row["values"], strict=True))
    _, best = reference(row)
    assert gap(columns[best], columns[row["actions"].index(code)]).low >= MISTAKE_POINTS  # the reference is sure
    state = state_of(row)
    action = next(action for action in legal_actions(state) if action.code == code)
    advice = Coach(state.rules).advise(state, judge=(action,), threshold=MISTAKE_POINTS, budget=REVIEW_MOVE_BUDGET,
                                       first=REVIEW_FIRST_ORDERS)
    assert is_mistake(advice, action)
