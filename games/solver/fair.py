"""The fair coach: a move judged only on what the player can see, never on the face-down order of the dungeon.

What a player knows of the dungeon: its top is the cards never seen yet, known only as a set; under them lie the
rooms avoided, in the order they went there (``unseen_count``). Every order of the unseen cards is as likely as
any other, so a move is worth the average, over those orders, of the best score reachable after it when the order
is known: each order is solved exactly by the perfect-information solver (``Position``), on the same orders for
every move (perfect-information Monte Carlo). When the distinct orders (cards of the same kind and value are
alike) are at most ``EXACT_ORDERS``, every one is solved and the figures are exact; otherwise ``samples`` orders
are drawn at random.

Deterministic: the orders are drawn from a generator seeded with a hash of the rules, the unseen cards as a set
and the avoided cards in their order, and the solver is only ever given the position as the player sees it
(``visible``: the unseen cards in a fixed order), so the real order of the deal cannot reach the advice.

The recommended move has the highest expected score; ties go to the higher chance to win, then to the first in
the engine's order of legal moves. Only that move's figures (and those of the moves a caller asks about) are found
exactly: another move is searched only until it is shown not to be the best (``fair_best``), which gives the same
answer as judging every move. Within a turn no card is revealed, so the orders (and their solved positions, kept in
``Coach``) stay the same from one move of the room to the next.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter, OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from itertools import permutations
from math import factorial, prod
from typing import NamedTuple

from games.engine import Action, Rules, State, apply, legal_actions, new_game
from games.engine.actions import AVOID
from games.engine.cards import Card
from games.solver.deal import SolverRefused, refusal
from games.solver.fair_best import Cell, best_move
from games.solver.position import Position
from games.solver.search import gc_paused

HINT_SAMPLES = 8  # orders a hint or a review judges a move on (when the orders are too many to solve them all)
PLAY_SAMPLES = 12  # ... and the coach's own play, move by move through a whole deal
EXACT_ORDERS = 24  # at most this many distinct orders: every one is solved, the figures are exact
KEPT_ORDERS = 24  # solved orders kept for the next question (the same turn's next move asks about the same ones)
LET_GO_WAITING = 8  # orders let go of that wait for a caller to free them (``Coach.retired``): one room's
ROOM_SIZE = 4


class MoveValue(NamedTuple):
    action: Action
    expected: float  # the average best score after the move, over the orders the player could be in
    win: float  # the share of those orders in which the move still wins (0..1)


class Advice(NamedTuple):
    moves: tuple[MoveValue, ...]  # the recommended move and the moves asked about, in the engine's order
    best: MoveValue  # the recommended move
    orders: int  # orders judged
    exact: bool  # every order consistent with what was seen was judged

    def value_of(self, action: Action) -> MoveValue:
        """The figures of ``action``: the recommended move or one asked about (``judge``), else KeyError."""
        for move in self.moves:
            if move.action == action:
                return move
        raise KeyError(f"{action.code} was not judged: ask for it with advise(state, judge=...)")


def unseen_count(state: State) -> int:
    """How many cards at the top of the dungeon were never seen.

    Rooms are filled from the top and an avoided room goes under the dungeon, so the unseen cards are always its
    top; while any are left no avoided card has been drawn again, so the avoided ones are four per avoid."""
    avoids = sum(1 for action in state.history if action.kind == AVOID)
    return max(0, len(state.dungeon) - ROOM_SIZE * avoids)


def _canonical(cards) -> list[Card]:
    return sorted(cards, key=lambda card: (card.kind, card.value, card.suit))


def visible(state: State) -> State:
    """``state`` as the player sees it: the unseen cards in a fixed order, no trace of the deal's real order."""
    u = unseen_count(state)
    dungeon = tuple(_canonical(state.dungeon[:u])) + state.dungeon[u:]
    return state._replace(dungeon=dungeon, start_deck=(), rng_seed=0)


def _seed(state: State, u: int) -> int:
    """A seed from what the player knows of the dungeon (the same for every move of a turn)."""
    text = "|".join([state.rules.key, " ".join(c.code for c in state.dungeon[:u]),
                     " ".join(c.code for c in state.dungeon[u:])])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def distinct_orders(cards: Sequence[Card]) -> int:
    """How many orders of ``cards`` differ for the game (cards of the same kind and value are alike)."""
    alike = Counter((card.kind, card.value) for card in cards)
    return factorial(len(cards)) // prod(factorial(c) for c in alike.values())


def orders(state: State, samples: int) -> tuple[list[tuple[Card, ...]], bool]:
    """The dungeons the player could be facing (each as likely as another) and whether they are all of them.

    ``state`` must be ``visible``: its unseen cards in the fixed order."""
    u = unseen_count(state)
    unseen, known = state.dungeon[:u], state.dungeon[u:]
    if distinct_orders(unseen) <= max(EXACT_ORDERS, 1):
        return [order + known for order in _all_orders(unseen)], True
    rng = random.Random(_seed(state, u))
    drawn = []
    for _ in range(samples):
        order = list(unseen)
        rng.shuffle(order)
        drawn.append(tuple(order) + known)
    return drawn, False


def _all_orders(cards: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """Every order of ``cards`` that differs for the game, once each (one card stands for its alike ones)."""
    by_class: dict[tuple, list[Card]] = {}
    for card in cards:
        by_class.setdefault((card.kind, card.value), []).append(card)
    seen = set()
    for order in permutations(range(len(cards))):
        classes = tuple((cards[i].kind, cards[i].value) for i in order)
        if classes in seen:
            continue
        seen.add(classes)
        pools = {key: list(group) for key, group in by_class.items()}
        yield tuple(pools[key].pop(0) for key in classes)


class Coach:
    """Fair advice under ``rules``; keeps the orders it solved, so the next move of the same room is quick."""

    def __init__(self, rules: Rules, samples: int = HINT_SAMPLES, kept: int = KEPT_ORDERS) -> None:
        reason = refusal(rules)
        if reason:
            raise SolverRefused(reason)
        self.rules = rules
        self.samples = samples
        self.kept = kept
        self._positions: OrderedDict[tuple[Card, ...], Position] = OrderedDict()
        # Orders let go of, for a caller with time to spare to free (``Position.release``) rather than the next
        # question; at most ``LET_GO_WAITING`` wait, older ones are freed at once.
        self.retired: list[Position] = []

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

    def advise(self, state: State, judge: Iterable[Action] = ()) -> Advice:
        """The move to make, with its expected score and chance to win, and the same figures for the moves in
        ``judge`` (the other moves are only judged far enough to show they are not the best: ``fair_best``)."""
        if state.over:
            raise ValueError("the game is over: there is no move to make")
        seen = visible(state)
        actions = legal_actions(seen)
        dungeons, exact = orders(seen, self.samples)
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
            wanted = set(judge)
            for i, action in enumerate(actions):
                if action in wanted:
                    for cell in cells[i]:
                        cell.settle()
        n = len(dungeons)
        moves = tuple(MoveValue(action, sum(cell.hi for cell in cells[i]) / n,
                                sum(cell.hi > 0 for cell in cells[i]) / n)
                      for i, action in enumerate(actions) if i == chosen or action in wanted)
        return Advice(moves, moves[[move.action for move in moves].index(actions[chosen])], n, exact)


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
