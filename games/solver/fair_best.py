"""Which move is best over the orders the player could be in, with as few searches as that takes.

The fair coach's answer is the move with the highest total over the orders of its best score after the move (ties:
the higher number of orders still won, then the first in the engine's order). That needs the exact score of the best
move on every order, but of another move only enough to show it loses: an upper bound on each order whose total is
below the best's. So every (move, order) pair is a ``Cell`` holding what is proven of its score, ``lo..hi``, narrowed
one "at least t?" test at a time exactly as ``search.narrow`` would choose them; and the move with the highest total
of upper bounds is the one refined next, until it is exact and no other move can still win the tie-break against it:
its total of upper bounds is below, or equal with fewer orders whose upper bound is a win, or as many and a later
place in the engine's order (otherwise it is refined until it cannot, or is exact too). A move the position's own search
already proved to reach the position's value is exact at once. The answer and its figures are the same as judging
every move exactly on every order: only the tests that could not change it are left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import State
from games.solver.position import Position
from games.solver.search import LOST


class Cell:
    """What is proven so far of one move's best score on one order (``state``: the position after the move)."""

    __slots__ = ("position", "state", "lo", "hi", "step", "slow")

    def __init__(self, position: Position, state: State, top: int | None) -> None:
        self.position, self.state, self.step, self.slow = position, state, 1, False
        known = position.known(state)
        if known is not None:
            self.lo = self.hi = known
            return
        self.lo, self.hi = LOST, position.ceiling(state)
        if top is not None and top < self.hi:
            self.hi = top  # no move scores more than the position before it
        if top is not None and self.hi == top and position.proven(state, top):
            # The position's own search already went through this move to its value: exact, with no search.
            self.lo = top
            position.remember(state, top)

    @property
    def exact(self) -> bool:
        return self.lo >= self.hi

    def refine(self) -> None:
        """One more test, the one ``search.narrow`` would make next: at the top while failed tests say much less
        than asked; down twice as far each time while they only say "not t"; halving once one passed."""
        if self.lo > LOST:
            t = (self.lo + self.hi + 1) // 2
        elif not self.slow:
            t, self.step = self.hi, 1
        else:
            t, self.step = self.hi - self.step, self.step * 2
        found = self.position.bound(self.state, t)
        if found >= t:
            self.lo = found
        else:
            self.hi, self.slow = found, found >= t - 1
        if self.lo >= self.hi:
            self.lo = self.hi
            self.position.remember(self.state, self.hi)

    def settle(self) -> int:
        while not self.exact:
            self.refine()
        return self.hi


def best_move(cells: Sequence[Sequence[Cell]]) -> int:
    """The index of the best move (``cells[move][order]``), every cell of it settled on return."""

    def total(i: int) -> int:
        return sum(cell.hi for cell in cells[i])

    def settled(i: int) -> bool:
        return all(cell.exact for cell in cells[i])

    def wins(i: int) -> int:
        return sum(cell.hi > 0 for cell in cells[i])

    def refine(i: int) -> None:
        next(cell for cell in cells[i] if not cell.exact).refine()

    def could_beat(i: int, leader: int) -> bool:
        # Upper bounds of a move's total and of its orders won (a score above 0 needs an upper bound above 0):
        # a move that cannot reach the settled leader's (total, orders won, earlier in the engine's order) never
        # wins the tie-break below, however far it is refined.
        return (total(i), wins(i), -i) > (total(leader), wins(leader), -leader)

    moves = range(len(cells))
    while True:
        # The most promising move: the highest total of upper bounds (settled first on a tie, then the first).
        leader = max(moves, key=lambda i: (total(i), settled(i), -i))
        if not settled(leader):
            refine(leader)
            continue
        # Every other move that could still match it is refined until it cannot, or is settled.
        rival = next((i for i in moves if i != leader and not settled(i) and could_beat(i, leader)), None)
        if rival is None:
            break
        refine(rival)
    tied = [i for i in moves if settled(i) and total(i) == total(leader)]
    return max(tied, key=lambda i: (total(i), wins(i), -i))
