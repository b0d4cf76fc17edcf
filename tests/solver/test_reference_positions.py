"""A part of the coach's reference set (``benchmarks/results/coach_reference.jsonl``, every legal move solved exactly
on 256 orders drawn apart from the coach's): the positions, among those the reference is sure of, where judging a few
orders most often advises a move more than 2 points below the best. The bot's hint must not. And moves it is sure
were mistakes that a few orders most often show as fine: the bot's review must call them mistakes."""

from __future__ import annotations

import json
import random
from pathlib import Path
from statistics import fmean

import pytest

from games.engine import PRESETS, apply, deal, decode, legal_actions, new_game
from games.engine.seeds import seed_from_bytes
from games.solver.fair import HINT_BUDGET, REVIEW_FIRST_ORDERS, REVIEW_MOVE_BUDGET, Coach
from games.solver.fair_review import MISTAKE_POINTS, is_mistake
from games.solver.racing import gap

REFERENCE = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "coach_reference.jsonl"
FAR = 2.0
FEW = 8  # orders a plain sample judges (the coach before the census)


def means(row: dict) -> list[float]:
    return [fmean(column) for column in zip(*row["values"], strict=True)]


def best_of(values: list[float]) -> int:
    """The reference's best move: the first of the highest means."""
    return max(range(len(values)), key=lambda i: (values[i], -i))


def reference_rows() -> list[dict]:
    return [json.loads(line) for line in REFERENCE.read_text().splitlines() if line.strip()]


def cost(row: dict, chosen: int) -> float:
    """Points below the reference's best, 0 where its orders cannot tell the two apart at 95 % (paired)."""
    values = means(row)
    best = best_of(values)
    if values[chosen] >= values[best]:
        return 0.0
    if gap([v[best] for v in row["values"]], [v[chosen] for v in row["values"]]).low <= 0:
        return 0.0
    return values[best] - values[chosen]


def misled_by_few(row: dict, draws: int = 50) -> float:
    """How often the best mean on ``FEW`` of the reference's orders is a move more than ``FAR`` below the best."""
    rng = random.Random(f"{row['deal']}/{row['turn']}")
    wrong = 0
    for _ in range(draws):
        picked = rng.sample(range(row["orders"]), FEW)
        sample = [fmean(row["values"][k][i] for k in picked) for i in range(len(row["actions"]))]
        wrong += cost(row, max(range(len(sample)), key=lambda i: (sample[i], -i))) > FAR
    return wrong / draws


def settled(row: dict) -> bool:
    """Whether the reference itself is sure there: every move is known to within half a point of the best, or shown
    more than ``FAR`` below it (paired 95 % intervals)."""
    columns = list(zip(*row["values"], strict=True))
    values = means(row)
    best = best_of(values)
    return all(g.margin <= 0.5 or g.low >= FAR for g in (gap(columns[best], column) for column in columns))


def hard_positions(count: int) -> list[dict]:
    cheap = sorted((row for row in reference_rows() if not row["exact"] and 10 <= row["unseen"] <= 20 and settled(row)),
                   key=lambda row: (row["deal"], row["turn"]))
    return [row for row in cheap if misled_by_few(row) >= 0.15][:count]


def state_of(row: dict):
    rules = PRESETS["classic"]
    state = new_game(rules, deck=deal(rules, seed_from_bytes(f"coach-reference/{row['deal']}".encode())))
    for action in decode(row["moves"]):
        state = apply(state, action)
    return state


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
    values = means(row)
    best = best_of(values)
    assert gap(columns[best], columns[row["actions"].index(code)]).low >= MISTAKE_POINTS  # the reference is sure
    state = state_of(row)
    action = next(action for action in legal_actions(state) if action.code == code)
    advice = Coach(state.rules).advise(state, judge=(action,), threshold=MISTAKE_POINTS, budget=REVIEW_MOVE_BUDGET,
                                       first=REVIEW_FIRST_ORDERS)
    assert is_mistake(advice, action)
