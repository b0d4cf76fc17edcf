"""The reference engine for differential tests: the game as it was written before the speed-up.

This is the straightforward version of the engine's ``playing.apply`` and the modules it is made of (event
text built on every action, a mutable draft copied in and out, shuffles drawn word by word from
``seeds.Stream``), with its own ``State`` and ``Event`` classes. ``test_reference_engine.py`` plays the same
random games on both and requires identical states, legal actions, previews, refusals, scores, event text and
JSON snapshots.
Keep it unoptimised: its worth is that it is obviously the rules.
"""

from __future__ import annotations

from typing import NamedTuple

from games.engine import actions as A
from games.engine.actions import Action
from games.engine.cards import JOKER, MERCHANT, MONSTER, NECROMANCER, POTION, WEAPON, Card
from games.engine.rules import (
    CLASSIC,
    DUNGEON_AND_ROOM,
    EARLY,
    FINAL_ROOM,
    LOWER_OR_EQUAL,
    MAX_LOOPS,
    SHUFFLED,
    Rules,
)
from games.engine.seeds import Stream, seed_from_bytes

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


class Event(NamedTuple):
    turn: int
    kind: str
    text: str
    amount: int = 0


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


def _make(rules, start_deck, rng_seed, dungeon, room, discard, weapon, kills, health, turn, potion_used,
          avoided_last, last_card, status, shuffles, loop, pending, history, events, log) -> State:
    return tuple.__new__(State, (rules, start_deck, rng_seed, dungeon, room, discard, weapon, kills, health, turn,
                                 potion_used, avoided_last, last_card, status, shuffles, loop, pending,
                                 history, events, log))


def shuffled(items, seed: int, stream: int = 0) -> tuple:
    """Fisher-Yates from the back, each draw read from the stream with rejection (seeds.py)."""
    out = list(items)
    below = Stream(seed, stream).below
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


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
        if sorted(deck) != sorted(expected):
            raise ValueError(f"the deck must hold exactly the {len(expected)} cards of these rules")
        deck = tuple(deck)
        rng_seed = seed if seed is not None else seed_from_bytes(" ".join(c.code for c in deck).encode())
    g = _Draft(_make(rules, deck, rng_seed, deck, (), (), None, (), rules.start_health, 0, False, False,
                     None, PLAYING, 0, 1, (), (), (), ()))
    g.start_turn(())
    return g.freeze(None)


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
    if s.status != PLAYING:
        return []
    if s.pending and s.pending[0] != IN_UNDERWORLD:
        return _choice_actions(s)
    out = []
    # The underworld is a room too, but one that cannot be avoided.
    if not s.pending and s.avoided_last is False and s.dungeon and None not in s.room:
        out.append(A.AVOID_ACTION)
    weapon, kills, rules = s.weapon, s.kills, s.rules
    last = kills[-1].value if kills else None
    for i, card in enumerate(s.room):
        if card is None:
            continue
        out.append(_TAKES[i])
        if card.kind == MONSTER and weapon is not None and (last is None or rules.weapon_allows(card.value, last)):
            out.append(_WEAPON_FIGHTS[i])
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
        if card.kind == MONSTER:
            damage = card.value
            if kind == A.FIGHT_WITH_WEAPON:
                damage = max(0, card.value - s.weapon.value)
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

def apply(s: State, action: Action) -> State:
    """The state after ``action``. Raises IllegalAction (and changes nothing) if it is not allowed."""
    reason = refusal(s, action)
    if reason:
        raise IllegalAction(reason)
    g = _Draft(s)
    kind = action.kind
    if kind == A.AVOID:
        g.avoid()
    elif kind in (A.TAKE, A.FIGHT_WITH_WEAPON):
        g.resolve_slot(action.index, kind == A.FIGHT_WITH_WEAPON)
    elif kind in (A.BUY, A.LEAVE):
        g.merchant(action.index if kind == A.BUY else None)
    elif kind in (A.RAISE, A.DECLINE):
        g.necromancer(kind == A.RAISE)
    else:
        g.crossroads(kind == A.LOOP)
    return g.freeze(action)


class _Draft:
    """A mutable working copy used inside ``apply``; frozen back into a State."""

    __slots__ = State._fields

    def __init__(self, s: State) -> None:
        (self.rules, self.start_deck, self.rng_seed, self.dungeon, self.room, self.discard, self.weapon, self.kills,
         self.health, self.turn, self.potion_used, self.avoided_last, self.last_card, self.status,
         self.shuffles, self.loop, self.pending, self.history, self.events, self.log) = s
        self.events = []

    def freeze(self, action: Action | None) -> State:
        events = tuple(self.events)
        history = self.history + (action,) if action is not None else self.history
        return _make(self.rules, self.start_deck, self.rng_seed, self.dungeon, self.room, self.discard, self.weapon,
                     self.kills, self.health, self.turn, self.potion_used, self.avoided_last,
                     self.last_card, self.status, self.shuffles, self.loop, self.pending, history,
                     events, self.log + events)

    def say(self, kind: str, text: str, amount: int = 0) -> None:
        self.events.append(Event(self.turn, kind, text, amount))

    def shuffle(self, cards) -> tuple[Card, ...]:
        self.shuffles += 1
        return shuffled(cards, self.rng_seed, self.shuffles)

    # turns
    def start_turn(self, carried: tuple[Card, ...]) -> None:
        need = ROOM_SIZE - len(carried)
        drawn = self.dungeon[:need]
        self.dungeon = self.dungeon[need:]
        room = carried + drawn
        if self.rules.ending == EARLY and len(room) < ROOM_SIZE:
            self.room = room
            self.say("clear", "The dungeon cannot fill another room: you made it out!")
            self.clear()
            return
        self.turn += 1
        self.room = room
        self.potion_used = False
        # Keep the log to the turn before this one and this turn.
        self.log = tuple(e for e in self.log if e.turn >= self.turn - 1)
        final = " This is the final room: every card must be resolved." if (
            self.rules.ending == FINAL_ROOM and not self.dungeon) else ""
        self.say("room", f"Room {self.turn}: {' '.join(c.label for c in room)}.{final}")

    def avoid(self) -> None:
        room = self.room
        if self.rules.avoided_order == SHUFFLED:
            room = self.shuffle(room)
        self.dungeon = self.dungeon + room
        self.avoided_last = True
        self.say("avoid", f"Avoided the room; {' '.join(c.label for c in room)} went under the dungeon.")
        self.start_turn(())

    def resolve_slot(self, index: int, with_weapon: bool) -> None:
        card = self.room[index]
        self.room = self.room[:index] + (None,) + self.room[index + 1:]
        self.last_card = card
        kind = card.kind
        if kind == MONSTER:
            self.fight(card, with_weapon)
        elif kind == POTION:
            self.drink(card)
        elif kind == WEAPON:
            self.equip(card)
        elif self.pending:  # only the underworld has a pending phase while cards are taken
            # Raised expansion cards are dead: no shop, joker or second necromancer down there.
            self.discard = self.discard + (card,)
            self.say("dead", f"{card.label} was raised too, but does nothing.")
        elif kind == MERCHANT:
            self.open_shop(card)
            return
        elif kind == JOKER:
            self.dungeon = self.shuffle(self.dungeon)
            self.discard = self.discard + (card,)
            self.say("joker", f"{card.label} The joker laughs: the dungeon is shuffled.")
        elif kind == NECROMANCER:
            self.pending = (AT_NECROMANCER, card)
            self.say("necromancer", f"{card.label} A necromancer offers to raise the graveyard "
                                    f"for {NECROMANCER_COST} health.")
            return
        self.after_card()

    def fight(self, monster: Card, with_weapon: bool) -> None:
        if with_weapon:
            damage = max(0, monster.value - self.weapon.value)
            self.kills = self.kills + (monster,)
            self.say("fight", f"Fought {monster.label} with {self.weapon.label}: took {damage}.", damage)
        else:
            damage = monster.value
            self.discard = self.discard + (monster,)
            self.say("fight", f"Fought {monster.label} barehanded: took {damage}.", damage)
        self.hurt(damage)

    def hurt(self, damage: int) -> None:
        self.health -= damage
        if self.health <= 0:
            self.health = 0
            self.status = DEAD
            self.say("death", "You died.")

    def drink(self, potion: Card) -> None:
        self.discard = self.discard + (potion,)
        if self.potion_used:
            self.say("potion", f"Drank {potion.label}: only one potion works per turn, it did nothing.")
            return
        self.potion_used = True
        healed = min(self.rules.max_health, self.health + potion.value) - self.health
        self.health += healed
        self.say("potion", f"Drank {potion.label}: healed {healed}.", healed)

    def equip(self, weapon: Card) -> None:
        old = self.weapon
        if old is not None:
            self.discard = self.discard + (old,) + self.kills
        self.weapon = weapon
        self.kills = ()
        self.say("equip", f"Equipped {weapon.label}" + (f", discarding {old.label}." if old else "."))

    def after_card(self) -> None:
        """After a card is resolved: end the (sub-)room or the game when it is done."""
        if self.status != PLAYING:
            return
        room = self.room
        left = tuple(c for c in room if c is not None)
        if self.pending and self.pending[0] == IN_UNDERWORLD:
            if len(room) - len(left) >= CARDS_FACED or not left:
                self.leave_underworld(left)
            return
        if self.rules.ending == FINAL_ROOM and not self.dungeon:
            if not left:
                self.say("clear", "The final room is cleared: you survived the dungeon!")
                self.clear()
            return
        if len(room) - len(left) >= CARDS_FACED:
            self.avoided_last = False
            self.start_turn(left)

    def clear(self) -> None:
        if self.rules.looping and self.loop < MAX_LOOPS:
            self.pending = (AT_CROSSROADS,)
            self.say("crossroads", f"Loop {self.loop} cleared. Descend again, or retire with your score?")
        else:
            self.status = WON

    # expansion cards
    def open_shop(self, merchant: Card) -> None:
        pile = self.shuffle(self.discard)
        offer, self.discard = pile[:MERCHANT_OFFER], pile[MERCHANT_OFFER:]
        self.pending = (AT_MERCHANT, offer, merchant)
        if not any(c.kind in (POTION, WEAPON) for c in offer):
            self.say("merchant", f"{merchant.label} The merchant has nothing you can buy"
                                 + (f" ({' '.join(c.label for c in offer)})." if offer else "."))
            self.merchant(None)
            return
        self.say("merchant", f"{merchant.label} The merchant shows {' '.join(c.label for c in offer)}.")

    def merchant(self, index: int | None) -> None:
        _, offer, merchant = self.pending
        self.pending = ()
        bought = offer[index] if index is not None else None
        rest = tuple(c for i, c in enumerate(offer) if i != index)
        self.discard = self.discard + rest
        if bought is None:
            self.say("merchant", "You leave the merchant.")
        elif bought.kind == POTION:
            healed = min(self.rules.max_health, self.health + MERCHANT_HEAL) - self.health
            self.health += healed
            self.discard = self.discard + (bought,)
            self.say("merchant", f"Bought {bought.label} for nothing: healed {healed}.", healed)
        else:
            price = weapon_price(self.loop)
            self.health -= price
            self.say("merchant", f"Bought {bought.label} for {price} health.", price)
            self.equip(bought)
        self.discard = self.discard + (merchant,)
        self.after_card()

    def necromancer(self, pay: bool) -> None:
        _, necro = self.pending
        if not pay:
            self.pending = ()
            self.discard = self.discard + (necro,)
            self.say("necromancer", "You turn the necromancer away.")
            self.after_card()
            return
        self.health -= NECROMANCER_COST
        pile = self.shuffle(self.discard)
        raised, self.discard = pile[:ROOM_SIZE], pile[ROOM_SIZE:]
        self.pending = (IN_UNDERWORLD, self.room, self.potion_used, necro)
        self.room = raised
        self.potion_used = False
        self.say("necromancer", f"Paid {NECROMANCER_COST} health. The dead rise: "
                                f"{' '.join(c.label for c in raised)}. Face 3 of them.", NECROMANCER_COST)

    def leave_underworld(self, left: tuple[Card, ...]) -> None:
        _, outer, outer_potion, necro = self.pending
        self.pending = ()
        self.discard = self.discard + left + (necro,)
        self.room = outer
        self.potion_used = outer_potion
        self.say("necromancer", "The raised room is done; back to the dungeon.")
        self.after_card()

    def crossroads(self, loop: bool) -> None:
        self.pending = ()
        if not loop:
            self.status = WON
            self.say("retire", f"You retire after {self.loop} loop(s).")
            return
        leftovers = tuple(c for c in self.room if c is not None)
        self.dungeon = self.shuffle(self.discard + leftovers)
        self.discard = ()
        self.room = ()
        self.loop += 1
        self.avoided_last = False
        self.say("loop", f"Loop {self.loop}: the graveyard becomes the dungeon.")
        self.start_turn(())


# --- results --------------------------------------------------------------------------

def unresolved_monsters(s: State, include_room: bool = True) -> int:
    total = sum(c.value for c in s.dungeon if c.kind == MONSTER)
    if include_room:
        total += sum(c.value for c in s.room if c is not None and c.kind == MONSTER)
        if s.pending and s.pending[0] == IN_UNDERWORLD:
            total += sum(c.value for c in s.pending[1] if c is not None and c.kind == MONSTER)
    return total


def score(s: State) -> int | None:
    """The final score, or None while the game is on (RULES.md: Death, Clear)."""
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
