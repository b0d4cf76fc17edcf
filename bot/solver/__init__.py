"""Par: the exact best score of a Scoundrel deal whose order is known, and one line that reaches it.

Pure (no I/O); the bot runs it in a worker process (``bot/par.py``); ``python -m bot solve`` prints it.

How it stays fast without giving up exactness:
- a situation is only what decides the rest of the game (``search.py``): where the dungeon stands, the avoided
  cards queued under it, the carried card, whether the last turn was an avoid, and health, weapon value and
  the weapon's limit (the last kill; monsters above everything left make any limit equal);
- facing a room is reduced to its distinct effects (``rooms.py``): orders with the same damage, first potion,
  weapon afterwards and carried card are one plan, and plans never better for any health are dropped;
- a table remembers each situation's score or upper bound, and answers for situations it dominates (no more
  health, no better weapon, no looser limit cannot score more);
- an upper bound (health plus potions left minus the least damage the monsters left can do, where a weapon
  kills at most one monster of each value; the potion bonus only if full health is still reachable) cuts
  every choice that cannot beat the best known, and ``solve`` probes "at least t?" from the bound down.

Deaths are scored exactly too: when no clear exists, the search looks for the death that leaves the fewest
monsters behind. Rule sets with chance (shuffled avoids, expansion cards) are refused (``SolverRefused``).
Correctness is checked against an engine-only brute force (``tests/solver``); speed figures come from
``benchmarks/solver_bench.py``.
"""

from .deal import SolverRefused, refusal
from .solve import Solution, solve

__all__ = ["Solution", "SolverRefused", "refusal", "solve"]
