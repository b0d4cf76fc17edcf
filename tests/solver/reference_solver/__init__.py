"""A frozen copy of the exact solver as it was before its search was rewritten for speed.

The tests compare the current solver with it on many deals, positions and rule sets: both must give the same
par and the same value at every position. Never edit these files to follow the solver; they are the yardstick.
"""

from tests.solver.reference_solver.position import Position
from tests.solver.reference_solver.solve import Solution, solve

__all__ = ["Position", "Solution", "solve"]
