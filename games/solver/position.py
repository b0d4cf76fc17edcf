"""The best score still reachable from any game position: mid-room, after avoids, in the final room, at any health.

The search (``search.py``) works on turn starts. A position at the start of a turn (no card of the room resolved
yet) is translated into the search's situation. The C search also answers a room played into, one or two of its
cards resolved, whose turn ends as usual (``played_into``): after a room's first move, where hints ask most. Any
other position inside a turn is played out card by card through the engine until the turn ends (at most three
cards, so a few dozen orders) and each turn start is asked of the search. One ``Position`` keeps one search, so
every position of the same deal shares its table (a review asks dozens).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import CARDS_FACED, Action, Rules, State, apply, legal_actions
from games.engine.cards import Card
from games.engine.rules import STRICT

from .deal import NO_LIMIT, Deal
from .native import exact_search
from .search import HIGH, LOST, ROOM_SIZE, gc_paused, narrow

INSIDE_STEP = 60  # C search tests a state inside a turn costs, walked in Python (``benchmarks/coach_bench.py``)


class Position:
    """Exact values of positions of one deal (``rules`` and ``deck`` as dealt, top card first)."""

    def __init__(self, rules: Rules, deck: Sequence[Card]) -> None:
        self.deal = Deal(rules, deck)
        self.search = exact_search(self.deal)  # in C when built (the same answers as ``search.Search``)
        self._where = {card: i for i, card in enumerate(self.deal.cards)}
        self._exact: dict[tuple, int] = {}
        # Inside a turn (the C search answers only turn starts): what the tests showed of each state, (lo, hi): a
        # score some line reaches, and a score none beats. A value's tests probe one state at several t: each walks
        # the turn's choices in Python again without it (most of a hint's cost late in a deal).
        self._inside: dict[tuple, tuple[int, int]] = {}
        self.steps = 0  # states inside a turn the tests went through (``work``)
        # The C search also answers a room played into whose turn ends as usual (``played_into``); search.py does not.
        self._into = getattr(self.search, "test_played_into", None)

    def size(self) -> int:
        """How many situations the search has met (its table grows with them)."""
        return self.search.size()

    def work(self) -> int:
        """What the position's questions have cost so far, in the C search's tests (a test inside a turn, walked in
        Python, costs about ``INSIDE_STEP`` of them): it grows with CPU time, and is the same for the same questions."""
        return self.search.nodes + INSIDE_STEP * self.steps

    def release(self, items: int) -> bool:
        """Free up to ``items`` of what the position holds (see ``Search.release``); True once all of it is freed.
        The position must not be used again."""
        if not self.search.release(items):
            return False
        self._exact.clear()
        self._inside.clear()
        return True

    # --- translating a position --------------------------------------------------------------------
    def situation(self, state: State) -> tuple[int, tuple, int, bool, int, int, int] | None:
        """The search's arguments (all but alpha) for a turn start, or None inside a turn."""
        if state.over or any(card is None for card in state.room):
            return None
        n, where = self.deal.n, self._where
        room = [where[c] for c in state.room]  # type: ignore[index]  # no None: checked above
        dungeon = [where[c] for c in state.dungeon]
        pos, queue = _split(dungeon, n)
        fresh = set(range(pos - ROOM_SIZE + 1, pos))
        if pos < n and set(room) == set(range(pos - ROOM_SIZE, pos)):
            pos, carried = pos - ROOM_SIZE, -1  # the room as the search deals it: four cards from the deal
        elif pos < n and fresh <= set(room) and len(room) == ROOM_SIZE:
            pos, carried = pos - ROOM_SIZE + 1, next(c for c in room if c not in fresh)  # a carried card
        else:
            # Any room can be put back on top of the dungeon (read as avoided cards): filling deals it again.
            pos, queue, carried = n, tuple(room) + tuple(dungeon), -1
        w, lim = _weapon(state)
        lim = self.search.limit(lim, pos, queue, carried)
        return pos, queue, carried, state.avoided_last, state.health, w, lim

    def played_into(self, state: State) -> tuple[tuple[int, ...], int, tuple, bool, int, int, int] | None:
        """The C search's arguments (all but t) for a room played into whose turn ends as usual (a full room of
        four, one or two of its cards played, the next room a full one), else None: the turn is walked in Python."""
        if self._into is None or state.over or state.pending or len(state.room) != ROOM_SIZE:
            return None
        left = [card for card in state.room if card is not None]
        if not ROOM_SIZE - CARDS_FACED < len(left) < ROOM_SIZE or len(state.dungeon) < ROOM_SIZE - 1:
            return None
        where = self._where
        pos, queue = _split([where[c] for c in state.dungeon], self.deal.n)
        w, lim = _weapon(state)
        return tuple(where[c] for c in left), pos, queue, state.potion_used, state.health, w, lim

    @staticmethod
    def _key(state: State) -> tuple:
        return (state.dungeon, state.room, state.weapon, state.kills[-1:], state.health, state.potion_used,
                state.avoided_last, state.last_card, state.status)

    # --- values ----------------------------------------------------------------------------------
    def bound(self, state: State, t: int) -> int:
        """Can ``state`` still score at least ``t``? Fail-soft: a result ``>= t`` is reached by some line, a result
        ``< t`` is an upper bound of the best."""
        if state.over:
            return state.score  # type: ignore[return-value]  # over: scored
        key = self._key(state)
        known = self._exact.get(key)
        if known is not None:
            return known
        situation = self.situation(state)
        if situation is not None:
            return self.search.test(*situation, t)
        into = self.played_into(state)
        if into is not None and self._into is not None:  # (played_into is None without it)
            return self._into(*into, t)
        self.steps += 1
        lo, hi = self._inside.get(key, (LOST, HIGH))
        if lo >= t:
            return lo
        if hi < t:
            return hi
        best = LOST
        for action in legal_actions(state):
            v = self.bound(apply(state, action), t)
            if v >= t:
                self._inside[key] = (v, hi)
                return v
            if v > best:
                best = v
        self._inside[key] = (lo, best)
        return best

    def proven(self, state: State, t: int) -> bool:
        """Whether what is known already shows that ``state`` scores at least ``t``, without searching (see
        ``Search.proven``)."""
        if state.over:
            return state.score >= t  # type: ignore[operator]  # over: scored
        known = self._exact.get(self._key(state))
        if known is not None:
            return known >= t
        situation = self.situation(state)
        if situation is not None:
            return self.search.proven(*situation, t)
        into = self.played_into(state)
        if into is not None and self.search.proven_played_into(*into, t):
            return True
        return any(self.proven(apply(state, action), t) for action in legal_actions(state))

    def ceiling(self, state: State) -> int:
        """A quick upper bound of the best score reachable from ``state`` (no search)."""
        if state.over:
            return state.score  # type: ignore[return-value]  # over: scored
        situation = self.situation(state)
        if situation is not None:
            return self.search.ceiling(*situation[:3], *situation[4:])
        return max(self.ceiling(apply(state, action)) for action in legal_actions(state))

    def value(self, state: State, at_most: int | None = None) -> int:
        """The exact best score reachable from ``state``; ``at_most``: a known upper bound (the value of the
        position before, along a line), which saves probes."""
        if state.over:
            return state.score  # type: ignore[return-value]  # over: scored
        key = self._key(state)
        found = self._exact.get(key)
        if found is None:
            with gc_paused():
                found = self._value(state, at_most)
            self._exact[key] = found
        return found

    def known(self, state: State) -> int | None:
        """The exact best score of ``state`` if it is known already (over, or found before), else None."""
        if state.over:
            return state.score
        return self._exact.get(self._key(state))

    def remember(self, state: State, value: int) -> None:
        """Keep ``value`` as the exact best score of ``state`` (found by the caller's own tests)."""
        self._exact[self._key(state)] = value

    def _value(self, state: State, at_most: int | None) -> int:
        t = self.ceiling(state)
        if at_most is not None and at_most < t:
            t = at_most
        return narrow(lambda t: self.bound(state, t), t)  # "at least t?" tests, as ``solve`` makes them

    def best_action(self, state: State) -> tuple[Action, int]:
        """A move that keeps the best score reachable, and that score (``state`` must still be playing)."""
        if state.over:
            raise ValueError("the game is over: there is no move to make")
        with gc_paused():
            best = self.value(state)
            choices = [(action, apply(state, action)) for action in legal_actions(state)]
            # The move the value's search went through is proven already: the others may cost a search each.
            for action, after in choices:
                if self.proven(after, best):
                    return action, best
            for action, after in choices:
                if self.bound(after, best) >= best:
                    return action, best
        raise AssertionError("no move keeps the best score")  # pragma: no cover - best is a max over the moves


def _split(dungeon: list[int], n: int) -> tuple[int, tuple[int, ...]]:
    """The dungeon (deal positions, top first) as the searches take it: the untouched end of the deal, from ``pos``
    on, followed by the avoided cards put under it (``queue``)."""
    pos = n
    if dungeon and dungeon[: n - dungeon[0]] == list(range(dungeon[0], n)):
        pos = dungeon[0]
    return pos, tuple(dungeon[n - pos:])


def _weapon(state: State) -> tuple[int, int]:
    """The weapon's value and limit as the searches take them (0, 0: none; ``NO_LIMIT``: no kill yet)."""
    if state.weapon is None:
        return 0, 0
    if not state.kills:
        return state.weapon.value, NO_LIMIT
    return state.weapon.value, state.kills[-1].value + (0 if state.rules.weapon_limit == STRICT else 1)
