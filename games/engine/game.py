"""The game: an immutable state, the legal actions, and ``apply``.

Every rule of docs/RULES.md lives here (the deck lives in ``cards.py``, the options in
``rules.py``). ``apply(state, action)`` returns a new state and never changes its
argument; an illegal action raises ``IllegalAction`` with a reason a player can read.
"""

from __future__ import annotations

from functools import cache
from itertools import compress
from typing import Any, NamedTuple

from games.engine import actions as A
from games.engine.actions import AVOID_ACTION, FIGHT_WITH_WEAPON, TAKE, Action
from games.engine.cards import JOKER, MERCHANT, MONSTER, NECROMANCER, POTION, WEAPON, Card
from games.engine.rules import CLASSIC, DUNGEON_AND_ROOM, EARLY, FINAL_ROOM, LOWER_OR_EQUAL, MAX_LOOPS, SHUFFLED, Rules
from games.engine.seeds import seed_from_bytes, shuffled
from games.engine.words import template_of

PLAYING = "playing"
WON = "won"
DEAD = "dead"

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


class IllegalAction(ValueError):
    """The action is not allowed now; the message says why, in player words."""


class Event:
    """One thing an action did: ``turn``, ``kind``, ``text`` (player words) and ``amount``.

    A value that behaves like the named tuple ``(turn, kind, text, amount)``. ``apply`` records a
    template and its cards instead of text, and the text is built when it is read (most states are
    never shown, e.g. in the solver or a benchmark); ``template`` lets the reader translate it first.
    ``text`` may also be given ready-made.
    """

    __slots__ = ("turn", "kind", "_text", "amount")
    _fields = ("turn", "kind", "text", "amount")

    def __init__(self, turn: int, kind: str, text: str | tuple, amount: int = 0) -> None:
        self.turn = turn
        self.kind = kind
        self._text = text  # the text, or (str.format template, *cards and numbers) until first read
        self.amount = amount

    @property
    def text(self) -> str:
        text = self._text
        if text.__class__ is not str:  # built on each read, so the template stays for translation
            text = text[0].format(*map(_shown, text[1:]))
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
        return _avoid_refusal(self) is None

    @property
    def score(self) -> int | None:
        return score(self)


# --- starting a game ---------------------------------------------------------------

def deal(rules: Rules, seed: int) -> tuple[Card, ...]:
    """The deck for ``seed`` under ``rules``, top card first."""
    return shuffled(rules.full_deck(), seed, 0)


def new_game(rules: Rules = CLASSIC, seed: int | None = None, deck: tuple[Card, ...] | None = None) -> State:
    """A game from a seed (dealt portably) or from an explicit deck order."""
    if deck is None:
        if seed is None:
            raise ValueError("new_game needs a seed or a deck")
        deck = deal(rules, seed)
        rng_seed = seed
    else:
        expected = rules.full_deck()
        deck = tuple(deck)
        # The rules' cards are all different, so equal sets and lengths mean each card exactly once.
        if len(deck) != len(expected) or set(deck) != _card_set(expected):
            raise ValueError(f"the deck must hold exactly the {len(expected)} cards of these rules")
        rng_seed = seed if seed is not None else seed_from_bytes(" ".join(c.code for c in deck).encode())
    g = [rules, deck, rng_seed, deck, (), (), None, (), rules.start_health, 0, False, False, None, PLAYING, 0, 1,
         (), (), (), ()]
    _start_turn(g, ())
    g[_LOG] = g[_EVENTS]
    return _new_state(State, g)


@cache
def _card_set(deck: tuple[Card, ...]) -> frozenset[Card]:
    return frozenset(deck)


# --- what may be done ---------------------------------------------------------------

def _avoid_refusal(s: State) -> str | None:
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


def _weapon_refusal(s: State, monster: Card) -> str | None:
    if s.weapon is None:
        return f"You have no weapon; {monster.label} must be fought barehanded."
    if s.kills:
        last = s.kills[-1]
        if not s.rules.weapon_allows(monster.value, last.value):
            limit = "lower than or equal to" if s.rules.weapon_limit == LOWER_OR_EQUAL else "lower than"
            return (f"Your {s.weapon.label} last slew {last.label}; {monster.label} ({monster.value}) is too "
                    f"strong for it (it can only hit monsters {limit} {last.value}).")
    return None


def legal_actions(s: State) -> list[Action]:
    """Every action allowed now, in a stable order."""
    (rules, _, _, dungeon, room, _, weapon, kills, _, _, _, avoided_last, _, status, _, _, pending, _, _, _) = s[:]
    if status != PLAYING:
        return []
    if pending and pending[0] != IN_UNDERWORLD:
        return _choice_actions(s)
    # The underworld is a room too, but one that cannot be avoided.
    out = [AVOID_ACTION] if not pending and not avoided_last and dungeon and None not in room else []
    if weapon is None:
        out += compress(_TAKES, room)  # a take for each card still in the room
        return out
    # The weapon hits monsters whose value is below ``limit``.
    limit = kills[-1].value + (rules.weapon_limit == LOWER_OR_EQUAL) if kills else 1 << 30
    i = 0
    for card in room:
        if card is not None:
            out.append(_TAKES[i])
            if card.kind == MONSTER and card.value < limit:
                out.append(_WEAPON_FIGHTS[i])
        i += 1
    return out


_TAKES = tuple(A.take(i) for i in range(ROOM_SIZE))
_WEAPON_FIGHTS = tuple(A.fight_with_weapon(i) for i in range(ROOM_SIZE))


def _choice_actions(s: State) -> list[Action]:
    """The choices of an expansion card's sub-phase (merchant, necromancer, loop or retire)."""
    phase = s.pending[0]
    if phase == AT_MERCHANT:
        offer = s.pending[1]
        return [A.buy(i) for i, c in enumerate(offer) if _buy_refusal(s, c) is None] + [A.LEAVE_ACTION]
    if phase == AT_NECROMANCER:
        return ([A.RAISE_ACTION] if _raise_refusal(s) is None else []) + [A.DECLINE_ACTION]
    return ([A.LOOP_ACTION] if _loop_refusal(s) is None else []) + [A.RETIRE_ACTION]


def weapon_price(loop: int) -> int:
    """What the merchant asks for a weapon, in health: 3, rising by 1 a loop, at most 5."""
    return min(3 + (loop - 1), 5)


def _buy_refusal(s: State, card: Card) -> str | None:
    if card.kind == POTION:
        return None
    if card.kind == WEAPON:
        price = weapon_price(s.loop)
        if s.health <= price:
            return f"{card.label} costs {price} health and you have only {s.health}."
        return None
    return f"The merchant does not sell {card.label}."


def _raise_refusal(s: State) -> str | None:
    if s.health <= NECROMANCER_COST:
        return f"The necromancer asks {NECROMANCER_COST} health and you have only {s.health}."
    if len(s.discard) < ROOM_SIZE:
        return f"The graveyard holds fewer than {ROOM_SIZE} cards; there is nothing to raise."
    return None


def _loop_refusal(s: State) -> str | None:
    if s.loop >= MAX_LOOPS:
        return f"The dungeon can be looped at most {MAX_LOOPS} times."
    if len(s.discard) + sum(1 for c in s.room if c is not None) == 0:
        return "The graveyard is empty; there is no dungeon to loop into."
    return None


# --- previews -----------------------------------------------------------------------

class Outcome(NamedTuple):
    """What an action would do, shown on a button before it is pressed."""

    action: Action
    card: Card | None
    damage: int = 0
    heal: int = 0
    equips: bool = False
    wasted: bool = False  # a second potion this turn
    lethal: bool = False
    note: str = ""  # a word for cards that are neither damage nor heal

    @property
    def short(self) -> str:
        if self.action.kind == A.AVOID:
            return "avoid"
        if self.damage:
            return f"−{self.damage}" + (" ☠" if self.lethal else "")
        if self.heal:
            return f"+{self.heal}"
        if self.wasted:
            return "wasted"
        if self.equips:
            return "equip"
        if self.note:
            return self.note
        return "0" if self.card is not None and self.card.kind == MONSTER else ""


def preview(s: State, action: Action) -> Outcome:
    """The outcome of a legal action without applying it. Raises IllegalAction otherwise."""
    reason = refusal(s, action)
    if reason:
        raise IllegalAction(reason)
    kind = action.kind
    if kind in (A.TAKE, A.FIGHT_WITH_WEAPON):
        card = s.room[action.index]
        assert card is not None  # refusal: a card of the room
        if card.kind == MONSTER:
            damage = card.value
            if kind == A.FIGHT_WITH_WEAPON:
                damage = max(0, card.value - s.weapon.value)  # type: ignore[union-attr]  # refusal: armed
            return Outcome(action, card, damage=damage, lethal=damage >= s.health)
        if card.kind == POTION:
            if s.potion_used:
                return Outcome(action, card, wasted=True)
            return Outcome(action, card, heal=min(s.rules.max_health, s.health + card.value) - s.health)
        if card.kind == WEAPON:
            return Outcome(action, card, equips=True)
        if s.pending:  # raised from the graveyard: expansion cards do nothing there
            return Outcome(action, card, note="nothing")
        return Outcome(action, card, note={MERCHANT: "shop", JOKER: "shuffle", NECROMANCER: "raise"}[card.kind])
    if kind == A.BUY:
        card = s.pending[1][action.index]
        if card.kind == POTION:
            return Outcome(action, card, heal=min(s.rules.max_health, s.health + MERCHANT_HEAL) - s.health)
        return Outcome(action, card, damage=weapon_price(s.loop), equips=True)
    if kind == A.RAISE:
        return Outcome(action, None, damage=NECROMANCER_COST)
    return Outcome(action, None)


def refusal(s: State, action: Action) -> str | None:
    """Why ``action`` is not allowed now, or None when it is."""
    if s.status != PLAYING:
        return "The game is over."
    kind = action.kind
    phase = s.pending[0] if s.pending else None
    if kind == A.AVOID:
        return _avoid_refusal(s)
    if kind in (A.TAKE, A.FIGHT_WITH_WEAPON):
        if phase not in (None, IN_UNDERWORLD):
            return _phase_hint(phase)
        if not 0 <= action.index < len(s.room):
            return f"There is no card {action.index + 1} in this room."
        card = s.room[action.index]
        if card is None:
            return "That card has already been played this turn."
        if kind == A.FIGHT_WITH_WEAPON:
            if card.kind != MONSTER:
                return f"Only monsters can be fought; {card.label} is not one."
            return _weapon_refusal(s, card)
        return None
    if kind in (A.BUY, A.LEAVE):
        if phase != AT_MERCHANT:
            return "There is no merchant here."
        if kind == A.BUY:
            offer = s.pending[1]
            if not 0 <= action.index < len(offer):
                return "The merchant has no such card."
            return _buy_refusal(s, offer[action.index])
        return None
    if kind in (A.RAISE, A.DECLINE):
        if phase != AT_NECROMANCER:
            return "There is no necromancer here."
        return _raise_refusal(s) if kind == A.RAISE else None
    if kind in (A.LOOP, A.RETIRE):
        if phase != AT_CROSSROADS:
            return "You can only loop or retire after clearing the dungeon."
        return _loop_refusal(s) if kind == A.LOOP else None
    return "Unknown action."  # pragma: no cover


def _phase_hint(phase: str) -> str:
    return {
        AT_MERCHANT: "First buy something from the merchant, or leave.",
        AT_NECROMANCER: "First pay the necromancer, or decline.",
        AT_CROSSROADS: "You cleared the dungeon: loop again, or retire with your score.",
    }[phase]


# --- applying actions -----------------------------------------------------------------
#
# The usual move, a monster, potion or weapon taken from the room, is played on local variables: the
# state is unpacked once and the new State is one tuple built from them. Every other step (the end of a
# room, avoiding, the expansion's cards and phases) edits one list copy of the state in place (``g``,
# indexed by the constants below) and one ``tuple.__new__`` makes the result.

(_RULES, _START_DECK, _RNG_SEED, _DUNGEON, _ROOM, _DISCARD, _WEAPON, _KILLS, _HEALTH, _TURN, _POTION_USED,
 _AVOIDED_LAST, _LAST_CARD, _STATUS, _SHUFFLES, _LOOP, _PENDING, _HISTORY, _EVENTS, _LOG) = range(len(State._fields))


def apply(s: State, action: Action) -> State:
    """The state after ``action``. Raises IllegalAction (and changes nothing) if it is not allowed."""
    kind = action.kind
    if kind != TAKE and kind != FIGHT_WITH_WEAPON:
        return _apply_choice(s, action)
    # One unpacking of an exact tuple (a slice) is cheaper than reading the fields one by one.
    (rules, start_deck, rng_seed, dungeon, room, discard, weapon, kills, health, turn, potion_used,
     avoided_last, last_card, status, shuffles, loop, pending, history, events, log) = s[:]
    index = action.index
    with_weapon = kind == FIGHT_WITH_WEAPON
    card = room[index] if 0 <= index < len(room) else None
    # A quick yes for a legal move; anything else asks ``refusal`` for the reason.
    if (card is None or status != PLAYING or (pending and pending[0] != IN_UNDERWORLD)
            or (with_weapon and (card.kind != MONSTER or weapon is None or (
                kills and card.value >= kills[-1].value + (rules.weapon_limit == LOWER_OR_EQUAL))))):
        raise IllegalAction(refusal(s, action))
    if len(room) == ROOM_SIZE:  # the usual room: the slot blanked in one tuple
        c0, c1, c2, c3 = room
        room = (c0 if index else None, c1 if index != 1 else None, c2 if index != 2 else None,
                c3 if index != 3 else None)
    else:
        blanked = list(room)
        blanked[index] = None
        room = tuple(blanked)
    history += (action,)
    card_kind = card.kind
    if card_kind == MONSTER:
        if with_weapon:
            damage = card.value - weapon.value  # type: ignore[union-attr]  # checked above
            if damage < 0:
                damage = 0
            kills += (card,)
            event = Event(turn, "fight", ("Fought {} with {}: took {}.", card, weapon, damage), damage)
        else:
            damage = card.value
            discard += (card,)
            event = Event(turn, "fight", ("Fought {} barehanded: took {}.", card, damage), damage)
        health -= damage
        if health <= 0:
            events = (event, Event(turn, "death", "You died."))
            return _new_state(State, (
                rules, start_deck, rng_seed, dungeon, room, discard, weapon, kills, 0, turn, potion_used,
                avoided_last, card, DEAD, shuffles, loop, pending, history, events, log + events))
    elif card_kind == POTION:
        discard += (card,)
        if potion_used:
            event = Event(turn, "potion", ("Drank {}: only one potion works per turn, it did nothing.", card))
        else:
            potion_used = True
            healed = rules.max_health - health
            if healed > card.value:
                healed = card.value
            health += healed
            event = Event(turn, "potion", ("Drank {}: healed {}.", card, healed), healed)
    elif card_kind == WEAPON:
        if weapon is not None:
            discard += (weapon,) + kills
        event = _equip_event(turn, card, weapon)
        weapon = card
        kills = ()
    else:  # an expansion card
        g: list[Any] = [rules, start_deck, rng_seed, dungeon, room, discard, weapon, kills, health, turn, potion_used,
             avoided_last, card, status, shuffles, loop, pending, history, (), log]
        _meet(g, card)
        g[_LOG] += g[_EVENTS]
        return _new_state(State, g)
    events = (event,)
    if not pending and dungeon:
        resolved = room.count(None)
        if resolved < CARDS_FACED:  # the room goes on
            return _new_state(State, (
                rules, start_deck, rng_seed, dungeon, room, discard, weapon, kills, health, turn, potion_used,
                avoided_last, card, status, shuffles, loop, pending, history, events, log + events))
        # Three cards faced: the fourth, if still there, is carried (a room of 4; a card is never false).
        carried = () if resolved == len(room) else (room[0] or room[1] or room[2] or room[3],)
        need = ROOM_SIZE - len(carried)
        if len(dungeon) >= need:  # the next room, a full one (as ``_start_turn`` makes it)
            room = carried + dungeon[:need]
            dungeon = dungeon[need:]
            turn += 1
            events += (_room_event(turn, room, not dungeon and rules.ending == FINAL_ROOM),)  # type: ignore[arg-type]
            return _new_state(State, (
                rules, start_deck, rng_seed, dungeon, room, discard, weapon, kills, health, turn, False,
                False, card, status, shuffles, loop, pending, history, events, _trim_log(log, turn - 1) + events))
    # The underworld, the final room, or the dungeon ends: the general path.
    g = [rules, start_deck, rng_seed, dungeon, room, discard, weapon, kills, health, turn, potion_used,
         avoided_last, card, status, shuffles, loop, pending, history, events, log]
    _after_card(g)
    g[_LOG] += g[_EVENTS]
    return _new_state(State, g)


def _apply_choice(s: State, action: Action) -> State:
    """Avoiding, and the choices of the expansion's phases."""
    reason = refusal(s, action)
    if reason:
        raise IllegalAction(reason)
    kind = action.kind
    g: list[Any] = list(s)
    g[_EVENTS] = ()
    if kind == A.AVOID:
        _avoid(g)
    elif kind in (A.BUY, A.LEAVE):
        _merchant(g, action.index if kind == A.BUY else None)
    elif kind in (A.RAISE, A.DECLINE):
        _necromancer(g, kind == A.RAISE)
    else:
        _crossroads(g, kind == A.LOOP)
    g[_LOG] += g[_EVENTS]
    g[_HISTORY] = s.history + (action,)
    return _new_state(State, g)


_new_state = tuple.__new__


def _say(g: list, kind: str, text: str | tuple, amount: int = 0) -> None:
    """Record an event; ``text`` is ready text or ``(template, *parts)`` built when read."""
    g[_EVENTS] += (Event(g[_TURN], kind, text, amount),)


def _shuffle(g: list, cards) -> tuple[Card, ...]:
    g[_SHUFFLES] += 1
    return shuffled(cards, g[_RNG_SEED], g[_SHUFFLES])


# turns
def _start_turn(g: list, carried: tuple[Card, ...]) -> None:
    need = ROOM_SIZE - len(carried)
    dungeon = g[_DUNGEON]
    room = carried + dungeon[:need]
    dungeon = g[_DUNGEON] = dungeon[need:]
    rules = g[_RULES]
    if rules.ending == EARLY and len(room) < ROOM_SIZE:
        g[_ROOM] = room
        _say(g, "clear", "The dungeon cannot fill another room: you made it out!")
        _clear(g)
        return
    turn = g[_TURN] = g[_TURN] + 1
    g[_ROOM] = room
    g[_POTION_USED] = False
    g[_LOG] = _trim_log(g[_LOG], turn - 1)
    g[_EVENTS] += (_room_event(turn, room, not dungeon and rules.ending == FINAL_ROOM),)


def _room_event(turn: int, room: tuple[Card, ...], final: bool) -> Event:
    if final:
        return Event(turn, "room", ("Room {}: {}. This is the final room: every card must be resolved.", turn, room))
    return Event(turn, "room", ("Room {}: {}.", turn, room))


def _trim_log(log: tuple[Event, ...], previous: int) -> tuple[Event, ...]:
    """The log without the events of turns before ``previous`` (the log is in turn order)."""
    if not log or log[0].turn >= previous:
        return log
    kept = 1
    for event in log[1:]:
        if event.turn >= previous:
            break
        kept += 1
    return log[kept:]


def _avoid(g: list) -> None:
    room = g[_ROOM]
    if g[_RULES].avoided_order == SHUFFLED:
        room = _shuffle(g, room)
    g[_DUNGEON] += room
    g[_AVOIDED_LAST] = True
    _say(g, "avoid", ("Avoided the room; {} went under the dungeon.", room))
    _start_turn(g, ())


def _meet(g: list, card: Card) -> None:
    """An expansion card taken from the room (its slot is already blank and it is the last card)."""
    if g[_PENDING]:  # only the underworld has a pending phase while cards are taken
        # Raised expansion cards are dead: no shop, joker or second necromancer down there.
        g[_DISCARD] += (card,)
        _say(g, "dead", ("{} was raised too, but does nothing.", card))
    elif card.kind == MERCHANT:
        _open_shop(g, card)
        return
    elif card.kind == JOKER:
        g[_DUNGEON] = _shuffle(g, g[_DUNGEON])
        g[_DISCARD] += (card,)
        _say(g, "joker", ("{} The joker laughs: the dungeon is shuffled.", card))
    else:  # NECROMANCER
        g[_PENDING] = (AT_NECROMANCER, card)
        _say(g, "necromancer", ("{} A necromancer offers to raise the graveyard for {} health.", card,
                                NECROMANCER_COST))
        return
    _after_card(g)


def _equip_event(turn: int, weapon: Card, old: Card | None) -> Event:
    if old is not None:
        return Event(turn, "equip", ("Equipped {}, discarding {}.", weapon, old))
    return Event(turn, "equip", ("Equipped {}.", weapon))


def _equip(g: list, weapon: Card) -> None:
    old = g[_WEAPON]
    if old is not None:
        g[_DISCARD] += (old,) + g[_KILLS]
    g[_EVENTS] += (_equip_event(g[_TURN], weapon, old),)
    g[_WEAPON] = weapon
    g[_KILLS] = ()


def _after_card(g: list) -> None:
    """After a card is resolved: end the (sub-)room or the game when it is done."""
    if g[_STATUS] != PLAYING:
        return
    room = g[_ROOM]
    resolved = room.count(None)
    pending = g[_PENDING]
    if pending and pending[0] == IN_UNDERWORLD:
        if resolved >= CARDS_FACED or resolved == len(room):
            _leave_underworld(g, tuple([c for c in room if c is not None]))
        return
    if not g[_DUNGEON] and g[_RULES].ending == FINAL_ROOM:
        if resolved == len(room):
            _say(g, "clear", "The final room is cleared: you survived the dungeon!")
            _clear(g)
        return
    if resolved >= CARDS_FACED:
        g[_AVOIDED_LAST] = False
        _start_turn(g, tuple(filter(None, room)))  # the cards left (a card is never false)


def _clear(g: list) -> None:
    if g[_RULES].looping and g[_LOOP] < MAX_LOOPS:
        g[_PENDING] = (AT_CROSSROADS,)
        _say(g, "crossroads", ("Loop {} cleared. Descend again, or retire with your score?", g[_LOOP]))
    else:
        g[_STATUS] = WON


# expansion cards
def _open_shop(g: list, merchant: Card) -> None:
    pile = _shuffle(g, g[_DISCARD])
    offer, g[_DISCARD] = pile[:MERCHANT_OFFER], pile[MERCHANT_OFFER:]
    g[_PENDING] = (AT_MERCHANT, offer, merchant)
    if not any(c.kind in (POTION, WEAPON) for c in offer):
        if offer:
            _say(g, "merchant", ("{} The merchant has nothing you can buy ({}).", merchant, offer))
        else:
            _say(g, "merchant", ("{} The merchant has nothing you can buy.", merchant))
        _merchant(g, None)
        return
    _say(g, "merchant", ("{} The merchant shows {}.", merchant, offer))


def _merchant(g: list, index: int | None) -> None:
    _, offer, merchant = g[_PENDING]
    g[_PENDING] = ()
    bought = offer[index] if index is not None else None
    g[_DISCARD] += tuple([c for i, c in enumerate(offer) if i != index])
    if bought is None:
        _say(g, "merchant", "You leave the merchant.")
    elif bought.kind == POTION:
        health = g[_HEALTH]
        healed = min(g[_RULES].max_health, health + MERCHANT_HEAL) - health
        g[_HEALTH] = health + healed
        g[_DISCARD] += (bought,)
        _say(g, "merchant", ("Bought {} for nothing: healed {}.", bought, healed), healed)
    else:
        price = weapon_price(g[_LOOP])
        g[_HEALTH] -= price
        _say(g, "merchant", ("Bought {} for {} health.", bought, price), price)
        _equip(g, bought)
    g[_DISCARD] += (merchant,)
    _after_card(g)


def _necromancer(g: list, pay: bool) -> None:
    _, necro = g[_PENDING]
    if not pay:
        g[_PENDING] = ()
        g[_DISCARD] += (necro,)
        _say(g, "necromancer", "You turn the necromancer away.")
        _after_card(g)
        return
    g[_HEALTH] -= NECROMANCER_COST
    pile = _shuffle(g, g[_DISCARD])
    raised, g[_DISCARD] = pile[:ROOM_SIZE], pile[ROOM_SIZE:]
    g[_PENDING] = (IN_UNDERWORLD, g[_ROOM], g[_POTION_USED], necro)
    g[_ROOM] = raised
    g[_POTION_USED] = False
    _say(g, "necromancer", ("Paid {} health. The dead rise: {}. Face 3 of them.", NECROMANCER_COST, raised),
         NECROMANCER_COST)


def _leave_underworld(g: list, left: tuple[Card, ...]) -> None:
    _, outer, outer_potion, necro = g[_PENDING]
    g[_PENDING] = ()
    g[_DISCARD] += left + (necro,)
    g[_ROOM] = outer
    g[_POTION_USED] = outer_potion
    _say(g, "necromancer", "The raised room is done; back to the dungeon.")
    _after_card(g)


def _crossroads(g: list, loop: bool) -> None:
    g[_PENDING] = ()
    if not loop:
        g[_STATUS] = WON
        _say(g, "retire", ("You retire after {} loop(s).", g[_LOOP]))
        return
    leftovers = tuple([c for c in g[_ROOM] if c is not None])
    g[_DUNGEON] = _shuffle(g, g[_DISCARD] + leftovers)
    g[_DISCARD] = ()
    g[_ROOM] = ()
    g[_LOOP] += 1
    g[_AVOIDED_LAST] = False
    _say(g, "loop", ("Loop {}: the graveyard becomes the dungeon.", g[_LOOP]))
    _start_turn(g, ())


# --- results --------------------------------------------------------------------------

def unresolved_monsters(s: State, include_room: bool = True) -> int:
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


def replay(rules: Rules, deck: tuple[Card, ...], actions, seed: int | None = None) -> State:
    """Rebuild a game from its rules, deck and actions (raises IllegalAction on a bad log)."""
    s = new_game(rules, seed=seed, deck=deck)
    for action in actions:
        s = apply(s, action)
    return s
