"""The census: whether each move still wins, on many orders, so that a rare death cannot hide from a hint.

On a few orders, a move that dies on three orders in a hundred usually shows no death at all and looks sure; a
death scores down to -180 beside wins near 20, so that is how a sampled coach advises a fatal move. Whether a move
still wins on an order is one "at least 1?" test of the exact search, about a tenth of the cost of its exact score,
so a hint asks it of every move on every one of its orders (``census``), after judging the first of them whole. Then:

- every order on which the leader loses is judged whole (``Coach._row``): those orders decide the most, and they are
  rare for a good move;
- an order on which every move compared wins, or the leader wins and the rival loses, counts at the mean the orders
  judged whole give that kind of order (stratified sampling: each kind weighted by its share of the census, the
  orders judged whole being the first ones, a random sample of every kind);
- while a rival may still be more than half a point better (at 95 %), more orders are judged, in the census's
  order, twice as many each time, within the budget: a hint judges them only for the leader and the moves that still
  stand against it (a move already dismissed costs as much to solve as one still in question, and its figures
  change nothing); a review, every move.

So the figures are as sure as if every move were solved on every order of the census, at a fraction of the cost.

"Never more than 2 points below the best" must hold in every one of hundreds of positions, so a hint asks it at
99.9 % (``Z_FAR``), where half a point is asked at 95 %. What 95 % lets through are deaths counted on few orders:

- a move that died on a few of the first orders judged whole is dismissed as if those orders were many: it is
  tested on the census unless they show it more than 2 points below (``died_in_sample``);
- on 256 orders, a move that dies on three in a hundred can show one death where eight are to be expected. Where a
  move may still be more than 2 points better than the leader at 99.9 % because the two part on a few deaths, and
  more orders would tell more than more orders judged whole (``Estimate``: the census's draw against its reading),
  the census takes 256 orders more, tested for the moves still in question only (``far_rivals``).

A review asks of the move played whether it gave away the mistake threshold: the same census, the move played tested
on every order from the start and the orders it loses judged whole, whatever the budget, until the verdict is sure.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

from games.engine import Action, State, apply
from games.solver.racing import Gap, Z, dismissed, verdict, win_interval

Z_FAR = 3.29  # a 99.9 % interval: how sure "never FAR below the best" must be, to hold in each of hundreds of positions

FAR = 2.0  # points a hint may never be below the best (a loss the census has not met included)
FIRST_CENSUS = 32  # orders the census starts with (twice as many each time it must grow)
WIDER_STEP = 256  # orders a hint's census takes at a time beyond its usual size (``far_rivals``)
PRIOR_SPREAD = 2  # points a won game's score moves from one order to another, before any is seen
SPREAD = 29  # scores of a won game lie within 1..30: two moves' difference where both win within +-29
# A census of n orders with no loss leaves at most about 3/n unseen (95 %): with a death costing up to 150 points
# against a win, 256 orders keep what can hide under 2 points (the reference set judges a move on as many).


class Census:
    """What is known of the moves on every order: the exact scores of the orders judged (``exact``: every move's on
    the first orders and on every order on which a leader lost; later orders only for the moves still compared, None
    for the others), and for the moves tested (``tested``), whether they win on every order. Every order not judged
    whole is one on which every leader so far wins."""

    def __init__(self, moves: int, orders: int) -> None:
        self.moves, self.orders = moves, orders
        self.wins: list[list[bool | None]] = [[None] * moves for _ in range(orders)]
        self.exact: dict[int, list[int | None]] = {}
        self.tested: set[int] = set()
        self.leaders: set[int] = set()
        self.reported = 0  # the most orders reported to ``progress``

    def grow(self, orders: int) -> None:
        """Take the next orders into the census (nothing known of them yet)."""
        self.wins += [[None] * self.moves for _ in range(orders - self.orders)]
        self.orders = orders

    def add_whole(self, k: int, values: Sequence[int | None]) -> None:
        """Order ``k``'s exact scores (None: a move not judged on it)."""
        row = self.exact.setdefault(k, [None] * self.moves)
        for move, value in enumerate(values):
            if value is not None:
                row[move] = value
                self.wins[k][move] = value > 0

    def judged(self, k: int, moves: Sequence[int]) -> bool:
        row = self.exact.get(k)
        return row is not None and all(row[move] is not None for move in moves)

    def prefix(self, moves: Sequence[int]) -> int:
        """How many of the first orders have ``moves`` all judged: the sample every kind of order is read from."""
        k = 0
        while k < self.orders and self.judged(k, moves):
            k += 1
        return k

    def untested(self, move: int) -> list[int]:
        return [k for k in range(self.orders) if self.wins[k][move] is None]

    def losses_unjudged(self, move: int, moves: Sequence[int] | None = None) -> list[int]:
        """The orders ``move`` loses on which ``moves`` (None: every move) are not all judged."""
        wanted = range(self.moves) if moves is None else moves
        return [k for k in range(self.orders) if self.wins[k][move] is False and not self.judged(k, wanted)]

    def next_whole(self, count: int, moves: Sequence[int]) -> list[int]:
        """The next ``count`` orders on which ``moves`` are not all judged, in the census's order."""
        return [k for k in range(self.prefix(moves), self.orders) if not self.judged(k, moves)][:count]

    def _kind(self, k: int, move: int) -> bool | None:
        """How an order is read for ``move``: None, an order on which a leader loses (every such order is judged
        whole, so it never stands for another); else whether the move wins (True for all, when it is not tested)."""
        row = self.wins[k]
        if not all(row[leader] for leader in self.leaders):
            return None
        return bool(row[move]) if move in self.tested else True

    def figures(self, move: int) -> tuple[float, float, bool]:
        """The move's expected score, half its 95 % interval, and whether it is an upper bound (losses counted at 0
        where the sample shows too few of them)."""
        return _stratified(self, (move,), lambda k: self.exact[k][move], lambda k: self._kind(k, move),
                           {False: 0.0})[:3]

    def win_share(self, move: int) -> tuple[float, float, float]:
        """The move's chance to win and its 95 % interval: counted where the move is tested, else read as its
        expected score is."""
        if move in self.tested:
            won = sum(bool(row[move]) for row in self.wins)
            return (won / self.orders, *win_interval(won, self.orders))
        share, margin, *_ = _stratified(self, (move,), lambda k: float(self.exact[k][move] > 0),  # type: ignore[operator]
                                        lambda k: self._kind(k, move), {})
        return share, max(0.0, share - margin), min(1.0, share + margin)

    def gap(self, leader: int, rival: int, loss: float = 1.0) -> Gap:
        """The leader's expected score minus the rival's, with its 95 % interval. Every order the leader loses is
        judged whole; the others are read by kind: both win, or only the leader (when the rival is tested).
        ``loss``: what an order in which only the leader wins counts, while too few of them are judged whole to read
        it from them: at least 1 (the leader wins, the rival scores at most 0), at most a loss's whole swing."""
        estimate = self.estimate(leader, rival, loss)
        return Gap(estimate.mean, estimate.margin)

    def estimate(self, leader: int, rival: int, loss: float = 1.0) -> Estimate:
        """``gap``, with the two parts of its interval apart."""
        return _stratified(self, (leader, rival),
                           lambda k: self.exact[k][leader] - self.exact[k][rival],  # type: ignore[operator]
                           lambda k: self._kind(k, rival), {False: loss})

    def gap_between(self, leader: int, rival: int, swing: int) -> Gap:
        """``gap``, its interval widened to hold both readings of the orders only the leader wins that too few
        orders judged whole tell apart: 1 point each, or ``swing`` (what a loss may cost against a win)."""
        low, high = self.gap(leader, rival).low, self.gap(leader, rival, float(swing)).high
        return Gap((low + high) / 2, (high - low) / 2)

    def won(self, move: int) -> float:
        return self.win_share(move)[0]


class Estimate(NamedTuple):
    mean: float
    margin: float  # half the 95 % interval of ``mean``: of both parts below together
    bounded: bool  # an upper bound: losses counted at the floor where the sample shows too few of them
    drawn: float  # ... of what the census's orders are (narrowed only by more orders in the census)
    read: float  # ... of reading the orders not judged whole from those that are (narrowed by judging more)


def _stratified(census: Census, moves: Sequence[int], value: Callable[[int], float | None],
                kind: Callable[[int], bool | None], floor: dict[bool, float]) -> Estimate:
    """The mean of ``value`` (of ``moves``' scores) over every order of the census, an order on which they are not
    judged counted at the mean of the sample's orders of its ``kind`` (or at ``floor`` when the sample has too few),
    and half its 95 % interval: the spread of the orders, plus what reading a kind from its sample leaves unknown."""
    n = census.orders
    prefix = census.prefix(moves)
    judged = {k for k in census.exact if census.judged(k, moves)}
    known: list[float] = [value(k) for k in judged]  # type: ignore[misc]  # judged: a value
    sample: dict[bool, list[float]] = {True: [], False: []}
    for k in range(prefix):
        key = kind(k)
        if key is not None:
            sample[key].append(value(k))  # type: ignore[arg-type]
    # An order a move loses is judged in the census's order, so those judged are a random sample of them too.
    sample[False] += [value(k) for k in judged if k >= prefix and kind(k) is False]  # type: ignore[misc]
    unjudged = {True: 0, False: 0}
    for k in range(n):
        if k not in judged:
            unjudged[kind(k)] += 1  # type: ignore[index]  # an order a leader loses is judged whole: it has a kind
    means, variances, bounded = {}, {}, False
    for key, values in sample.items():
        if len(values) >= 2:
            m = sum(values) / len(values)
            # one more order, as if it strayed by PRIOR_SPREAD: a few orders alike do not show that all others are
            variances[key] = (sum((v - m) ** 2 for v in values) + PRIOR_SPREAD ** 2) / len(values)
            means[key] = m
        elif unjudged[key] and key in floor:
            means[key], variances[key], bounded = floor[key], 0.0, True
        else:  # too small a sample to read the kind from: as wide as a won game's scores allow
            means[key] = sum(values) / len(values) if values else 0.0
            variances[key] = float(SPREAD * SPREAD)
    total = sum(known) + sum(unjudged[key] * means[key] for key in unjudged)
    mean = total / n
    spread = sum((v - mean) ** 2 for v in known)
    spread += sum(unjudged[key] * (variances[key] + (means[key] - mean) ** 2) for key in unjudged)
    drawn = spread / max(1, n - 1) / n
    read = sum((count / n) ** 2 * variances[key] / len(sample[key])
               for key, count in unjudged.items() if count and len(sample[key]) >= 2)
    return Estimate(mean, Z * math.sqrt(drawn + read), bounded, Z * math.sqrt(drawn), Z * math.sqrt(read))


def win_tests(position, here: State, actions: Sequence[Action]) -> list[bool]:
    """Whether each of ``actions`` still wins on the order of ``position`` (``here``: the state on that order)."""
    return [position.bound(apply(here, action), 1) >= 1 for action in actions]


def leader_of(census: Census) -> int:
    """The move with the highest expected score (then the higher chance to win, then the first)."""
    return max(range(census.moves), key=lambda i: (census.figures(i)[0], census.won(i), -i))


def rivals(census: Census, leader: int) -> set[int]:
    """The moves the census cannot yet show to be at most half a point better than the leader (95 %)."""
    return {i for i in range(census.moves) if i != leader and not dismissed(census.gap(leader, i))}


def settle(census: Census, total: int, swing: int, whole: Callable[[int, Sequence[int] | None], list[int | None]],
           tests: Callable[[int, list[int]], list[bool]], spent: Callable[[], bool],
           progress: Callable[[int], None] | None, asked: frozenset[int] = frozenset(),
           threshold: float | None = None, widest: int = 0,
           far_spent: Callable[[], bool] = lambda: False) -> tuple[int, set[int]]:
    """Judge until sure, or the budget is spent: test the leader on every order of the census (``tests``: whether
    each of the moves given wins on order k) and judge whole (``whole``: the exact scores on order k of the moves
    given, None: of every move) every order it loses; test each rival that stands; take more orders into the census,
    up to ``total``, until a loss the census has not met could not cost more than ``FAR`` points (``trusted``); then
    judge more orders while a rival stands (a hint: only the leader's and the rivals' scores; a review: every move's).
    Then, up to ``widest`` orders (a hint's), 256 more at a time while a move may yet be more than ``FAR`` better
    (``far_rivals``), until ``far_spent``. The leader, and the rivals standing.

    With a ``threshold`` (a review), the question is rather whether each move ``asked`` gave away that many points
    against the leader (``racing.verdict``): those moves are tested from the start, and judged while it is open."""
    census.tested.update(asked)
    while True:
        missing = [move for move in sorted(census.tested) if census.untested(move)]
        if missing:
            _test(census, missing, tests, progress)
        for move in census.leaders:
            for k in census.losses_unjudged(move):
                census.add_whole(k, whole(k, None))
        leader = leader_of(census)
        if leader not in census.leaders:
            census.leaders.add(leader)
            census.tested.add(leader)
            continue  # tested, and its losses judged whole: they may change which move leads
        close = rivals(census, leader)
        open_ = close if threshold is None else undecided(census, leader, asked, threshold, swing)
        if threshold is None and census.orders <= total:  # a hint: a move dismissed on a few deaths is tested
            open_ |= died_in_sample(census, leader)
        if open_ - census.tested:
            census.tested.update(open_)
            continue
        if census.orders < total and (open_ or not trusted(census, leader, swing)):
            census.grow(min(total, 2 * census.orders))  # whatever the budget: a hidden loss is the costliest error
            continue
        # a hint judges only the moves still in question; a review every move (a move dismissed may yet take the
        # lead, and a review's small budget would stop before the new leader's scores were filled in)
        compared = sorted(open_ | {leader})
        judged = compared if threshold is None else None
        losses = sorted({k for move in open_ for k in census.losses_unjudged(move, compared)})
        # a review judges the losses of a move it cannot give a verdict on whatever the budget: a verdict read from
        # a guess at what they cost would call a move that dies often fine
        prefix = census.prefix(compared)
        if not open_ or prefix == census.orders or (spent() and (threshold is None or not losses)):
            far = far_rivals(census, leader) if census.orders < widest and not far_spent() else set()
            if not far:
                return leader, close
            # a hint's census takes more orders: tested on them, only the moves still in question (the others are
            # read from the orders judged whole, as a move never tested is)
            keep = {leader} | close | far
            census.leaders &= keep
            census.tested &= keep
            census.grow(min(widest, census.orders + WIDER_STEP))
            continue
        if losses:  # the orders a rival loses and the leader wins decide the most: judged first
            for k in losses[:4] if threshold is not None else losses:  # a review: a few, then a look
                census.add_whole(k, whole(k, judged))
                if spent() and threshold is None:
                    break
            continue
        for k in census.next_whole(max(1, prefix), compared):  # twice as many judged
            census.add_whole(k, whole(k, judged))
            if spent():
                break


def undecided(census: Census, leader: int, asked: frozenset[int], threshold: float, swing: int) -> set[int]:
    """The moves asked about whose verdict on ``threshold`` the census cannot give yet (95 %): a move called fine
    must be fine however much its losses not judged whole cost."""
    return {i for i in asked if i != leader and verdict(census.gap_between(leader, i, swing), threshold) is None}


def died_in_sample(census: Census, leader: int) -> set[int]:
    """The moves not tested that lose on an order judged whole that the leader wins, and that the orders judged do
    not show to be more than ``FAR`` points below it (95 %). Such a move is dismissed on how often it died on the
    few orders judged whole, read as if they were many: four deaths in 16 orders, for a move that dies on one in
    ten, is a draw met in a few positions in a hundred. (Asked at ``Z_FAR``, it tested so many more moves that the
    budget left too few orders judged whole: on the dev set, a pick 2.2 points below.)"""
    won = [k for k in census.exact if census.wins[k][leader]]
    return {i for i in range(census.moves) if i != leader and i not in census.tested
            and any(census.exact[k][i] is not None and census.exact[k][i] <= 0 for k in won)  # type: ignore[operator]
            and census.gap(leader, i).low < FAR}


def far_rivals(census: Census, leader: int) -> set[int]:
    """The moves that could still be more than ``FAR`` points better than the leader at ``Z_FAR`` (the confidence
    "never" needs, over hundreds of positions), because the two part on whether they win on a few orders, so that
    more orders in the census would tell more than more orders judged whole. On 256 orders a move that dies on three
    in a hundred can show one death where eight are to be expected: the count may be off by two deaths more than
    the orders show, each costing what the deaths seen cost."""
    n = census.orders
    found = set()
    for rival in range(census.moves):
        if rival == leader:
            continue
        parted = [k for k in range(n) if census.wins[k][rival] is not None
                  and census.wins[k][leader] != census.wins[k][rival] and census.judged(k, (leader, rival))]
        if not parted:
            continue
        cost = sum(abs(census.exact[k][leader] - census.exact[k][rival]) for k in parted) / len(parted)  # type: ignore[operator]
        estimate = census.estimate(leader, rival)
        drawn = (estimate.drawn / Z) ** 2 + 2 * cost * cost / (n * n)
        read = (estimate.read / Z) ** 2
        if drawn > read and estimate.mean - Z_FAR * math.sqrt(drawn + read) < -FAR:
            found.add(rival)
    return found


def trusted(census: Census, leader: int, swing: int) -> bool:
    """Whether the orders tested are enough that a loss of the leader they have not met could not cost more than
    ``FAR`` points beyond its lead: with no loss in n orders, a rate up to 3 / n is still likely (95 %), and a loss
    costs up to ``swing`` points against a win."""
    lead = min((census.gap(leader, i).low for i in range(census.moves) if i != leader), default=math.inf)
    return 3 * swing / census.orders <= lead + FAR


def _test(census: Census, moves: list[int], tests: Callable[[int, list[int]], list[bool]],
          progress: Callable[[int], None] | None) -> None:
    for k in range(census.orders):
        row = census.wins[k]
        wanted = [move for move in moves if row[move] is None]  # a move judged on the order is known
        if wanted:
            for move, won in zip(wanted, tests(k, wanted), strict=True):
                row[move] = won
        if progress is not None:
            census.reported = max(census.reported, k + 1)
            progress(census.reported)
