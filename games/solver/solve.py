"""``solve(rules, deck)``: the best possible score of a deal with the deck order known, and one line reaching it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.engine import actions as A
from games.engine.actions import Action
from games.engine.cards import Card
from games.engine.rules import Rules

from .deal import Deal, SolverRefused
from .rooms import health_after
from .search import AVOID, ROOM_SIZE, Search, gc_paused


class Solution(NamedTuple):
    best_score: int
    actions: tuple[Action, ...]  # one optimal line, replayable with the engine from the deal
    states: int  # situations the search visited

    @property
    def winnable(self) -> bool:
        return self.best_score > 0


def solve(rules: Rules, deck: Sequence[Card]) -> Solution:
    """The exact par of ``deck`` (top card first) under ``rules``.

    ``deck`` may be any set of classic cards, not only the rules' full deck (tests solve small decks).
    Raises ``SolverRefused`` for rules with chance in them (shuffled avoids, expansion cards).
    """
    deal = Deal(rules, deck)
    if deal.n == 0:
        raise SolverRefused("there is nothing to solve in an empty deck")
    if deal.early_end and deal.n < ROOM_SIZE:
        return Solution(deal.start_health, (), 1)  # the first room cannot be filled: won at once
    with gc_paused():
        return _solve(deal)  # the search is freed before the collector is back on


def _solve(deal: Deal) -> Solution:
    search = Search(deal)
    start = (0, (), -1, False, deal.start_health, 0, 0)
    best = search.exact(start)
    return Solution(best, tuple(_line(search, start, best)), search.nodes)


def _line(search: Search, situation: tuple, target: int) -> list[Action]:
    """Walk down from the start, at each turn taking a choice that still reaches ``target``."""
    deal = search.deal
    out: list[Action] = []
    while True:
        pos, queue, carried, avoided, h, w, lim = situation
        room, pos2, queue2 = search.fill(pos, queue, carried)
        empty_after = pos2 == deal.n and not queue2
        final = empty_after and not deal.early_end
        score, death = search.best_death(room, pos2, queue2, h, w, lim, final)
        if death is not None and score == target:
            return out + _steps(room, death.steps)
        if final:
            score, plan = search.final_score(room, h, w, lim)
            if plan is None or score != target:  # pragma: no cover - the search proved the target
                raise AssertionError("the optimal line was lost")
            return out + _steps(room, plan.steps)
        terminal_next = deal.early_end and 1 + (deal.n - pos2) + len(queue2) < ROOM_SIZE
        options = []
        for plan in search.plans(room, w, lim, False):
            h2 = health_after(plan.d1, plan.p, plan.d2, h, deal.max_health)
            if h2 <= 0:
                continue
            if terminal_next:
                if h2 + (plan.last_potion if h2 == deal.max_health else 0) == target:
                    return out + _steps(room, plan.steps)
                continue
            options.append((_steps(room, plan.steps), search.child(room, pos2, queue2, plan.carried, h2, plan.weapon,
                                                                   plan.limit)))
        if not avoided and not empty_after:
            options.append(([A.AVOID_ACTION], search.child(room, pos2, queue2, AVOID, h, w, lim)))
        # The choice the search went through is already proven; searching the others first could cost far more
        # than the search did.
        chosen = next((option for option in options if search.proven(*option[1], target)), None)  # type: ignore[call-arg]
        if chosen is None:
            chosen = next((option for option in options if search.test(*option[1], target) >= target), None)  # type: ignore[call-arg]
        if chosen is None:  # pragma: no cover - the search proved the target
            raise AssertionError("the optimal line was lost")
        out += chosen[0]
        situation = chosen[1]


def _steps(room: tuple[int, ...], steps) -> list[Action]:
    """A room's resolution as engine actions; slots are positions in the room as filled (carried card first)."""
    return [A.fight_with_weapon(room.index(card)) if armed else A.take(room.index(card)) for card, armed in steps]
