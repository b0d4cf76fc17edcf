"""A game's state and what it tells: ``State``, its ``Event`` type, the statuses, the expansion's phases, the
game's numbers, and the results read from a state (the score, every card).

The state is a NamedTuple that ``playing.apply`` rebuilds for each action; ``turns.py`` lists where each field
sits when a step edits a list copy of it.
"""

from __future__ import annotations

from typing import NamedTuple

from games.engine.actions import Action
from games.engine.cards import MONSTER, POTION, Card
from games.engine.rules import DUNGEON_AND_ROOM, FINAL_ROOM, Rules
from games.engine.words import template_of

# A game's status (``State.status``).
PLAYING = "playing"
WON = "won"
DEAD = "dead"

# The game's numbers (docs/RULES.md); the rules page and the table quote them from here.
ROOM_SIZE = 4
CARDS_FACED = 3  # cards resolved in a room that is faced (the 4th is carried)
MERCHANT_OFFER = 6
MERCHANT_HEAL = 3
NECROMANCER_COST = 2
LOOP_BONUS = 20

# Pending sub-phases of the expansion cards (``State.pending[0]``).
AT_MERCHANT = "merchant"  # (AT_MERCHANT, offer, merchant card)
AT_NECROMANCER = "necromancer"  # (AT_NECROMANCER, necromancer card)
IN_UNDERWORLD = "underworld"  # (IN_UNDERWORLD, outer room, outer potion_used, necromancer card)
AT_CROSSROADS = "crossroads"  # (AT_CROSSROADS,) after a clear, with looping


def weapon_price(loop: int) -> int:
    """What the merchant asks for a weapon, in health: 3, rising by 1 a loop, at most 5."""
    return min(3 + (loop - 1), 5)


class Event:
    """One thing an action did: ``turn``, ``kind``, ``text`` (player words) and ``amount``.

    A value that behaves like the named tuple ``(turn, kind, text, amount)``. ``apply`` records a
    template and its cards instead of text, and the text is built when it is read (most states are
    never shown, e.g. in the solver or a benchmark); ``template`` lets the reader translate it first.
    ``text`` may also be given ready-made.
    """

    __slots__ = ("turn", "kind", "_text", "amount", "_read")
    _fields = ("turn", "kind", "text", "amount")

    def __init__(self, turn: int, kind: str, text: str | tuple, amount: int = 0) -> None:
        self.turn = turn
        self.kind = kind
        self._text = text  # the text, or (str.format template, *cards and numbers) until first read
        self.amount = amount
        self._read: str | None = None  # the text built from the template, once read (a stored game writes it)

    @property
    def text(self) -> str:
        text = self._text
        if text.__class__ is not str:  # built when first read; the template stays for translation
            read = self._read
            if read is None:
                read = self._read = text[0].format(*map(_shown, text[1:]))
            return read
        return text

    @property
    def template(self) -> tuple | None:
        """``(English template, *parts as they read)``, for a translation; None for text the engine did not
        write. A text given ready-made (a saved game's) is recognised by ``words.template_of``."""
        text = self._text
        if text.__class__ is str:
            return template_of(text)
        return (text[0], *map(_shown, text[1:]))

    def __iter__(self):
        return iter((self.turn, self.kind, self.text, self.amount))

    def __len__(self) -> int:
        return 4

    def __getitem__(self, index):
        return tuple(self)[index]

    def __eq__(self, other) -> bool:
        if isinstance(other, Event):
            return (self.turn == other.turn and self.kind == other.kind and self.amount == other.amount
                    and self.text == other.text)
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Event(turn={self.turn!r}, kind={self.kind!r}, text={self.text!r}, amount={self.amount!r})"

    def __reduce__(self):
        return Event, tuple(self)

    def _replace(self, **changes) -> Event:
        return Event(**{**self._asdict(), **changes})

    def _asdict(self) -> dict:
        return dict(zip(self._fields, self, strict=True))


def _shown(part) -> str | int:
    """How a recorded event part reads: a card as its label, cards as labels with spaces."""
    if part.__class__ is Card:
        return part.label
    if part.__class__ is tuple:
        return " ".join([c.label for c in part])
    return part


class State(NamedTuple):
    """A position of the game, immutable; ``playing.apply`` makes the next one."""

    rules: Rules
    start_deck: tuple[Card, ...]  # the deal, top card first
    rng_seed: int  # feeds every shuffle made during play (seeds.py streams 1, 2, ...)
    dungeon: tuple[Card, ...]  # top card first
    room: tuple[Card | None, ...]  # slots left to right; None = resolved this turn
    discard: tuple[Card, ...]
    weapon: Card | None
    kills: tuple[Card, ...]  # monsters slain by the equipped weapon, in order
    health: int
    turn: int  # the room number, from 1
    potion_used: bool  # a potion has been resolved this turn
    avoided_last: bool  # the previous turn was an avoid
    last_card: Card | None  # the last card resolved (potion bonus)
    status: str
    shuffles: int  # shuffles made during play so far
    loop: int  # looping expansion: which pass through the dungeon, from 1
    pending: tuple  # an expansion sub-phase, or ()
    history: tuple[Action, ...]
    events: tuple[Event, ...]  # what the last action did
    log: tuple[Event, ...]  # events of this turn and the one before

    # --- derived facts ------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.status != PLAYING

    @property
    def last_kill(self) -> Card | None:
        return self.kills[-1] if self.kills else None

    @property
    def final_room(self) -> bool:
        return (self.rules.ending == FINAL_ROOM and not self.dungeon and self.status == PLAYING
                and not (self.pending and self.pending[0] in (IN_UNDERWORLD, AT_CROSSROADS)))

    @property
    def resolved_this_turn(self) -> int:
        return sum(1 for c in self.room if c is None)

    @property
    def can_avoid(self) -> bool:
        return avoid_refusal(self) is None

    @property
    def score(self) -> int | None:
        return score(self)


# --- what a state tells ----------------------------------------------------------------
# Here rather than in ``legal.py`` or a module of results, because ``State.can_avoid`` and ``State.score`` read
# them and the state imports nothing of the engine's above it.

def avoid_refusal(s: State) -> str | None:
    """Why the room cannot be avoided now, or None when it can (``legal.refusal`` for an avoid)."""
    if s.status != PLAYING:
        return "The game is over."
    if s.pending:
        return "Finish what you are doing first."
    if s.avoided_last:
        return "You avoided the last room, so you must face this one."
    if not s.dungeon:
        return "The dungeon is empty: this room cannot be avoided."
    if None in s.room:
        return "You have started facing this room; it can no longer be avoided."
    return None


def unresolved_monsters(s: State, include_room: bool = True) -> int:
    """The value of the monsters not yet slain: the dungeon, and with ``include_room`` the room(s) too."""
    total = sum(c.value for c in s.dungeon if c.kind == MONSTER)
    if include_room:
        total += sum(c.value for c in s.room if c is not None and c.kind == MONSTER)
        if s.pending and s.pending[0] == IN_UNDERWORLD:
            total += sum(c.value for c in s.pending[1] if c is not None and c.kind == MONSTER)
    return total


def score(s: State) -> int | None:
    """The final score, or None while the game is on (docs/RULES.md: Score)."""
    if s.status == PLAYING:
        return None
    if s.status == DEAD:
        return -unresolved_monsters(s, s.rules.death_score == DUNGEON_AND_ROOM)
    base = s.health
    if s.health == s.rules.max_health and s.last_card is not None and s.last_card.kind == POTION:
        base += s.last_card.value
    return base + LOOP_BONUS * (s.loop - 1)


def all_cards(s: State) -> list[Card]:
    """Every card of the game wherever it is; always exactly the deck (a test invariant)."""
    cards = list(s.dungeon) + [c for c in s.room if c is not None] + list(s.discard) + list(s.kills)
    if s.weapon is not None:
        cards.append(s.weapon)
    if s.pending:
        phase = s.pending[0]
        if phase == AT_MERCHANT:
            cards += list(s.pending[1]) + [s.pending[2]]
        elif phase == AT_NECROMANCER:
            cards.append(s.pending[1])
        elif phase == IN_UNDERWORLD:
            cards += [c for c in s.pending[1] if c is not None] + [s.pending[3]]
    return cards
