"""The exact search: depth-first over turns, with a transposition table, dominance and an upper bound.

A turn starts (before the room is filled) in a situation ``(pos, queue, carried, avoided)``: the dungeon is
the deal from position ``pos`` on followed by ``queue``, the avoided cards put under it; ``carried`` is the
card left from the last room (-1: none); ``avoided`` says the last turn was an avoid. What the player holds
is ``(health, weapon, limit)``: the weapon's value (0: none) and the monster values it may still hit (below
``limit``). Nothing else matters for the rest of the game.

``value(…, alpha)`` is fail-soft: it returns the exact best score when that is above ``alpha``, otherwise a
number between the best score and ``alpha`` (an upper bound). The table remembers both kinds, and an entry
answers for any situation it dominates: the same cards with no more health, no better weapon and no looser
limit cannot score more.
"""

from __future__ import annotations

from tests.solver.reference_solver.deal import Deal, top_two
from tests.solver.reference_solver.rooms import Plan, dies, health_after, room_options

ROOM_SIZE = 4
LOST = -10**6  # below every score: "nothing found yet"
AVOID = -2  # in place of a carried card: the room was avoided


class Search:
    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.nodes = 0
        self._table: dict[tuple, list[tuple[int, int, int, int, bool]]] = {}
        self._rooms: dict[tuple, tuple[list[Plan], list]] = {}
        self._queue_facts: dict[tuple, tuple] = {}
        self._remaining: dict[tuple, list] = {}

    # --- the dungeon -----------------------------------------------------------------------
    def fill(self, pos: int, queue: tuple, carried: int) -> tuple[tuple[int, ...], int, tuple]:
        """The room after filling, and the dungeon left: (room, pos, queue)."""
        n = self.deal.n
        room = (carried,) if carried >= 0 else ()
        take = min(ROOM_SIZE - len(room), n - pos)
        room += tuple(range(pos, pos + take))
        pos += take
        need = ROOM_SIZE - len(room)
        if need and queue:
            room += queue[:need]
            queue = queue[need:]
        return room, pos, queue

    def _facts(self, cards: tuple) -> tuple:
        """(monster sum, potion sum, top potion, two top weapons, top monster, monsters by value) of some cards."""
        found = self._queue_facts.get(cards)
        if found is None:
            kind, value = self.deal.kind, self.deal.value
            counts = [0] * 16
            potions, weapons = [0], (0, 0)
            for c in cards:
                if kind[c] == 0:
                    counts[value[c]] += 1
                elif kind[c] == 1:
                    weapons = top_two(weapons, value[c])
                else:
                    potions.append(value[c])
            monsters = [v for v in range(16) for _ in range(counts[v])]
            found = (sum(monsters), sum(potions), max(potions), weapons, max(monsters, default=0), tuple(counts))
            self._queue_facts[cards] = found
        return found

    def dungeon_monsters(self, pos: int, queue: tuple) -> int:
        return self.deal.suffix_monsters[pos] + self._facts(queue)[0]

    def remaining(self, pos: int, queue: tuple, carried: int) -> list:
        """Facts about every card not yet resolved in a situation (the same before and after the fill):
        [potion sum, top potion, two top weapons, monsters by value, top monster, damage bounds by weapon]."""
        key = (pos, queue, carried)
        found = self._remaining.get(key)
        if found is None:
            d = self.deal
            rest = self._facts(queue)
            here = self._facts((carried,) if carried >= 0 else ())
            r1, r2 = d.suffix_weapons[pos]
            for v in rest[3] + here[3]:
                if v > r2:
                    r1, r2 = (v, r1) if v > r1 else (r1, v)
            counts = [a + b + c for a, b, c in zip(d.suffix_counts[pos], rest[5], here[5], strict=True)]
            top_monster = max(d.suffix_monster_max[pos], rest[4], here[4])
            if d.early_end:
                _drop_strongest(counts, 3)  # up to 3 cards are never played
            found = self._remaining[key] = [
                d.suffix_potions[pos] + rest[1] + here[1], max(d.suffix_potion_max[pos], rest[2], here[2]),
                r1, r2, counts, top_monster, {}]
        return found

    def upper_bound(self, facts: list, h: int, w: int, lim: int) -> int:
        """No line from here scores more than this; deaths score at most 0.

        Health at the end is at most ``h`` plus every potion left minus the least damage the monsters left can
        do. That damage assumes each monster meets the best weapon that could reach it, where a weapon kills
        at most one monster of each value (its kills must fall strictly; under "lower or equal" it may repeat).
        """
        potions, top_potion, r1, r2, counts, _, damages = facts
        damage = damages.get((w, lim))
        if damage is None:
            damage = damages[(w, lim)] = self._least_damage(r1, r2, counts, w, lim)
        best_health = h + potions - damage
        max_health = self.deal.max_health
        if best_health <= 0:
            return 0  # no clear is possible; a death scores at most 0
        if best_health >= max_health and top_potion:
            return max_health + top_potion
        return best_health if best_health < max_health else max_health

    def _least_damage(self, r1: int, r2: int, counts: list[int], w: int, lim: int) -> int:
        repeat = self.deal.limit_step  # lower-or-equal: one weapon may kill both monsters of a value
        damage = 0
        for v in range(1, 16):
            c = counts[v]
            if not c:
                continue
            a1, a2 = r1, r2
            if w and v < lim and w > a2:
                a1, a2 = (w, a1) if w > a1 else (a1, w)
            damage += v - (a1 if a1 < v else v)
            if c > 1:
                second = a1 if repeat else a2
                damage += (c - 1) * (v - (second if second < v else v))
        return damage

    # --- the search ----------------------------------------------------------------------------
    def value(self, pos: int, queue: tuple, carried: int, avoided: bool, h: int, w: int, lim: int,
              alpha: int) -> int:
        self.nodes += 1
        key = (pos, queue, carried, avoided)
        entries = self._table.get(key)
        floor = LOST
        if entries:
            for eh, ew, el, ev, exact in entries:
                if eh >= h and ew >= w and el >= lim:
                    if ev <= alpha:
                        return ev
                    if exact and eh == h and ew == w and el == lim:
                        return ev
                if exact and eh <= h and ew <= w and el <= lim and ev > floor:
                    floor = ev
        ceiling = self.upper_bound(self.remaining(pos, queue, carried), h, w, lim)
        if floor >= ceiling:
            self._remember(key, h, w, lim, floor, True)
            return floor
        if ceiling <= alpha:
            return ceiling
        # The score is at least ``floor``, so searching above floor - 1 is exact.
        bar = max(alpha, floor - 1)
        room, pos2, queue2 = self.fill(pos, queue, carried)
        empty_after = pos2 == self.deal.n and not queue2
        best = self._best(room, pos2, queue2, empty_after, avoided, h, w, lim, bar, ceiling)
        if floor > best:  # pragma: no cover - a floor is a proven score, the search cannot find less
            best = floor
        self._remember(key, h, w, lim, best, best > bar)
        return best

    def _remember(self, key, h, w, lim, v, exact) -> None:
        entries = self._table.get(key)
        if entries is None:
            self._table[key] = [(h, w, lim, v, exact)]
            return
        for i, (eh, ew, el, _, _) in enumerate(entries):
            if eh == h and ew == w and el == lim:  # a later search of the same situation knows more
                entries[i] = (h, w, lim, v, exact)
                return
        entries.append((h, w, lim, v, exact))

    def _best(self, room, pos2, queue2, empty_after, avoided, h, w, lim, alpha, ceiling) -> int:
        """The best score over every choice in this room (fail-soft, like ``value``)."""
        d = self.deal
        best = LOST
        final = empty_after and not d.early_end
        if alpha < 0:
            best = self.best_death(room, pos2, queue2, h, w, lim, final)[0]
        elif self._can_die(room):
            best = 0  # deaths were not looked at: they score at most 0, which is within alpha
        if final:
            return max(best, self.final_score(room, h, w, lim)[0])
        children = []
        max_health = d.max_health
        terminal_next = d.early_end and 1 + (d.n - pos2) + len(queue2) < ROOM_SIZE
        bound = self.upper_bound
        for plan in self.plans(room, w, lim, False):
            h2 = health_after(plan.d1, plan.p, plan.d2, h, max_health)
            if h2 <= 0:
                continue
            if terminal_next:
                score = h2 + (plan.last_potion if h2 == max_health else 0)
                if score > best:
                    best = score
                continue
            nxt = self.child(room, pos2, queue2, plan.carried, h2, plan.weapon, plan.limit)
            children.append((bound(self.remaining(pos2, queue2, plan.carried), h2, nxt[5], nxt[6]),
                             h2 * 4 + plan.weapon, nxt))
        if not avoided and not empty_after:
            nxt = self.child(room, pos2, queue2, AVOID, h, w, lim)
            children.append((bound(self.remaining(pos2, nxt[1], -1), h, w, nxt[6]), (h - 5) * 4 + w, nxt))
        # Most promising first: the highest bound, then the most health.
        children.sort(key=_promise, reverse=True)
        for child_bound, _, nxt in children:
            if best >= ceiling:
                break
            if child_bound <= best or child_bound <= alpha:
                # This child cannot beat what is known; its bound is all it adds to a fail-low answer.
                if child_bound > best:
                    best = child_bound
                continue
            v = self.value(*nxt, max(alpha, best))
            if v > best:
                best = v
        return best

    def child(self, room, pos2, queue2, carried, h2, w2, lim2) -> tuple:
        """The next situation's arguments for ``value`` (all but alpha); ``carried == AVOID`` for an avoid."""
        if carried == AVOID:
            queue2 = queue2 + room
            return pos2, queue2, -1, True, h2, w2, self._limit(lim2, pos2, queue2, -1)
        return pos2, queue2, carried, False, h2, w2, self._limit(lim2, pos2, queue2, carried)

    def _limit(self, lim: int, pos: int, queue: tuple, carried: int) -> int:
        """A limit above every monster left is as good as no limit: merge those situations."""
        if lim == 0:
            return 0
        top = self.remaining(pos, queue, carried)[5] + 1
        return lim if lim < top else top

    def _can_die(self, room) -> bool:
        return self._facts(room)[0] > 0

    # --- rooms -----------------------------------------------------------------------------------
    def plans(self, room, w, lim, resolve_all: bool) -> list[Plan]:
        return self._options(room, w, lim, resolve_all)[0]

    def _options(self, room, w, lim, resolve_all):
        key = (tuple(sorted(room)), w, lim, resolve_all)
        found = self._rooms.get(key)
        if found is None:
            keep_last = resolve_all or self.deal.early_end
            found = self._rooms[key] = room_options(self.deal, key[0], w, lim, resolve_all, keep_last)
        return found

    def final_score(self, room, h, w, lim) -> tuple[int, Plan | None]:
        """The best clear of the final room (every card resolved), or (LOST, None)."""
        max_health = self.deal.max_health
        best, chosen = LOST, None
        for plan in self.plans(room, w, lim, True):
            h2 = health_after(plan.d1, plan.p, plan.d2, h, max_health)
            if h2 > 0:
                score = h2 + (plan.last_potion if h2 == max_health else 0)
                if score > best:
                    best, chosen = score, plan
        return best, chosen

    def best_death(self, room, pos2, queue2, h, w, lim, final: bool):
        """The best score of dying in this room, and how: (score, Death) or (LOST, None)."""
        d = self.deal
        best, chosen = -1, None
        for death in self._options(room, w, lim, final)[1]:
            if death.resolved > best and dies(death, h, d.max_health):
                best, chosen = death.resolved, death
        if chosen is None:
            return LOST, None
        left = self.dungeon_monsters(pos2, queue2)
        if d.room_counts_at_death:
            left += self._facts(room)[0] - chosen.resolved
        return -left, chosen


def _drop_strongest(counts: list[int], k: int) -> None:
    for v in range(len(counts) - 1, 0, -1):
        while counts[v] and k:
            counts[v] -= 1
            k -= 1


def _promise(child: tuple) -> tuple[int, int]:
    return child[0], child[1]
