"""The solver against an independent brute force on hundreds of small deals, under every solvable rule set."""

from __future__ import annotations

import random

import pytest

from games.engine import PRESETS
from games.solver import solve
from tests.solver.brute_force import best_score, play

SOLVABLE = ["classic", "lenient", "early-win", "rules-sheet", "full-deck"]
DEALS_PER_PRESET = 45


def small_deals(preset_name: str, count: int):
    """Random small deals (4-9 cards) with random start and max health, so wins and deaths both occur."""
    rng = random.Random(f"solver-agreement-{preset_name}")
    base = PRESETS[preset_name]
    for _ in range(count):
        start = rng.randint(1, 20)
        rules = base.with_health(start, rng.choice([start, 20]))
        yield rules, tuple(rng.sample(rules.full_deck(), rng.randint(4, 9)))


@pytest.mark.parametrize("preset_name", SOLVABLE)
def test_par_equals_brute_force_and_its_line_reaches_it(preset_name):
    outcomes = set()
    for rules, deck in small_deals(preset_name, DEALS_PER_PRESET):
        solution = solve(rules, deck)
        expected = best_score(rules, deck)
        codes = " ".join(c.code for c in deck)
        assert solution.best_score == expected, f"{rules.key} {codes}"
        finished = play(rules, deck, solution.actions)
        assert finished.over and finished.score == expected, f"{rules.key} {codes}"
        outcomes.add(expected > 0)
    assert outcomes == {True, False}  # the sample holds both winnable and unwinnable deals
