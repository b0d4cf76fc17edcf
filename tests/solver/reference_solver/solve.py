"""``solve(rules, deck)``: the best possible score of a deal with the deck order known, and one line reaching it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.engine import actions as A
from games.engine.actions import Action
from games.engine.cards import Card
from games.engine.rules import Rules
from tests.solver.reference_solver.deal import Deal, SolverRefused
from tests.solver.reference_solver.rooms import health_after
from tests.solver.reference_solver.search import AVOID, LOST, ROOM_SIZE, Search


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
    search = Search(deal)
    if deal.early_end and deal.n < ROOM_SIZE:
        return Solution(deal.start_health, (), 1)  # the first room cannot be filled: won at once
    start = (0, (), -1, False, deal.start_health, 0, 0)
    best = _probe_down(search, start)
    return Solution(best, tuple(_line(search, start, best)), search.nodes)


def _probe_down(search: Search, start: tuple) -> int:
    """Ask "can the deal score at least t?" for falling t, starting at the upper bound.

    A probe prunes every situation whose bound is below t, and a failed probe returns an upper bound that
    says where to probe next; the table keeps what earlier probes proved.
    """
    bound = search.upper_bound(search.remaining(*start[:3]), *start[4:])
    alpha = bound - 1
    while True:
        v = search.value(*start, alpha)
        if v > alpha:
            return v
        alpha = v - 1 if v > 0 else LOST  # deaths: one full search (their bound, 0, does not prune)


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
        options = [(plan.carried, plan) for plan in search.plans(room, w, lim, False)]
        if not avoided and not empty_after:
            options.append((AVOID, None))
        for carried2, plan in options:
            if plan is None:
                h2, w2, lim2 = h, w, lim
            else:
                h2, w2, lim2 = health_after(plan.d1, plan.p, plan.d2, h, deal.max_health), plan.weapon, plan.limit
                if h2 <= 0:
                    continue
            if terminal_next and plan is not None:
                if h2 + (plan.last_potion if h2 == deal.max_health else 0) == target:
                    return out + _steps(room, plan.steps)
                continue
            nxt = search.child(room, pos2, queue2, carried2, h2, w2, lim2)
            if search.value(*nxt, target - 1) >= target:
                out += [A.AVOID_ACTION] if plan is None else _steps(room, plan.steps)
                situation = nxt
                break
        else:  # pragma: no cover - the search proved the target
            raise AssertionError("the optimal line was lost")


def _steps(room: tuple[int, ...], steps) -> list[Action]:
    """A room's resolution as engine actions; slots are positions in the room as filled (carried card first)."""
    return [A.fight_with_weapon(room.index(card)) if armed else A.take(room.index(card)) for card, armed in steps]
