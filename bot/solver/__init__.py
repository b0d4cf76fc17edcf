"""Par: the exact best score of a Scoundrel deal whose order is known, and one line that reaches it.

Pure (no I/O); the bot runs it in a worker process (``bot/par.py``). See ``search.py`` for how it works.
"""

from .deal import SolverRefused, refusal
from .solve import Solution, solve

__all__ = ["Solution", "SolverRefused", "refusal", "solve"]
