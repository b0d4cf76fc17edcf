"""The exact search: depth-first over turns, with a transposition table, dominance and an upper bound.

A turn starts (before the room is filled) in a situation ``(pos, queue, carried, avoided)``: the dungeon is
the deal from position ``pos`` on followed by ``queue``, the avoided cards put under it; ``carried`` is the
card left from the last room (-1: none); ``avoided`` says the last turn was an avoid. What the player holds
is ``(health, weapon, limit)``: the weapon's value (0: none) and the monster values it may still hit (below
``limit``). Nothing else matters for the rest of the game.

``test(…, t)`` asks "can this situation score at least t?" and is fail-soft: a result ``>= t`` is a score some
line reaches, a result ``< t`` is a score no line beats. The table remembers both, and an entry answers for any
situation it dominates: the same cards with no more health, no better weapon and no looser limit cannot score
more (and with more of each, no less). ``exact`` finds the best score from a few such tests (``narrow``).

The hot loop works on situation numbers (``_id``) and precomputed facts of the cards left, so a child's bound
is a few additions; the cyclic garbage collector is paused around a search (``gc_paused``).
"""

from __future__ import annotations

import gc
from bisect import bisect_right
from collections.abc import Iterator
from contextlib import contextmanager
from operator import itemgetter

from .deal import MONSTER_K, NO_LIMIT, WEAPON_K, Deal
from .rooms import Death, Plan, dies, health_after, plan_groups, room_options

ROOM_SIZE = 4
LOST = -10**6  # below every score: "nothing found yet"
HIGH = 10**6  # above every score: "no upper bound known"
AVOID = -2  # in place of a carried card: the room was avoided
# The least-damage tables depend only on the two best weapons left, the weapon held, its limit (at most 16 counts) and
# the rules' limit step: one list for the process, indexed by those numbers (no hashing; every search shares them).
# Card values are at most 15, as the monster counts packed 4 bits a value already assume.
_DAMAGE_STEP = 16 * 16 * 16 * 17
_DAMAGE_TABLES: list = [None] * (2 * _DAMAGE_STEP)
PROMISE = 1 << 14  # a child's bound weighs more than its uncapped bound * 4 + weapon can add (|that| < 4,000)


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a search runs: the search builds hundreds of thousands of lasting
    containers (its table) and no cycles, so the collector's repeated passes over them only cost time (a third
    of it). Memory is still freed by reference counting. Callers free the search inside the pause when they can,
    so the first collection afterwards does not walk its table.

    What the pause made and kept (a coach keeps the searches of several orders) would all be young, and the first
    collection afterwards would walk every object of it (as long again as the search, on a fair hint): so it is
    handed to the oldest generation first (``gc.freeze`` then ``gc.unfreeze``, which moves lists, not objects),
    where only the rare full collections look."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.freeze()
            gc.unfreeze()
            gc.enable()


class Search:
    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.max_health = deal.max_health
        # What the hot loop reads of the deal, kept here: compiled, a typed field of the search is one load.
        self.n, self.early_end, self.room_counts_at_death = deal.n, deal.early_end, deal.room_counts_at_death
        self.kind, self.value, self.card_class = deal.kind, deal.value, deal.card_class
        self.suffix_monsters, self.suffix_packed, self.suffix_weapons = (deal.suffix_monsters, deal.suffix_packed,
                                                                         deal.suffix_weapons)
        self.suffix_potions, self.suffix_potion_max, self.suffix_monster_max = (deal.suffix_potions,
                                                                                deal.suffix_potion_max,
                                                                                deal.suffix_monster_max)
        self.nodes = 0
        # Situations by number: (pos, queue, carried) is interned once, so the hot loop hashes small ints only.
        self._ids: dict[int | tuple, int] = {}
        self._alike: dict[int | tuple, int] = {}  # the same, by kinds and values of the cards
        self._where: list[tuple] = []  # id -> its turn's (room, pos, queue) after the fill
        self._facts_of: list[list] = []  # id -> remaining(...)
        self._turns: list[tuple | None] = []  # id -> the room it deals and where each choice leads
        self._table: list[list[list[int]] | None] = []  # 2 * id + avoided -> entries (as ``_turns``: by number)
        self._rooms: dict[tuple, tuple[list[tuple], list[tuple]]] = {}
        self._deaths_in: dict[tuple, list[tuple]] = {}
        self._queue_facts: dict[tuple, tuple] = {}
        self._death: dict[tuple, tuple] = {}
        self._damage_tables = _DAMAGE_TABLES  # shared by every search of the process (see ``_least_damage``)
        self._damage_base = deal.limit_step * _DAMAGE_STEP

    def release(self, items: int) -> bool:
        """Free up to ``items`` of what the search holds, a few at a time (its table can take tenths of a second to
        free at once); True once all of it is freed. The search must not be used again."""
        for box in (self._table, self._turns, self._facts_of, self._where, self._ids, self._alike, self._rooms,
                    self._deaths_in, self._queue_facts, self._death):
            while box:
                if items <= 0:
                    return False
                if isinstance(box, dict):
                    box.popitem()
                else:
                    box.pop()
                items -= 1
        return True

    # --- what a position asks (the C search, ``_exact.c``, answers the same) -----------------------------------
    def ceiling(self, pos: int, queue: tuple, carried: int, h: int, w: int, lim: int) -> int:
        """``upper_bound`` of a turn start."""
        return self.upper_bound(self.remaining(pos, queue, carried), h, w, lim)

    def limit(self, lim: int, pos: int, queue: tuple, carried: int) -> int:
        return self._limit(lim, pos, queue, carried)

    def size(self) -> int:
        """How many situations the search has met (its table grows with them)."""
        return len(self._where)

    # --- the dungeon -----------------------------------------------------------------------
    def fill(self, pos: int, queue: tuple, carried: int) -> tuple[tuple[int, ...], int, tuple]:
        """The room after filling, and the dungeon left: (room, pos, queue)."""
        n = self.n
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
            kind, value = self.kind, self.value
            counts = [0] * 16
            monster_sum = potion_sum = top_potion = top_monster = w1 = w2 = 0
            packed, one = 0, 1  # 4 bits a value (``one``: 64 bits when compiled, so the shift does not wrap)
            for c in cards:
                k, v = kind[c], value[c]
                if k == 0:
                    counts[v] += 1
                    monster_sum += v
                    packed += one << (4 * v)
                    if v > top_monster:
                        top_monster = v
                elif k == 1:
                    if v > w1:
                        w1, w2 = v, w1
                    elif v > w2:
                        w2 = v
                else:
                    potion_sum += v
                    if v > top_potion:
                        top_potion = v
            found = (monster_sum, potion_sum, top_potion, (w1, w2), top_monster, tuple(counts), packed)
            self._queue_facts[cards] = found
        return found

    def dungeon_monsters(self, pos: int, queue: tuple) -> int:
        return self.suffix_monsters[pos] + self._facts(queue)[0]

    def _id(self, pos: int, queue: tuple, carried: int, facts: list | None = None) -> int:
        # Before any avoid the queue is empty: the key is then one small int, hashed at once (a tuple otherwise; a
        # deal has fewer than 256 cards, so 8 bits hold ``carried + 1``).
        key = (pos << 8) + carried + 1 if not queue else (pos, queue, carried)
        found = self._ids.get(key)
        if found is None:
            # A turn is what the fill leaves: the room (in order: an avoid puts it under the dungeon so) and the
            # dungeon after. Situations that fill alike are one situation (the first one met stands for all): those
            # whose cards differ only in which of the cards of one kind and value lies where, and those that split
            # the same dungeon differently into the deal's untouched end and the cards put under it.
            cls = self.card_class
            room, pos2, queue2 = self.fill(pos, queue, carried)
            if pos2 == self.n and queue2:
                first = queue2[0]
                if queue2[: self.n - first] == tuple(range(first, self.n)):
                    pos2, queue2 = first, queue2[self.n - first:]  # the untouched end, as the search writes it
            if queue2:
                same = (tuple([cls[c] for c in room]), pos2, tuple([cls[c] for c in queue2]))
            else:  # the room's classes as digits (each one more than the class: the length shows), then pos2
                code = 0
                for c in room:
                    code = (code << 8) + cls[c] + 1
                same = (code << 8) + pos2
            found = self._alike.get(same)
            if found is None:
                found = self._alike[same] = len(self._where)
                self._where.append((room, pos2, queue2))
                self._facts_of.append(facts or self._remaining_facts(pos, queue, carried))
                self._turns.append(None)
                self._table += (None, None)  # not avoided, avoided
            self._ids[key] = found
        return found

    def remaining(self, pos: int, queue: tuple, carried: int) -> list:
        """Facts about every card not yet resolved in a situation (the same before and after the fill):
        [potion sum, top potion, two top weapons, monsters by value, top monster, monsters by value again (the
        death bound's)]."""
        return self._facts_of[self._id(pos, queue, carried)]

    def _remaining_facts(self, pos: int, queue: tuple, carried: int) -> list:
        rest = self._facts(queue)
        r1, r2 = self.suffix_weapons[pos]
        for v in rest[3]:
            if v > r2:
                r1, r2 = (v, r1) if v > r1 else (r1, v)
        counts = self.suffix_packed[pos] + rest[6]  # 4 bits a value: sums never carry
        top_monster = self.suffix_monster_max[pos]
        if rest[4] > top_monster:
            top_monster = rest[4]
        top_potion = self.suffix_potion_max[pos]
        if rest[2] > top_potion:
            top_potion = rest[2]
        facts = [self.suffix_potions[pos] + rest[1], top_potion, r1, r2, counts, top_monster, counts]
        if carried >= 0:
            facts = self._with_card(facts, carried)
        return facts

    def _with_card(self, facts: list, card: int) -> list:
        """``facts`` with one more card."""
        k, v = self.kind[card], self.value[card]
        potions, top_potion, r1, r2, counts, top_monster, all_counts = facts
        if k == MONSTER_K:
            counts = all_counts = counts + (1 << (4 * v))
            if v > top_monster:
                top_monster = v
        elif k == WEAPON_K:
            if v > r2:
                r1, r2 = (v, r1) if v > r1 else (r1, v)
        else:
            potions += v
            if v > top_potion:
                top_potion = v
        return [potions, top_potion, r1, r2, counts, top_monster, all_counts]

    def upper_bound(self, facts: list, h: int, w: int, lim: int, deaths: bool = True) -> int:
        """No line from here scores more than this.

        Health at the end is at most ``h`` plus every potion left minus the least damage the monsters left can
        do. That damage assumes each monster meets the best weapon that could reach it, where a weapon kills
        at most one monster of each value (its kills must fall strictly; under "lower or equal" it may repeat).
        When that leaves no health, only deaths remain: ``death_bound`` (or 0 if ``deaths`` is False, when
        the caller only needs to know that no clear is possible).
        """
        return self._capped(facts, h + self._gain(facts, w, lim), h, w, lim, deaths)

    def _capped(self, facts: list, best_health: int, h: int, w: int, lim: int, deaths: bool) -> int:
        """``upper_bound`` from the best health at the end (``h`` plus ``_gain``), which the search also uses
        uncapped to order its choices."""
        if best_health <= 0:
            return self.death_bound(facts, h, w, lim) if deaths else 0
        if best_health >= self.max_health:
            return self.max_health + facts[1]  # the potion bonus needs full health (top potion 0: none left)
        return best_health

    def death_bound(self, facts: list, h: int, w: int, lim: int) -> int:
        """No death from here scores more than this (a death scores minus the monsters left behind).

        Every monster resolved before the killer was survived, so their damage adds up to less than ``h`` plus the
        potions left; each does at least its least damage (as in ``upper_bound``). The most monster value that
        budget can resolve is at most a fractional knapsack's; the killer, and under dungeon-only scoring the
        up to three monsters left unresolved in the last room, leave the dungeon too: at most the strongest four.
        """
        key = (facts[6], facts[2], facts[3], w, lim)
        found = self._death.get(key)
        if found is None:
            found = self._death[key] = self._death_items(facts[2], facts[3], _unpack(facts[6]), w, lim)
        total, reach, weights, values, ratios = found
        budget = h - 1 + facts[0]
        if budget >= weights[-1]:
            return 0
        i = bisect_right(weights, budget) - 1  # weights and values are prefix sums, best ratio first
        reach += values[i] + int((budget - weights[i]) * ratios[i + 1])
        return reach - total if reach < total else 0

    def _death_items(self, r1: int, r2: int, counts, w: int, lim: int) -> tuple:
        repeat = self.deal.limit_step
        total = free = 0
        items, monsters = [], []
        for v in range(1, 16):
            c = counts[v]
            if not c:
                continue
            a1, a2 = r1, r2
            if w and v < lim and w > a2:
                a1, a2 = (w, a1) if w > a1 else (a1, w)
            second = a1 if repeat else a2
            for i in range(c):
                a = a1 if i == 0 else second
                total += v
                monsters.append(v)
                if a >= v:
                    free += v
                else:
                    items.append((v / (v - a), v - a, v))
        items.sort(reverse=True)
        weights, values, ratios = [0], [0], [0.0]
        for ratio, dv, v in items:
            weights.append(weights[-1] + dv)
            values.append(values[-1] + v)
            ratios.append(ratio)
        monsters.sort(reverse=True)
        free += sum(monsters[: 1 if self.deal.room_counts_at_death else ROOM_SIZE])
        return total, free, weights, values, ratios

    def _least_damage(self, r1: int, r2: int, packed: int, w: int, lim: int) -> int:
        """The least damage of the monsters counted in ``packed`` (see ``upper_bound``). When the game ends early,
        up to 3 cards are never played: the 3 monsters whose damage counts the most are left out (a value's other
        monsters count at least as much as its first, so the 3 largest shares can be left out together)."""
        if lim > 16:
            lim = 16  # above every monster value (at most 15): the same table
        i = self._damage_base + ((r1 * 16 + r2) * 16 + w) * 17 + lim
        table = self._damage_tables[i]
        if table is None:
            table = self._damage_tables[i] = self._damage_table(r1, r2, w, lim)
        damage, v = 0, 0
        shares = []
        while packed:
            c = packed & 15
            if c:
                damage += table[v] + (c - 1) * table[16 + v]
                if self.early_end:
                    shares += [table[16 + v]] * min(c - 1, 3) + [table[v]]
            packed >>= 4
            v += 1
        if shares:
            shares.sort(reverse=True)
            damage -= sum(shares[:3])
        return damage

    def _damage_table(self, r1: int, r2: int, w: int, lim: int) -> bytes:
        """Per monster value: the least damage of the first monster of that value (``[v]``), and of each other one
        (``[16 + v]``)."""
        repeat = self.deal.limit_step  # lower-or-equal: one weapon may kill both monsters of a value
        first, more = [0] * 16, [0] * 16
        for v in range(1, 16):
            a1, a2 = r1, r2
            if w and v < lim and w > a2:
                a1, a2 = (w, a1) if w > a1 else (a1, w)
            first[v] = v - (a1 if a1 < v else v)
            second = a1 if repeat else a2
            more[v] = v - (second if second < v else v)
        return bytes(first + more)

    # --- the search ----------------------------------------------------------------------------
    def test(self, pos: int, queue: tuple, carried: int, avoided: bool, h: int, w: int, lim: int, t: int) -> int:
        """Can the situation score at least ``t``? Fail-soft: a result ``>= t`` is a score some line reaches
        (a lower bound of the best), a result ``< t`` is an upper bound of the best."""
        return self._test(self._id(pos, queue, carried), avoided, h, w, lim, t)

    def proven(self, pos: int, queue: tuple, carried: int, avoided: bool, h: int, w: int, lim: int, t: int) -> bool:
        """Whether the table already shows that the situation scores at least ``t``, without searching. After a
        test passed, the child it passed through is proven: walking down a line asks this first, so it never
        searches the siblings the test did not need to look at."""
        entries = self._table[2 * self._id(pos, queue, carried) + avoided]
        if entries is not None:
            for e in entries:
                if e[3] >= t and e[0] <= h and e[1] <= w and e[2] <= lim:
                    return True
        return False

    def exact(self, situation: tuple, top: int | None = None) -> int:
        """The best score of a turn start, from "at least t?" tests (see ``narrow``), starting at the upper bound
        (or ``top``, a known upper bound)."""
        t = self.upper_bound(self.remaining(*situation[:3]), *situation[4:])
        if top is not None and top < t:
            t = top
        return narrow(lambda t: self.test(*situation, t), t)

    def _test(self, sid: int, avoided: bool, h: int, w: int, lim: int, t: int) -> int:
        self.nodes += 1
        key = sid + sid + avoided
        entries = self._table[key]
        if entries is not None:
            lo, hi = LOST, HIGH
            for e in entries:
                eh, ew, el = e[0], e[1], e[2]
                if eh >= h and ew >= w and el >= lim:
                    v = e[4]
                    if v < hi:
                        hi = v
                if eh <= h and ew <= w and el <= lim:
                    v = e[3]
                    if v > lo:
                        lo = v
            if lo >= t:
                return lo
            if hi < t:
                return hi
        ceiling = self.upper_bound(self._facts_of[sid], h, w, lim, t <= 0)
        if ceiling < t:
            return ceiling
        found = self._best(sid, avoided, h, w, lim, t)
        if found > ceiling:  # pragma: no cover - the bound is proven
            raise AssertionError("the upper bound was beaten")
        # Remember the result: a lower bound if it reached t, else an upper bound.
        lo, hi = (found, HIGH) if found >= t else (LOST, found)
        if entries is None:
            self._table[key] = [[h, w, lim, lo, hi]]
            return found
        for e in entries:
            if e[0] == h and e[1] == w and e[2] == lim:
                if lo > e[3]:
                    e[3] = lo
                if hi < e[4]:
                    e[4] = hi
                return found
        entries.append([h, w, lim, lo, hi])
        return found

    def _turn(self, sid: int) -> tuple:
        """What a situation's turn is made of: (room, pos2, queue2, final, terminal_next, room may kill, avoid,
        carry, the room's plans by weapon and limit, what a death here loses). ``avoid`` (None when the fill empties
        the dungeon) and ``carry[card]`` (the situation after a room that leaves ``card``) are
        ``[facts, id, pos, queue, carried]``, the id found only when it is searched."""
        room, pos2, queue2 = self._where[sid]  # filled once, when the situation was numbered
        early_end = self.early_end
        empty_after = pos2 == self.n and not queue2
        final = empty_after and not early_end
        terminal_next = early_end and 1 + (self.n - pos2) + len(queue2) < ROOM_SIZE
        # Avoiding keeps every card: the same facts as here.
        avoid = None if empty_after else [self._facts_of[sid], -1, pos2, queue2 + room, -1]
        carry = {}
        if not final and not terminal_next:
            base = None if early_end else self._remaining_facts(pos2, queue2, -1)
            for card in room:
                facts = self._remaining_facts(pos2, queue2, card) if base is None else self._with_card(base, card)
                carry[card] = [facts, -1, pos2, queue2, card]
        room_monsters = 0
        for card in room:
            if self.kind[card] == MONSTER_K:
                room_monsters += self.value[card]
        # A death scores minus the monsters left: the dungeon's, and the room's not resolved when they count.
        lost_at_death = self.dungeon_monsters(pos2, queue2)
        if self.room_counts_at_death:
            lost_at_death += room_monsters
        turn = self._turns[sid] = (room, pos2, queue2, final, terminal_next, room_monsters > 0, avoid, carry, {},
                                   lost_at_death)
        return turn

    def _best(self, sid, avoided, h, w, lim, t) -> int:
        """The best score over every choice in this room, tested against ``t`` (fail-soft, like ``test``)."""
        turn = self._turns[sid]
        if turn is None:
            turn = self._turn(sid)
        room, pos2, queue2, final, terminal_next, can_die, avoid, carry, by_weapon, lost_at_death = turn
        max_health = self.max_health
        best = LOST
        if t <= 0:
            # The best death here: the most monster value resolved in the room before dying (when it counts).
            deaths = by_weapon.get(-1 - ((w << 7) + lim))
            if deaths is None:
                counts = self.room_counts_at_death
                deaths = sorted([(resolved if counts else 0, d1, p, d2, damage)
                                 for d1, p, d2, damage, resolved, _ in self._ways_to_die(room, w, lim, final)],
                                reverse=True)
                by_weapon[-1 - ((w << 7) + lim)] = deaths
            for resolved, d1, p, d2, damage in deaths:
                if h > d1:
                    left = h - d1 + p
                    if left > max_health:
                        left = max_health
                    left -= d2
                    if 0 < left <= damage:
                        best = resolved - lost_at_death
                        break
            if best >= t:
                return best
        elif can_die:
            best = 0  # deaths were not looked at: they score at most 0, below t
        # The room's plans, found once per room and weapon: in the final room (and before a room that cannot be
        # filled) each plan's score is known at once; otherwise plans grouped by where they lead (the card left,
        # the weapon and limit after). Within a group only the health each plan leaves differs, so from a given
        # health only the group's best plan is worth searching.
        groups = by_weapon.get((w << 7) + lim)
        if groups is None:
            if final or terminal_next:
                groups = [(d1, p, d2, last) for _, d1, p, d2, _, _, last, _ in self._options(room, w, lim, final)[0]]
            else:
                groups = self._options(room, w, lim, False)[1]
            by_weapon[(w << 7) + lim] = groups
        if final or terminal_next:
            for d1, p, d2, last_potion in groups:
                if h > d1:
                    h2 = h - d1 + p
                    if h2 > max_health:
                        h2 = max_health
                    h2 -= d2
                    if h2 > 0:
                        score = h2 + last_potion if h2 == max_health else h2
                        if score >= t and not final:
                            return score
                        if score > best:
                            best = score
            if final:
                return best  # the exact best of the last room
            groups = ()  # the avoid is still a choice
        children = []
        for carried, w2, lim2, plans in groups:
            h2 = 0
            for d1, p, d2 in plans:
                if h > d1:
                    left = h - d1 + p
                    if left > max_health:
                        left = max_health
                    left -= d2
                    if left > h2:
                        h2 = left
            if not h2:
                continue
            after = carry[carried]
            facts = after[0]
            top = facts[5]
            if lim2 and lim2 > top:
                lim2 = top + 1  # a limit above every monster left is as good as no limit
            raw = self._gain(facts, w2, lim2) + h2
            b = self._capped(facts, raw, h2, w2, lim2, t <= 0)  # the child's ``upper_bound``
            if b < t:
                if b > best:
                    best = b
                continue
            children.append((b * PROMISE + raw * 4 + w2, after, False, h2, w2, lim2))
        if avoid is not None and not avoided:
            facts = avoid[0]
            top = facts[5]
            lim2 = lim if not lim or lim <= top else top + 1
            raw = self._gain(facts, w, lim2) + h
            b = self._capped(facts, raw, h, w, lim2, t <= 0)
            if b < t:
                if b > best:
                    best = b
            else:
                children.append((b * PROMISE + (raw - 5) * 4 + w, avoid, True, h, w, lim2))
        # Most promising first: the highest bound, then the highest bound before the health cap (health and potions
        # to spare after the least damage to come; an avoid counts 5 less), then the best weapon.
        if len(children) > 1:
            children.sort(key=_promise, reverse=True)
        for _, after, avoided2, h2, w2, lim2 in children:
            child = after[1]
            if child < 0:
                child = after[1] = self._id(after[2], after[3], after[4], after[0])
            v = self._test(child, avoided2, h2, w2, lim2, t)
            if v >= t:
                return v
            if v > best:
                best = v
        return best

    def _gain(self, facts: list, w: int, lim: int) -> int:
        """The part of the bound that depends on the weapon: potions left minus least damage."""
        return facts[0] - self._least_damage(facts[2], facts[3], facts[4], w, lim)

    def child(self, room, pos2, queue2, carried, h2, w2, lim2) -> tuple:
        """The next situation's arguments for ``test`` (all but t); ``carried == AVOID`` for an avoid."""
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

    # --- rooms -----------------------------------------------------------------------------------
    def plans(self, room, w, lim, resolve_all: bool) -> list[Plan]:
        return [Plan._make(plan) for plan in self._options(room, w, lim, resolve_all)[0]]

    def _options(self, room, w, lim, resolve_all):
        """The room's plans (as ``room_options`` gives them) and those plans grouped by where they lead."""
        key = (tuple(sorted(room)), w, lim, resolve_all)
        found = self._rooms.get(key)
        if found is None:
            facts = self._facts(key[0])
            if w and lim != NO_LIMIT and lim > facts[4] and facts[3] == (0, 0):
                # The weapon may hit every monster of a room without weapons: faced as with no limit, then the
                # limit kept where no kill changed it.
                plans = [plan[:5] + (lim,) + plan[6:] if plan[5] == NO_LIMIT else plan  # plan.limit
                         for plan in self._options(room, w, NO_LIMIT, resolve_all)[0]]
            else:
                keep_last = resolve_all or self.deal.early_end
                plans = room_options(self.deal, key[0], w, lim, resolve_all, keep_last)[0]
            found = self._rooms[key] = (plans, plan_groups(plans, self.deal.card_class))
        return found

    def _ways_to_die(self, room, w, lim, resolve_all) -> list[tuple]:
        """The room's ways to die (as ``room_options`` gives them): looked for only when a death may be the best."""
        key = (tuple(sorted(room)), w, lim, resolve_all)
        found = self._deaths_in.get(key)
        if found is None:
            keep_last = resolve_all or self.deal.early_end
            found = self._deaths_in[key] = room_options(self.deal, key[0], w, lim, resolve_all, keep_last, True)[1]
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
        for death in map(Death._make, self._ways_to_die(room, w, lim, final)):
            if death.resolved > best and dies(death, h, d.max_health):
                best, chosen = death.resolved, death
        if chosen is None:
            return LOST, None
        left = self.dungeon_monsters(pos2, queue2)
        if d.room_counts_at_death:
            left += self._facts(room)[0] - chosen.resolved
        return -left, chosen


def narrow(test, top: int) -> int:
    """The best score, given ``test(t)`` ("at least t?", fail-soft) and an upper bound ``top``.

    The best lies in [lo, hi]. The first test is at the top: most deals are won with the best score there is. A
    failed test that says much less than t is trusted and the new top tested. While failed tests only say "not t"
    (the bound falls a point at a time, as on deals that cannot be won), the next test goes down twice as far as
    the last; once a test passes, the range is halved. A score far below the top costs a few tests, not one a
    point, and the tests near the answer (the costly ones) are few. The table keeps what each test proved.
    """
    lo, hi, t, step = LOST, top, top, 1
    while True:
        found = test(t)
        if found >= t:
            lo = found  # a line reaches it
        else:
            hi = found  # nothing scores more
        if lo >= hi:
            return hi
        if lo > LOST:
            t = (lo + hi + 1) // 2  # in (lo, hi]
        elif found < t - 1:
            t, step = hi, 1
        else:
            t, step = hi - step, step * 2


_promise = itemgetter(0)  # a child's promise (see PROMISE)


def _unpack(packed: int) -> list[int]:
    return [(packed >> (4 * v)) & 15 for v in range(16)]
