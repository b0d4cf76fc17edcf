"""A deal in the solver's compact form, and the rule sets the solver can and cannot solve.

Cards are identified by their position in the deal (0 = top card), so the dungeon's untouched part is
just "every position from ``pos`` on". Kinds and values sit in plain lists for fast indexing.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import MONSTER, POTION, WEAPON, Card
from games.engine.rules import DUNGEON_AND_ROOM, EARLY, SHUFFLED, STRICT, Rules
from games.i18n import N_

MONSTER_K, WEAPON_K, POTION_K = 0, 1, 2
_KIND = {MONSTER: MONSTER_K, WEAPON: WEAPON_K, POTION: POTION_K}
NO_LIMIT = 99  # the weapon limit of a weapon without kills: it may hit any monster


class SolverRefused(ValueError):
    """The rule set (or deck) has chance in it or cards the solver does not model; the message says why."""


def refusal(rules: Rules) -> str | None:
    """Why ``rules`` cannot be solved exactly, or None when they can (English, marked: shown as ``tr(reason)``)."""
    if rules.avoided_order == SHUFFLED:
        return N_("Par is not defined when avoided rooms are shuffled: the outcome of an avoid is random, "
                  "so no single best line exists.")
    if rules.expansion:
        return N_("Par is not defined with the expansion cards (merchants, jokers, necromancers, looping): "
                  "they shuffle cards during play, so the outcome is random.")
    return None


class Deal:
    """The fixed facts of one solve: card kinds and values by deal position, and the rule parameters."""

    def __init__(self, rules: Rules, deck: Sequence[Card]) -> None:
        reason = refusal(rules)
        if reason:
            raise SolverRefused(reason)
        if len(set(deck)) != len(deck):
            raise SolverRefused("a deck cannot hold the same card twice")
        for card in deck:
            if card.kind not in _KIND:
                raise SolverRefused(f"{card.label} is an expansion card; the solver plays classic cards only")
        self.rules = rules
        self.cards = tuple(deck)
        self.n = len(deck)
        self.kind = [_KIND[c.kind] for c in deck]
        self.value = [c.value for c in deck]
        self.card_class = [16 * k + v for k, v in zip(self.kind, self.value, strict=True)]  # alike cards share it
        self.max_health = rules.max_health
        self.start_health = rules.start_health
        self.early_end = rules.ending == EARLY
        self.room_counts_at_death = rules.death_score == DUNGEON_AND_ROOM
        # A kill of value m leaves the weapon able to hit monsters below ``m + limit_step``.
        self.limit_step = 0 if rules.weapon_limit == STRICT else 1

    def __getattr__(self, name: str):
        # The suffix tables: only the Python search reads them (the C one works them out itself), so they are
        # built when first asked for; a coach makes a deal per order judged, hundreds a hint.
        if name.startswith("suffix_"):
            self._suffix_tables()
            return self.__dict__[name]
        raise AttributeError(name)

    def _suffix_tables(self) -> None:
        """Sums and maxima over deal positions ``pos..n-1`` (the part of the dungeon never touched yet)."""
        n, kind, value = self.n, self.kind, self.value
        self.suffix_monsters = [0] * (n + 1)
        self.suffix_potions = [0] * (n + 1)
        self.suffix_potion_max = [0] * (n + 1)
        self.suffix_weapon_max = [0] * (n + 1)
        self.suffix_monster_max = [0] * (n + 1)
        for pos in range(n - 1, -1, -1):
            k, v = kind[pos], value[pos]
            self.suffix_monsters[pos] = self.suffix_monsters[pos + 1] + (v if k == MONSTER_K else 0)
            self.suffix_potions[pos] = self.suffix_potions[pos + 1] + (v if k == POTION_K else 0)
            self.suffix_potion_max[pos] = max(self.suffix_potion_max[pos + 1], v if k == POTION_K else 0)
            self.suffix_weapon_max[pos] = max(self.suffix_weapon_max[pos + 1], v if k == WEAPON_K else 0)
            self.suffix_monster_max[pos] = max(self.suffix_monster_max[pos + 1], v if k == MONSTER_K else 0)
        # Per position: how many monsters of each value lie from pos on, and the two best weapons there.
        self.suffix_counts: list[tuple[int, ...]] = [(0,) * 16] * (n + 1)
        self.suffix_weapons = [(0, 0)] * (n + 1)
        self.suffix_packed = [0] * (n + 1)
        for pos in range(n - 1, -1, -1):
            k, v = kind[pos], value[pos]
            counts = list(self.suffix_counts[pos + 1])
            top = self.suffix_weapons[pos + 1]
            if k == MONSTER_K:
                counts[v] += 1
            elif k == WEAPON_K:
                top = top_two(top, v)
            self.suffix_counts[pos] = tuple(counts)
            self.suffix_packed[pos] = sum(c << (4 * v) for v, c in enumerate(counts))  # 4 bits a value
            self.suffix_weapons[pos] = top


def top_two(top: tuple[int, int], v: int) -> tuple[int, int]:
    """The two largest of ``top`` (largest first) and ``v``."""
    if v > top[0]:
        return v, top[0]
    if v > top[1]:
        return top[0], v
    return top
