"""Par: the exact best score of a Scoundrel deal whose order is known, and one line that reaches it.

Pure (no I/O); the bot runs it in a worker process (``app/solver/worker.py``); ``python -m bot solve`` prints it.

How it stays fast without giving up exactness:
- a situation is only what decides the rest of the game (``search.py``): where the dungeon stands, the avoided
  cards queued under it, the carried card, whether the last turn was an avoid, and health, weapon value and
  the weapon's limit (the last kill; monsters above everything left make any limit equal); a turn is what the
  fill leaves (the room in order and the dungeon after), and cards of the same kind and value are
  interchangeable, so situations that fill alike, or differ only in which of those cards lies where, are one;
- facing a room is reduced to its distinct effects (``rooms.py``): orders with the same damage, first potion,
  weapon afterwards and carried card are one plan, and plans never better for any health are dropped; from a
  given health only the best plan of those leading to the same situation is searched;
- the search answers "can this situation score at least t?" (a null-window test, fail-soft): first at the upper
  bound, then going down twice as far each time the answer is only "not t", and halving the range once a line
  is found (``narrow``), so a score far below the bound costs a few tests, not one a point;
- a table remembers, per situation, a score some line reaches and a score none beats, and answers for
  situations it dominates (no more health, no better weapon, no looser limit cannot score more);
- an upper bound (health plus potions left minus the least damage the monsters left can do, where a weapon
  kills at most one monster of each value; the potion bonus only if full health is still reachable) cuts every
  choice that cannot reach t; when no clear is possible, a bound on the best death (a knapsack of the monsters
  the remaining health and potions could resolve) does the same for deaths;
- the optimal line, and a hint's move, are read from the table: a test that passed went through a choice the
  table now proves, so walking down the line looks that up before searching any choice (``Search.proven``).

The fair coach (``fair.py``) builds on this without ever seeing the face-down order: a move is judged by its
average, over orders of the unseen cards (every order when they are few, else a sample seeded from what is visible),
of the exact best score after it with that order known (perfect-information Monte Carlo). Hint, the review's
verdicts (``fair_review.py``) and the coach's own play (``coach_play``) use it; par and its line stay hindsight.

Deaths are scored exactly too: when no clear exists, the search looks for the death that leaves the fewest
monsters behind. Rule sets with chance (shuffled avoids, expansion cards) are refused (``SolverRefused``).
Correctness is checked against an engine-only brute force (``tests/solver``); speed figures come from
``benchmarks/solver_bench.py``.

Speed: ``search`` and ``rooms`` are compiled with Cython at install (``setup.py``) when a C compiler is present;
``native.py`` loads those builds only while they match their sources, and the ``.py`` files otherwise.
"""

# Imports inside this package are relative: the tests load it a second time, as pure Python, under another name.
from . import native

native.load()  # before anything imports search or rooms: their compiled builds if current, else the .py files

from .deal import SolverRefused, refusal  # noqa: E402
from .explain import MOVE_MARKS, line_text, short_line  # noqa: E402
from .fair import (  # noqa: E402
    FIRST_ORDERS,
    HINT_BUDGET,
    MAX_ORDERS,
    REVIEW_MOVE_BUDGET,
    Coach,
    coach_play,
    every_order,
)
from .fair_review import fair_review  # noqa: E402
from .hint_words import hint_phrase  # noqa: E402
from .native import compiled  # noqa: E402
from .review import move_words  # noqa: E402
from .solve import Solution, solve  # noqa: E402

__all__ = [
    "Solution", "SolverRefused", "compiled", "refusal", "solve", "MOVE_MARKS", "line_text", "short_line", "Coach",
    "coach_play", "fair_review", "move_words", "FIRST_ORDERS", "HINT_BUDGET", "MAX_ORDERS", "REVIEW_MOVE_BUDGET",
    "every_order", "hint_phrase",
]
