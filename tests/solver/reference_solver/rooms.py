"""Every distinct way to face one room, computed once per (cards, weapon) and reused for any health.

Facing resolves cards one at a time; only the first potion of a turn heals, so a whole room acts on
health as three numbers: ``d1`` damage before the first potion, ``p`` that potion's value, ``d2`` damage
after it. From health ``h`` the player survives with ``min(max, h - d1 + p) - d2`` when ``h > d1`` and
that is positive. Orders that give the same numbers, the same weapon afterwards and the same carried
card are the same plan (this is the "equivalent orders inside a room" pruning), and a plan that is never
better than another for any health is dropped.
"""

from __future__ import annotations

from typing import NamedTuple

from tests.solver.reference_solver.deal import NO_LIMIT, POTION_K, WEAPON_K, Deal

RESOLVE_ALL = -1  # ``carried`` of a plan that resolves every card (the final room)


class Plan(NamedTuple):
    carried: int  # the card left for the next room, or RESOLVE_ALL
    d1: int
    p: int  # value of the first potion drunk (0: none)
    d2: int
    weapon: int  # weapon value afterwards (0: none)
    limit: int  # the weapon may hit monsters below this value
    last_potion: int  # value of the last card resolved if it is a potion, else 0 (the clear bonus)
    steps: tuple[tuple[int, bool], ...]  # one order that does it: (card, with weapon)


class Death(NamedTuple):
    """Dying at a monster: the health before it is ``h - d1`` (no potion yet) or ``min(max, h - d1 + p) - d2``."""

    d1: int
    p: int
    d2: int
    damage: int  # what the killing monster does
    resolved: int  # monster value resolved in this room, the killer included
    steps: tuple[tuple[int, bool], ...]


def health_after(plan_d1: int, p: int, d2: int, h: int, max_health: int) -> int:
    """Health after the plan from ``h``; 0 or less means the player died on the way."""
    if h <= plan_d1:
        return 0
    mid = h - plan_d1 + p
    if mid > max_health:
        mid = max_health
    return mid - d2


def dies(death: Death, h: int, max_health: int) -> bool:
    """Whether the player, starting the room with ``h``, is alive before the killer and dead after it."""
    before = health_after(death.d1, death.p, death.d2, h, max_health)
    return before > 0 and before <= death.damage


def room_options(deal: Deal, room: tuple[int, ...], weapon: int, limit: int, resolve_all: bool,
                 keep_last: bool) -> tuple[list[Plan], list[Death]]:
    """Surviving plans (dominated ones dropped) and ways to die, for facing ``room``.

    ``keep_last``: whether the last card matters (the room ends the game); otherwise plans that differ only in
    it are merged.
    """
    kind, value, step = deal.kind, deal.value, deal.limit_step
    target = len(room) if resolve_all else len(room) - 1
    plans: dict[tuple, tuple] = {}
    deaths: dict[tuple, Death] = {}

    def walk(left, done, d1, p, d2, w, lim, last, resolved, steps):
        if done == target:
            carried = RESOLVE_ALL if resolve_all else left[0]
            key = (carried, d1, p, d2, w, lim, last if keep_last else 0)
            if key not in plans:
                plans[key] = steps
            return
        for i, card in enumerate(left):
            rest = left[:i] + left[i + 1:]
            k, v = kind[card], value[card]
            if k == WEAPON_K:
                walk(rest, done + 1, d1, p, d2, v, NO_LIMIT, 0, resolved, steps + ((card, False),))
            elif k == POTION_K:
                walk(rest, done + 1, d1, p or v, d2, w, lim, v, resolved, steps + ((card, False),))
            else:
                choices = [(v, lim, False)]
                if w and v < lim:
                    choices.append((max(0, v - w), v + step, True))
                for damage, new_lim, armed in choices:
                    move = steps + ((card, armed),)
                    if damage:
                        key = (d1, p, d2, damage)
                        old = deaths.get(key)
                        if old is None or old.resolved < resolved + v:
                            deaths[key] = Death(d1, p, d2, damage, resolved + v, move)
                    if p:
                        walk(rest, done + 1, d1, p, d2 + damage, w, new_lim, 0, resolved + v, move)
                    else:
                        walk(rest, done + 1, d1 + damage, p, d2, w, new_lim, 0, resolved + v, move)

    walk(room, 0, 0, 0, 0, weapon, limit, 0, 0, ())
    return _undominated([Plan(*key, steps) for key, steps in plans.items()]), list(deaths.values())


def _better_or_equal(a: Plan, b: Plan) -> bool:
    """``a`` leaves at least as much health as ``b`` from every starting health, and as good a weapon."""
    return (a.d1 <= b.d1 and a.d2 <= b.d2 and a.p - a.d1 - a.d2 >= b.p - b.d1 - b.d2
            and a.weapon >= b.weapon and a.limit >= b.limit)


def _undominated(plans: list[Plan]) -> list[Plan]:
    groups: dict[tuple[int, int], list[Plan]] = {}
    for plan in plans:
        groups.setdefault((plan.carried, plan.last_potion), []).append(plan)
    kept = []
    for group in groups.values():
        # Most promising first, so a plan is only compared with the plans already kept.
        group.sort(key=lambda q: (q.d1 + q.d2 - q.p, q.d1, q.d2, -q.weapon, -q.limit))
        chosen: list[Plan] = []
        for plan in group:
            if not any(_better_or_equal(other, plan) for other in chosen):
                chosen.append(plan)
        kept.extend(chosen)
    return kept
