"""Rule sets: every option docs/RULES.md names, as fields of one frozen value, and the presets.

The classic value of each field is its default, so ``Rules()`` is the classic game.
A game records its exact ``Rules``; leaderboards compare only games whose
``Rules.key`` is equal.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from games.engine.cards import Card, build_deck

# weapon_limit
STRICT = "strict"  # a weapon may only hit monsters strictly lower than its last kill
LOWER_OR_EQUAL = "lower_or_equal"
# ending
FINAL_ROOM = "final_room"  # the last room is resolved in full
EARLY = "early"  # won as soon as a room cannot be refilled to 4
# death_score
DUNGEON_AND_ROOM = "dungeon_and_room"
DUNGEON_ONLY = "dungeon_only"
# avoided_order
KEPT = "kept"
SHUFFLED = "shuffled"
# deck
CLASSIC_44 = "classic"
FULL_52 = "full52"

_CHOICES = {
    "weapon_limit": (STRICT, LOWER_OR_EQUAL),
    "ending": (FINAL_ROOM, EARLY),
    "death_score": (DUNGEON_AND_ROOM, DUNGEON_ONLY),
    "avoided_order": (KEPT, SHUFFLED),
    "deck": (CLASSIC_44, FULL_52),
}

MIN_HEALTH, MAX_HEALTH = 1, 99
MAX_LOOPS = 5  # looping expansion: the fifth clear ends the game


class RulesError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class Rules:
    weapon_limit: str = STRICT
    ending: str = FINAL_ROOM
    death_score: str = DUNGEON_AND_ROOM
    avoided_order: str = KEPT
    deck: str = CLASSIC_44
    start_health: int = 20
    max_health: int = 20
    # Expansion cards (docs/RULES.md, The expansion); each needs the 44-card deck.
    merchants: bool = False
    jokers: bool = False
    necromancers: bool = False
    looping: bool = False

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise RulesError(f"{name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        for name in ("start_health", "max_health"):
            value = getattr(self, name)
            if type(value) is not int or not MIN_HEALTH <= value <= MAX_HEALTH:
                raise RulesError(f"{name.replace('_', ' ')} must be a whole number from {MIN_HEALTH} to {MAX_HEALTH}")
        if self.start_health > self.max_health:
            raise RulesError("starting health cannot be above the maximum health")
        for name in ("merchants", "jokers", "necromancers", "looping"):
            if type(getattr(self, name)) is not bool:
                raise RulesError(f"{name} must be true or false")
        if self.expansion and self.deck != CLASSIC_44:
            raise RulesError("the expansion cards are played with the 44-card deck only")

    @property
    def expansion(self) -> bool:
        return self.merchants or self.jokers or self.necromancers or self.looping

    def full_deck(self) -> tuple[Card, ...]:
        return build_deck(self.deck == FULL_52, self.merchants, self.jokers, self.necromancers)

    def weapon_allows(self, monster_value: int, last_kill: int) -> bool:
        if self.weapon_limit == STRICT:
            return monster_value < last_kill
        return monster_value <= last_kill

    def with_health(self, start: int, maximum: int | None = None) -> Rules:
        return replace(self, start_health=start, max_health=start if maximum is None else maximum)

    # --- names and stable text forms -------------------------------------------------
    @property
    def name(self) -> str:
        """The preset this rule set is, or ``custom``."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        return "custom"

    @property
    def key(self) -> str:
        """A short canonical text, equal exactly when the rules are equal (leaderboard grouping)."""
        parts = [
            "w" + ("<" if self.weapon_limit == STRICT else "<="),
            "end:" + self.ending,
            "death:" + self.death_score,
            "avoid:" + self.avoided_order,
            "deck:" + self.deck,
            f"hp:{self.start_health}/{self.max_health}",
        ]
        extras = "".join(
            letter for letter, on in (("M", self.merchants), ("J", self.jokers),
                                      ("N", self.necromancers), ("L", self.looping)) if on
        )
        if extras:
            parts.append("x:" + extras)
        return ";".join(parts)

    def to_dict(self) -> dict:
        # Every field is a str, int or bool: read directly (dataclasses.asdict deep-copies each one, and every
        # move stores its rules).
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        try:
            return cls(**data)
        except TypeError as exc:  # pragma: no cover - defensive
            raise RulesError(str(exc)) from exc

    def describe(self) -> list[str]:
        """One line per option that differs from classic, in player words."""
        lines = []
        if self.weapon_limit == LOWER_OR_EQUAL:
            lines.append("Weapons may hit monsters lower than or equal to their last kill.")
        if self.ending == EARLY:
            lines.append("You win as soon as a room can no longer be refilled to 4 cards.")
        if self.death_score == DUNGEON_ONLY:
            lines.append("On death, only monsters left in the dungeon count against you.")
        if self.avoided_order == SHUFFLED:
            lines.append("Avoided rooms are shuffled before going under the dungeon.")
        if self.deck == FULL_52:
            lines.append("All 52 cards, aces low: weapons and potions 1–13.")
        if (self.start_health, self.max_health) != (20, 20):
            lines.append(f"Health starts at {self.start_health}, maximum {self.max_health}.")
        for on, text in ((self.merchants, "Merchants (♦K ♥K)"), (self.jokers, "Jokers"),
                         (self.necromancers, "Necromancers (♦J ♥J)"), (self.looping, "Looping")):
            if on:
                lines.append(f"{text} are in play.")
        return lines or ["Classic rules."]


CLASSIC = Rules()
PRESETS: dict[str, Rules] = {
    "classic": CLASSIC,
    "lenient": Rules(weapon_limit=LOWER_OR_EQUAL),
    "full-deck": Rules(deck=FULL_52),
    "early-win": Rules(ending=EARLY),
    "rules-sheet": Rules(weapon_limit=LOWER_OR_EQUAL, death_score=DUNGEON_ONLY),
    "shuffled-avoid": Rules(avoided_order=SHUFFLED),
    "expansion": Rules(merchants=True, jokers=True, necromancers=True, looping=True),
}

PRESET_BLURBS = {
    "classic": "The classic rules: strictly lower weapon limit, the final room played in full.",
    "lenient": "Weapons may also hit a monster equal to their last kill.",
    "full-deck": "All 52 cards, aces low.",
    "early-win": "Won as soon as a room can no longer be filled to 4 cards.",
    "rules-sheet": "The 2011 rules sheet read literally: lower-or-equal weapons, death counts the dungeon only.",
    "shuffled-avoid": "Avoided rooms are shuffled before going under the dungeon.",
    "expansion": "Merchants, jokers, necromancers and looping dungeons.",
}


def preset(name: str) -> Rules:
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise RulesError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}") from None


_FIELD_NAMES = tuple(field.name for field in fields(Rules))
