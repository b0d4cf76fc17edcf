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

from .deal import NO_LIMIT, POTION_K, WEAPON_K, Deal

RESOLVE_ALL = -1  # ``carried`` of a plan that resolves every card (the final room)

# The walk keeps its states and plans in fixed tables (C arrays when compiled: no Python objects per state).
# A room of MAX_CARDS cards has at most 633 states (every order, each monster fought two ways) and 384 plans.
MAX_CARDS = 4
MAX_PLANS = 384
MAX_GROUPS = 20  # plans by (card left, clear bonus): one of MAX_CARDS cards, and no potion or one of the others
SEEN_SLOTS = 1021  # a prime above the states: open addressing, key modulo the size
SPARE_BITS = sum(256 << 9 * field for field in range(5))  # the top bit of each 9-bit field of a plan's rank


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
    if len(room) > MAX_CARDS:
        raise ValueError(f"a room holds at most {MAX_CARDS} cards, not {len(room)}")
    walk = _Walk(deal, room, resolve_all, keep_last, deaths)
    walk.walk((1 << len(room)) - 1, 0, 0, 0, 0, weapon, limit, 0, 0, 0)
    return walk.undominated(), list(walk.deaths.values()) if deaths else []


class _Walk:
    """Every order of facing a room, card by card, with what each does to health, weapon and limit.

    A state (the cards not yet faced, as a bit mask over the room's places, and the numbers so far) is one
    integer of eight 8-bit fields, and the order followed so far (``path``) one integer of three bits a step (the
    place, and 4 for "with the weapon"): the walk makes no Python object per state, and steps are spelled out
    only for the plans kept and the deaths.
    """

    def __init__(self, deal: Deal, room: tuple[int, ...], resolve_all: bool, keep_last: bool, deaths: bool) -> None:
        self.cards = room
        self.n = len(room)
        # The literal sizes (MAX_CARDS, SEEN_SLOTS, MAX_PLANS) let Cython fill its C arrays by a copy.
        self.kinds = [0, 0, 0, 0]
        self.values = [0, 0, 0, 0]
        for i in range(self.n):
            self.kinds[i] = deal.kind[room[i]]
            self.values[i] = deal.value[room[i]]
        self.plain = [(card, False) for card in room]  # a path's steps: (card, with weapon)
        self.armed = [(card, True) for card in room]
        self.step = deal.limit_step
        self.target = len(room) if resolve_all else len(room) - 1
        self.resolve_all, self.keep_last = resolve_all, keep_last
        self.deaths: dict[tuple, tuple] | None = {} if deaths else None  # None: not asked for
        self.seen = [0] * 1021  # SEEN_SLOTS: a hash set of the states reached (state + 1; 0: a free slot)
        self.found = [0] * 384  # MAX_PLANS: the plans found in order, each the state that ends it less ``resolved``
        self.paths = [0] * 384  # MAX_PLANS: and the first order that reached it
        self.n_found = 0

    def walk(self, left: int, done: int, d1: int, p: int, d2: int, w: int, lim: int, last: int, resolved: int,
             path: int) -> None:
        # Orders that reach the same cards left and the same numbers go on alike: walk on from one of them. ``seen``
        # is a hash set by open addressing: state + 1 in the first free slot (0) from state modulo its size.
        if not self.keep_last:
            last = 0
        here = (((((((left << 8) + d1 << 8) + p << 8) + d2 << 8) + w << 8) + lim << 8) + last << 8) + resolved
        at = here % SEEN_SLOTS
        while self.seen[at]:
            if self.seen[at] == here + 1:
                return
            at = at + 1 if at + 1 < SEEN_SLOTS else 0
        self.seen[at] = here + 1
        if done == self.target:
            # A plan: the state without ``resolved`` (the card left is the one bit of ``left``). A new one, as the
            # monsters faced (``left``) fix ``resolved``: no other state leads to the same plan.
            self.found[self.n_found] = here >> 8
            self.paths[self.n_found] = path
            self.n_found += 1
            return
        for i in range(self.n):
            if not left >> i & 1:
                continue
            rest = left & ~(1 << i)
            k, v = self.kinds[i], self.values[i]
            here_path = path | i << 3 * done
            if k == WEAPON_K:
                self.walk(rest, done + 1, d1, p, d2, v, NO_LIMIT, 0, resolved, here_path)
            elif k == POTION_K:
                self.walk(rest, done + 1, d1, p or v, d2, w, lim, v, resolved, here_path)
            else:
                self._fight(rest, done, d1, p, d2, w, resolved, v, v, lim, here_path)
                if w and v < lim:
                    self._fight(rest, done, d1, p, d2, w, resolved, v, max(0, v - w), v + self.step,
                                here_path | 4 << 3 * done)

    def _fight(self, rest: int, done: int, d1: int, p: int, d2: int, w: int, resolved: int, v: int, damage: int,
               new_lim: int, path: int) -> None:
        if damage and self.deaths is not None:
            key = (d1, p, d2, damage)
            old = self.deaths.get(key)
            if old is None or old[4] < resolved + v:  # Death.resolved
                self.deaths[key] = (d1, p, d2, damage, resolved + v, self.steps(path, done + 1))
        if p:
            self.walk(rest, done + 1, d1, p, d2 + damage, w, new_lim, 0, resolved + v, path)
        else:
            self.walk(rest, done + 1, d1 + damage, p, d2, w, new_lim, 0, resolved + v, path)

    def steps(self, path: int, count: int) -> tuple[tuple[int, bool], ...]:
        """The first ``count`` steps of ``path``: (card, with weapon)."""
        steps = []
        for done in range(count):
            step = path >> 3 * done & 7
            steps.append(self.armed[step & 3] if step & 4 else self.plain[step & 3])
        return tuple(steps)

    def undominated(self) -> list[tuple]:
        """The plans found that no other plan leading to the same card left and clear bonus beats: one that leaves
        at least as much health from every starting health (no more damage before and after the potion, no less
        net health) and as good a weapon and limit. Groups in the order first found; in a group, the most
        promising first (a plan is then only compared with the plans already kept)."""
        n = self.n_found
        # Group each plan by (card left, clear bonus), counting the members.
        group_keys = [0] * 20  # MAX_GROUPS
        sizes = [0] * 20  # MAX_GROUPS
        group_of = [0] * 384  # MAX_PLANS
        n_groups = 0
        for j in range(n):
            key = (self.found[j] >> 48) << 8 | self.found[j] & 255  # left, last
            g = 0
            while g < n_groups and group_keys[g] != key:
                g += 1
            if g == n_groups:
                group_keys[g] = key
                n_groups += 1
            group_of[j] = g
            sizes[g] += 1
        # Each group's plans together, sorted by rank: lower is better in net damage, damage before and after the
        # potion, minus weapon, minus limit (9 bits each: 8 and a spare top bit; two plans of a group never tie,
        # they would be one plan), then the plan's number (9 bits), to find it back.
        starts = [0] * 21  # MAX_GROUPS + 1
        for g in range(n_groups):
            starts[g + 1] = starts[g] + sizes[g]
            sizes[g] = 0
        order = [0] * 384  # MAX_PLANS: ranks
        for j in range(n):
            plan = self.found[j]
            d1, p, d2 = plan >> 40 & 255, plan >> 32 & 255, plan >> 24 & 255
            rank = ((((d1 + d2 - p + 128 << 9 | d1) << 9 | d2) << 9 | 255 - (plan >> 16 & 255)) << 9
                    | 255 - (plan >> 8 & 255)) << 9 | j
            g = group_of[j]
            at = starts[g] + sizes[g]
            sizes[g] += 1
            while at > starts[g] and order[at - 1] > rank:  # insertion sort: groups are small
                order[at] = order[at - 1]
                at -= 1
            order[at] = rank
        # A plan is beaten by a kept one whose every field is no larger: the spare bits set in one rank stay set
        # after subtracting the other only if no field of the other is larger (no field borrows from the next).
        kept = []
        for g in range(n_groups):
            chosen = starts[g]  # the group's plans kept so far, moved to the front of its range
            for at in range(starts[g], starts[g + 1]):
                fields = order[at] >> 9 | SPARE_BITS
                c = starts[g]
                while c < chosen and fields - (order[c] >> 9) & SPARE_BITS != SPARE_BITS:
                    c += 1
                if c == chosen:
                    order[chosen] = order[at]
                    chosen += 1
                    kept.append(self.plan(order[at] & 511))
        return kept

    def plan(self, j: int) -> tuple:
        """Found plan ``j`` with its steps, in the fields' order of ``Plan``."""
        plan = self.found[j]
        carried = RESOLVE_ALL
        if not self.resolve_all:
            i = 0
            while not plan >> 48 + i & 1:  # the one card left
                i += 1
            carried = self.cards[i]
        return (carried, plan >> 40 & 255, plan >> 32 & 255, plan >> 24 & 255, plan >> 16 & 255, plan >> 8 & 255,
                plan & 255, self.steps(self.paths[j], self.target))


def plan_groups(plans: list[tuple], card_class: list[int]) -> list[tuple]:
    """Plans by where they lead: (carried, weapon, limit, [(d1, p, d2), …]). Plans that carry a card just like
    another's (the same kind and value) join its group: they lead to the same situation."""
    if len(plans) > MAX_PLANS:
        raise ValueError(f"at most {MAX_PLANS} plans, not {len(plans)}")
    # Where each group leads as one number, so that finding a plan's group builds no tuple.
    leads = [0] * 384  # MAX_PLANS
    groups: list[tuple] = []
    for plan in plans:
        carried, d1, p, d2, weapon, limit = plan[0], plan[1], plan[2], plan[3], plan[4], plan[5]
        kind_value = card_class[carried]
        lead = (kind_value << 8 | weapon) << 8 | limit
        g = 0
        while g < len(groups) and leads[g] != lead:
            g += 1
        if g == len(groups):
            leads[g] = lead
            groups.append((carried, weapon, limit, []))
        numbers = (d1, p, d2)
        if numbers not in groups[g][3]:
            groups[g][3].append(numbers)
    return groups
