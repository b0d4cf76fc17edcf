"""Every distinct way to face one room, computed once per (cards, weapon) and reused for any health.

Facing resolves cards one at a time; only the first potion of a turn heals, so a whole room acts on
health as three numbers: ``d1`` damage before the first potion, ``p`` that potion's value, ``d2`` damage
after it. From health ``h`` the player survives with ``min(max, h - d1 + p) - d2`` when ``h > d1`` and
that is positive. Orders that give the same numbers, the same weapon afterwards and the same carried
card are the same plan (this is the "equivalent orders inside a room" pruning), and a plan that is never
better than another for any health is dropped.
"""

from __future__ import annotations

from operator import itemgetter
from typing import NamedTuple

from .deal import NO_LIMIT, POTION_K, WEAPON_K, Deal

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
                 keep_last: bool, deaths: bool = False) -> tuple[list[tuple], list[tuple]]:
    """Surviving plans (dominated ones dropped) and, if ``deaths``, ways to die, for facing ``room``: plain tuples
    in the fields' order of ``Plan`` and ``Death`` (the search makes tens of thousands and reads them by place;
    ``Plan._make`` names one where that reads better).

    ``keep_last``: whether the last card matters (the room ends the game); otherwise plans that differ only in
    it are merged.
    """
    walk = _Walk(deal, room, resolve_all, keep_last, deaths)
    walk.walk((1 << len(room)) - 1, 0, 0, 0, 0, weapon, limit, 0, 0)
    return _undominated(walk.plans), list(walk.deaths.values()) if deaths else []


class _Walk:
    """Every order of facing a room, card by card, with what each does to health, weapon and limit.

    The cards not yet faced are a bit mask over the room's places (the room's order: the card left is the first
    one), and the order followed so far sits in ``path``: a tuple of it is made only for a plan or a death kept.
    """

    def __init__(self, deal: Deal, room: tuple[int, ...], resolve_all: bool, keep_last: bool, deaths: bool) -> None:
        self.cards = room
        self.kinds = [deal.kind[card] for card in room]
        self.values = [deal.value[card] for card in room]
        self.plain = [(card, False) for card in room]  # a path's steps: (card, with weapon)
        self.armed = [(card, True) for card in room]
        self.path: list = [None] * len(room)
        self.step = deal.limit_step
        self.target = len(room) if resolve_all else len(room) - 1
        self.resolve_all, self.keep_last = resolve_all, keep_last
        self.plans: dict[tuple, tuple] = {}
        self.deaths: dict[tuple, tuple] | None = {} if deaths else None  # None: not asked for
        self.seen: set[int] = set()

    def walk(self, left: int, done: int, d1: int, p: int, d2: int, w: int, lim: int, last: int,
             resolved: int) -> None:
        # Orders that reach the same cards left and the same numbers go on alike: walk on from one of them.
        if not self.keep_last:
            last = 0
        here = (((((((left << 8) + d1 << 8) + p << 8) + d2 << 8) + w << 8) + lim << 8) + last << 8) + resolved
        if here in self.seen:
            return
        self.seen.add(here)
        if done == self.target:
            carried = RESOLVE_ALL
            if not self.resolve_all:
                carried = self.cards[(left & -left).bit_length() - 1]  # the one card left
            key = (carried, d1, p, d2, w, lim, last)
            if key not in self.plans:
                self.plans[key] = tuple(self.path[:done])
            return
        for i in range(len(self.cards)):
            if not left >> i & 1:
                continue
            rest = left & ~(1 << i)
            k, v = self.kinds[i], self.values[i]
            if k == WEAPON_K:
                self.path[done] = self.plain[i]
                self.walk(rest, done + 1, d1, p, d2, v, NO_LIMIT, 0, resolved)
            elif k == POTION_K:
                self.path[done] = self.plain[i]
                self.walk(rest, done + 1, d1, p or v, d2, w, lim, v, resolved)
            else:
                self._fight(rest, done, d1, p, d2, w, resolved, i, v, v, lim, False)
                if w and v < lim:
                    self._fight(rest, done, d1, p, d2, w, resolved, i, v, max(0, v - w), v + self.step, True)

    def _fight(self, rest: int, done: int, d1: int, p: int, d2: int, w: int, resolved: int, i: int, v: int,
               damage: int, new_lim: int, armed: bool) -> None:
        self.path[done] = self.armed[i] if armed else self.plain[i]
        if damage and self.deaths is not None:
            key = (d1, p, d2, damage)
            old = self.deaths.get(key)
            if old is None or old[4] < resolved + v:  # Death.resolved
                self.deaths[key] = (d1, p, d2, damage, resolved + v, tuple(self.path[:done + 1]))
        if p:
            self.walk(rest, done + 1, d1, p, d2 + damage, w, new_lim, 0, resolved + v)
        else:
            self.walk(rest, done + 1, d1 + damage, p, d2, w, new_lim, 0, resolved + v)


def _undominated(found: dict[tuple, tuple]) -> list[tuple]:
    """The plans found (``(carried, d1, p, d2, weapon, limit, last_potion)`` -> steps) that no other plan leading
    to the same card left and clear bonus beats: one that leaves at least as much health from every starting
    health (no more damage before and after the potion, no less net health) and as good a weapon and limit."""
    groups: dict[tuple[int, int], list[tuple]] = {}
    for key, steps in found.items():
        carried, d1, p, d2, weapon, limit, last = key
        # Lower is better in each of the first five: net damage, damage before and after the potion, weapon, limit.
        groups.setdefault((carried, last), []).append((d1 + d2 - p, d1, d2, -weapon, -limit, key, steps))
    kept = []
    for group in groups.values():
        # Most promising first, so a plan is only compared with the plans already kept.
        group.sort(key=_numbers)
        chosen: list[tuple[int, int, int, int, int]] = []
        for net, d1, d2, weapon, limit, key, steps in group:
            for c_net, c_d1, c_d2, c_weapon, c_limit in chosen:
                if c_d1 <= d1 and c_d2 <= d2 and c_net <= net and c_weapon <= weapon and c_limit <= limit:
                    break
            else:
                chosen.append((net, d1, d2, weapon, limit))
                kept.append(key + (steps,))  # a Plan's fields
    return kept


_numbers = itemgetter(0, 1, 2, 3, 4)
