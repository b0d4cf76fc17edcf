"""How sure the coach is: moves compared on the same orders, with a confidence interval on each difference.

Each order the coach judges gives every move a best score with that order known, exact (``lo == hi``) or only
bounded above (a move shown to be worse on that order without its exact score). Two moves are compared by their
paired differences over the same orders: the orders are drawn at random, so the mean difference has a normal 95 %
interval (``Z`` standard errors). The leader is the move with the highest mean; a rival is *dismissed* once the
interval shows, at 95 %, that it is at most ``CLOSE`` points better than the leader (its upper bounds are used, so
a dismissal is never optimistic). While a rival stands, the coach judges more orders (``fair.Coach``), up to its
limit: what the player reads then says how sure the coach is.

A review asks another question of one move: did it give away at least ``threshold`` points? ``verdict`` answers
yes or no once the interval lies on one side of the threshold, else None (judge more orders).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

Z = 1.96  # a normal 95 % interval
CLOSE = 0.5  # expected points within which two moves count as equally good


class Gap(NamedTuple):
    mean: float  # the leader's mean minus the move's, over the same orders (a lower bound where bounded)
    margin: float  # half the 95 % interval of that mean

    @property
    def low(self) -> float:
        return self.mean - self.margin

    @property
    def high(self) -> float:
        return self.mean + self.margin


def mean_and_margin(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and half its 95 % interval (0 for fewer than two values or no spread)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z * math.sqrt(variance / n)


def gap(leader: Sequence[int], rival: Sequence[int]) -> Gap:
    """The leader's exact scores against a rival's (upper bounds where not exact), order by order."""
    return Gap(*mean_and_margin([a - b for a, b in zip(leader, rival, strict=True)]))


def dismissed(g: Gap) -> bool:
    """The rival is, at 95 %, at most ``CLOSE`` points better than the leader."""
    return g.low >= -CLOSE


def verdict(g: Gap, threshold: float) -> bool | None:
    """Did the move give away at least ``threshold`` points? None while the interval straddles it."""
    if g.low >= threshold:
        return True
    if g.high < threshold:
        return False
    return None


def win_interval(wins: int, n: int) -> tuple[float, float]:
    """Wilson's 95 % interval of a share of ``wins`` in ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    z2 = Z * Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)
