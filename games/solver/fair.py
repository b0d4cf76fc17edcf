"""The fair coach: a move judged only on what the player can see, never on the face-down order of the dungeon.

Every order of the cards the player has not seen is as likely as any other (``orders``), so a move is worth the
average, over those orders, of the best score reachable after it when the order is known: each order is solved
exactly by the perfect-information solver (``Position``), on the same orders for every move (perfect-information
Monte Carlo). When the distinct orders are at most ``EXACT_ORDERS``, every one is solved and the figures are exact.

Otherwise the orders are drawn at random. A hint judges its first ``FIRST_ORDERS`` whole (every move solved
exactly), then takes the census of up to ``MAX_ORDERS`` (``census``): whether the leading move still wins on each
order, so that a rare death cannot hide, every order it loses judged whole, more orders judged whole while another
move may still be more than half a point better (95 %), within ``HINT_BUDGET``; a move dismissed on deaths met in
the first orders is tested on the census too, and where a move may yet be more than 2 points better than the best at
99.9 % because the two part on a few deaths, the census takes more orders, up to ``WIDEST_CENSUS``, within
``WIDER_BUDGET`` times the budget (``census.far_rivals``). A review takes the same census
of the move played, its first ``REVIEW_FIRST_ORDERS`` orders judged whole: whether it still wins on every order
too, the orders it loses judged whole, until it is shown to have given away the threshold or not (``racing.verdict``),
within ``REVIEW_MOVE_BUDGET``: a move that dies on a few orders in a hundred is not called fine. A coach
made with a fixed number of ``samples`` judges exactly that many orders
instead (the coach's own play, ``coach_play``). Each keeps the searches of the last ``KEPT_ORDERS`` orders for the
next question: the room's next move asks about the same orders (in C, an order's search holds a few megabytes).

Deterministic: the orders depend only on what the player knows, and the budget counts work, not seconds.

The recommended move has the highest expected score; ties go to the higher chance to win, then to the first in
the engine's order of legal moves.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from games.engine import Action, Rules, State, apply, legal_actions, new_game
from games.engine.cards import MONSTER, Card
from games.solver.census import FIRST_CENSUS, Census, settle, win_tests
from games.solver.deal import SolverRefused, refusal
from games.solver.fair_best import Cell, best_move
from games.solver.orders import (  # noqa: F401  # the orders' names, re-exported: the coach's callers read them here
    EXACT_ORDERS,
    _all_orders,
    distinct_orders,
    drawn_orders,
    every_order,
    orders,
    unseen_count,
    visible,
)
from games.solver.position import Position
from games.solver.racing import Gap, dismissed, gap, mean_and_margin, win_interval
from games.solver.search import gc_paused

FIRST_ORDERS = 16  # orders a hint judges whole before its census (whatever its budget)
REVIEW_FIRST_ORDERS = 8  # ... and a review, for each move (a game has dozens of moves)
MAX_ORDERS = 256  # the most orders judged (a hint's census; as many as the reference set judges a move on)
# ... and a hint's census where a move may yet be more than 2 points better than the best, because the two part on
# a few deaths (``census.far_rivals``): 256 orders at a time, while its searches have made fewer than WIDER_BUDGET
# times its budget's tests
WIDEST_CENSUS = 1024
WIDER_BUDGET = 3
PLAY_SAMPLES = 12  # orders the coach's own play judges a move on, move by move through a whole deal
# How much a hint may solve before it stops judging more orders whole and answers, saying how sure it is (its first
# orders and its census are judged whatever the budget): the tests of its orders' searches (``Position.work``, about
# a million a second of CPU with the C search), not seconds, so that the same position always gets the same advice.
# Chosen on the dev set (``benchmarks/coach_reference.py --set dev``): as good there as 1,500,000, and a hint's 95th
# percentile under 1 s of CPU in the bot's path; 700,000 left a position more than 2 points below the best.
HINT_BUDGET = 1_000_000
REVIEW_MOVE_BUDGET = 400_000  # ... and a review, for each move
KEPT_ORDERS = 12  # solved orders kept for the next question (the same turn's next move asks about the same ones)
LET_GO_WAITING = 8  # orders let go of that wait for a caller to free them (``Coach.retired``): one room's
POTION_TOP = 10  # the most a last potion adds to a won game's score


class MoveValue(NamedTuple):
    action: Action
    expected: float  # the average best score after the move, over the orders the player could be in
    win: float  # the share of those orders in which the move still wins (0..1)
    margin: float = 0.0  # half the 95 % interval of ``expected`` (0 when every order was judged)
    win_low: float | None = None  # the 95 % interval of ``win`` (None when every order was judged)
    win_high: float | None = None
    at_most: bool = False  # the figures are upper bounds: the move was only shown to be worse on some orders


class Advice(NamedTuple):
    moves: tuple[MoveValue, ...]  # the recommended move and the moves asked about (when the coach judged until
    # sure: every move, ``at_most`` where only bounded), in the engine's order
    best: MoveValue  # the recommended move
    orders: int  # orders judged
    exact: bool  # every order consistent with what was seen was judged
    close: tuple[Action, ...] = ()  # moves that may be as good as the best: the orders judged cannot tell (95 %)
    gaps: tuple[tuple[Action, Gap], ...] = ()  # per move asked about: how far below the best, with its interval

    @property
    def sure(self) -> bool:
        """Every other move is worse, or at most half a point better, at 95 % (or every order was judged)."""
        return self.exact or not self.close

    def value_of(self, action: Action) -> MoveValue:
        """The figures of ``action``: the recommended move or one asked about (``judge``), else KeyError."""
        for move in self.moves:
            if move.action == action:
                return move
        raise KeyError(f"{action.code} was not judged: ask for it with advise(state, judge=...)")


class Coach:
    """Fair advice under ``rules``; keeps the orders it solved, so the next move of the same room is quick."""

    def __init__(self, rules: Rules, samples: int | None = None, kept: int = KEPT_ORDERS,
                 max_orders: int = MAX_ORDERS) -> None:
        reason = refusal(rules)
        if reason:
            raise SolverRefused(reason)
        self.rules = rules
        self.samples = samples  # None: as many orders as it takes to be sure (``racing``), up to ``max_orders``
        # (a hint's census up to ``WIDEST_CENSUS`` where a few deaths leave a move in question)
        self.max_orders = max_orders
        self.kept = kept
        self._positions: OrderedDict[tuple[Card, ...], Position] = OrderedDict()
        # Orders let go of, for a caller with time to spare to free (``Position.release``) rather than the next
        # question; at most ``LET_GO_WAITING`` wait, older ones are freed at once.
        self.retired: list[Position] = []

    def forget(self) -> None:
        """Let go of every order's search kept (``retired``: for the caller to free)."""
        while self._positions:
            self.retired.append(self._positions.popitem(last=False)[1])
        if len(self.retired) > LET_GO_WAITING:
            del self.retired[: len(self.retired) - LET_GO_WAITING]

    def _position(self, dungeon: tuple[Card, ...], room: list[Card]) -> Position:
        position = self._positions.pop(dungeon, None)
        if position is None or not _in_order(room, position.deal.cards):
            # The solver's deal: the room's cards in their slots' order (an avoid puts them under the dungeon so),
            # then the dungeon in the order judged. The cards already played are only in the state (the weapon,
            # its last kill). Later in the same turn the room has fewer cards, in the same order: the same deal.
            position = Position(self.rules, tuple(room) + dungeon)
        self._positions[dungeon] = position
        while len(self._positions) > self.kept:
            self.retired.append(self._positions.popitem(last=False)[1])
        if len(self.retired) > LET_GO_WAITING:  # the oldest are freed here and now (memory stays bounded)
            del self.retired[: len(self.retired) - LET_GO_WAITING]
        return position

    def advise(self, state: State, judge: Iterable[Action] = (), threshold: float | None = None,
               budget: int | None = None, progress: Callable[[int], None] | None = None,
               first: int | None = None, continuing: bool = False) -> Advice:
        """The move to make, with its expected score and chance to win, and the same figures for the moves in
        ``judge``. ``threshold``: also judge orders until each move asked about is shown to have given away at least
        that many points or not (``Advice.gaps``, ``racing.verdict``); ``budget``: judge no more orders whole, after the
        ``first`` ones (None: ``FIRST_ORDERS`` for a hint, ``REVIEW_FIRST_ORDERS`` with a ``threshold``) and the
        census, once their searches have made this many tests (``Position.work``; the answer then says how sure it is);
        ``progress``: called with the orders judged so far; ``continuing``: the last question was the previous move of
        the same line (a review): its orders' searches are used again. Otherwise a coach judging until sure starts
        from nothing, so that its answer (how many orders its budget allows) never depends on an earlier question."""
        if state.over:
            raise ValueError("the game is over: there is no move to make")
        seen = visible(state)
        actions = legal_actions(seen)
        dungeons, exact = orders(seen, self.samples or self.max_orders)
        wanted = set(judge)
        if exact or self.samples is not None:
            return self._advise_all(seen, actions, dungeons, exact, wanted)
        asked = {i for i, action in enumerate(actions) if action in wanted}
        if not continuing:
            self.forget()
        widest = WIDEST_CENSUS if threshold is None else 0  # a hint's census may take more orders
        return self._advise_sure(seen, actions, dungeons, asked, threshold, budget, progress, first, widest)

    def _advise_all(self, seen: State, actions: list[Action], dungeons: list[tuple[Card, ...]], exact: bool,
                    wanted: set[Action]) -> Advice:
        """Every order of ``dungeons`` judged, each move only as far as it takes to show it is not the best
        (``fair_best``); the orders' searches are kept for the next move of the room."""
        room = [card for card in seen.room if card is not None]
        cells: list[list[Cell]] = [[] for _ in actions]
        with gc_paused():
            for dungeon in dungeons:
                position = self._position(dungeon, room)
                here = seen._replace(dungeon=dungeon)
                # The position's own value bounds every move's and finds the best line, which proves its move.
                top = position.value(here) if len(actions) > 1 else None
                for i, action in enumerate(actions):
                    cells[i].append(Cell(position, apply(here, action), top))
            chosen = best_move(cells)
            for i, action in enumerate(actions):
                if action in wanted:
                    for cell in cells[i]:
                        cell.settle()
        n = len(dungeons)
        moves = tuple((MoveValue(action, sum(cell.hi for cell in cells[i]) / n,
                                 sum(cell.hi > 0 for cell in cells[i]) / n)
                       if exact else _figures(action, [cell.hi for cell in cells[i]], bounded=False))
                      for i, action in enumerate(actions) if i == chosen or action in wanted)
        lead = [cell.hi for cell in cells[chosen]]
        close = () if exact else tuple(action for i, action in enumerate(actions) if i != chosen
                                       and not dismissed(gap(lead, [cell.hi for cell in cells[i]])))
        return Advice(moves, moves[[move.action for move in moves].index(actions[chosen])], n, exact, close)

    def _advise_sure(self, seen: State, actions: list[Action], dungeons: list[tuple[Card, ...]], asked: set[int],
                     threshold: float | None, budget: int | None, progress: Callable[[int], None] | None,
                     first: int | None, widest: int) -> Advice:
        """The census (``census.settle``): its ``first`` orders judged whole, then whether the leader, and each move
        that may yet matter, still wins on every order, the orders it loses judged whole."""
        room = tuple(card for card in seen.room if card is not None)
        work = [0]  # tests made so far (``_row`` adds each order's)
        first = first or (FIRST_ORDERS if threshold is None else REVIEW_FIRST_ORDERS)

        def order(k: int) -> tuple[Card, ...]:
            if k >= len(dungeons):  # drawn only when the census takes them: the first ones are the same
                dungeons.extend(orders(seen, widest)[0][len(dungeons):])
            return dungeons[k]

        def whole(k: int, moves: Sequence[int] | None) -> list[int | None]:
            return self._row(seen, room, order(k), actions, work, moves)

        def tests(k: int, moves: list[int]) -> list[bool]:
            position = self._position(order(k), list(room))
            before = position.work()
            wins = win_tests(position, seen._replace(dungeon=order(k)), [actions[i] for i in moves])
            work[0] += position.work() - before
            return wins

        taken = Census(len(actions), min(max(FIRST_CENSUS, first), len(dungeons)))
        # a loss costs at most a won game's best score and every monster left counted against the player
        swing = seen.rules.max_health + POTION_TOP + sum(card.value for card in seen.dungeon + room
                                                         if card.kind == MONSTER)
        with gc_paused():
            for k in range(min(first, taken.orders)):
                taken.add_whole(k, whole(k, None))
                if progress is not None:
                    progress(k + 1)
            leader, close = settle(taken, len(dungeons), swing, whole, tests,
                                   lambda: _spent(work, budget), progress,
                                   frozenset(asked if threshold is not None else ()), threshold, widest,
                                   lambda: _spent(work, budget and WIDER_BUDGET * budget))
        moves = tuple(_census_figures(taken, i, action) for i, action in enumerate(actions))
        gaps = tuple((actions[i], taken.gap_between(leader, i, swing)) for i in sorted(asked) if i != leader)
        return Advice(moves, moves[leader], taken.orders, False, tuple(actions[i] for i in sorted(close)), gaps)

    def _row(self, seen: State, room: tuple[Card, ...], dungeon: tuple[Card, ...], actions: list[Action],
             work: list[int], moves: Sequence[int] | None = None) -> list[int | None]:
        """Each move's exact best score on one order: every move's (the order judged whole), or only ``moves``'
        (None for the others)."""
        position = self._position(dungeon, list(room))  # kept: the room's next move asks about the same orders
        before = position.work()
        here = seen._replace(dungeon=dungeon)
        row: list[int | None]
        if moves is None:
            top = position.value(here) if len(actions) > 1 else None  # the best of them: it bounds every other's
            row = [position.value(apply(here, action), at_most=top) for action in actions]
        else:  # the position's own value would prove every move below the best: only these are wanted
            row = [None] * len(actions)
            for i in moves:
                row[i] = position.value(apply(here, actions[i]))
        work[0] += position.work() - before
        return row


def _figures(action: Action, values: list[int], bounded: bool) -> MoveValue:
    expected, margin = mean_and_margin(values)
    wins = sum(value > 0 for value in values)
    low, high = win_interval(wins, len(values))
    return MoveValue(action, expected, wins / len(values), margin, low, high, bounded)


def _census_figures(census: Census, i: int, action: Action) -> MoveValue:
    expected, margin, bounded = census.figures(i)
    win, low, high = census.win_share(i)
    return MoveValue(action, expected, win, margin, low, high, bounded)


def _spent(work: list[int], budget: int | None) -> bool:
    return budget is not None and work[0] >= budget


def _in_order(cards: Sequence[Card], deck: Sequence[Card]) -> bool:
    """Whether ``cards`` lie in ``deck`` in this order (not necessarily side by side)."""
    rest = iter(deck)
    return all(card in rest for card in cards)


class CoachGame(NamedTuple):
    moves: tuple[Action, ...]
    score: int
    state: State


def coach_play(rules: Rules, deck: Sequence[Card], samples: int = PLAY_SAMPLES, start: State | None = None
               ) -> CoachGame:
    """The coach plays the deal itself, each move chosen by ``Coach.advise`` on what it has seen so far.

    ``start`` replaces ``new_game(rules, deck=deck)`` (tests use it for small deals the engine cannot deal)."""
    coach = Coach(rules, samples)
    state = start if start is not None else new_game(rules, deck=tuple(deck))
    moves: list[Action] = []
    while not state.over:
        actions = legal_actions(state)
        action = actions[0] if len(actions) == 1 else coach.advise(state).best.action
        moves.append(action)
        state = apply(state, action)
    return CoachGame(tuple(moves), state.score, state)  # type: ignore[arg-type]  # over: scored
