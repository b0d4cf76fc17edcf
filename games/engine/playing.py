"""Playing a game: ``new_game`` deals it, ``apply`` makes one action, ``replay`` rebuilds a game from its history.

``apply(state, action)`` returns a new state and never changes its argument; an action that is not allowed
raises ``IllegalAction`` (``legal.py`` says why). What may be done is ``legal.py``; the state is ``state.py``;
the steps an action is made of are ``turns.py`` (rooms and turns) and ``expansion.py`` (the expansion's cards
and phases). Every rule of docs/RULES.md lives in these modules (the deck in ``cards.py``, the options in
``rules.py``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from games.engine import actions as A
from games.engine.actions import FIGHT_WITH_WEAPON, TAKE, Action
from games.engine.cards import MONSTER, POTION, WEAPON, Card
from games.engine.expansion import crossroads_choice, meet, merchant_choice, necromancer_choice
from games.engine.legal import IllegalAction, refusal
from games.engine.rules import CLASSIC, FINAL_ROOM, LOWER_OR_EQUAL, SHUFFLED, Rules
from games.engine.seeds import seed_from_bytes, shuffled
from games.engine.state import CARDS_FACED, DEAD, IN_UNDERWORLD, PLAYING, ROOM_SIZE, Event, State
from games.engine.turns import (
    G_AVOIDED_LAST,
    G_DUNGEON,
    G_EVENTS,
    G_HISTORY,
    G_LOG,
    G_ROOM,
    G_RULES,
    after_card,
    equip_event,
    new_state,
    room_event,
    say,
    shuffle_cards,
    start_turn,
    trim_log,
)


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
    start_turn(g, ())
    g[G_LOG] = g[G_EVENTS]
    return new_state(State, g)


@cache
def _card_set(deck: tuple[Card, ...]) -> frozenset[Card]:
    return frozenset(deck)


# ``apply`` is what the solver's checks, the benchmarks and every move call, millions of times: the usual move (a
# monster, potion or weapon taken from the room, and the next room dealt) runs on local variables, the state
# unpacked once and the new State built as one tuple; the rarer steps edit a list copy (``turns.py``).
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
            return new_state(State, (
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
        event = equip_event(turn, card, weapon)
        weapon = card
        kills = ()
    else:  # an expansion card
        g: list[Any] = [rules, start_deck, rng_seed, dungeon, room, discard, weapon, kills, health, turn, potion_used,
             avoided_last, card, status, shuffles, loop, pending, history, (), log]
        meet(g, card)
        g[G_LOG] += g[G_EVENTS]
        return new_state(State, g)
    events = (event,)
    if not pending and dungeon:
        resolved = room.count(None)
        if resolved < CARDS_FACED:  # the room goes on
            return new_state(State, (
                rules, start_deck, rng_seed, dungeon, room, discard, weapon, kills, health, turn, potion_used,
                avoided_last, card, status, shuffles, loop, pending, history, events, log + events))
        # Three cards faced: the fourth, if still there, is carried (a room of 4; a card is never false).
        carried = () if resolved == len(room) else (room[0] or room[1] or room[2] or room[3],)
        need = ROOM_SIZE - len(carried)
        if len(dungeon) >= need:  # the next room, a full one (as ``start_turn`` makes it)
            room = carried + dungeon[:need]
            dungeon = dungeon[need:]
            turn += 1
            events += (room_event(turn, room, not dungeon and rules.ending == FINAL_ROOM),)  # type: ignore[arg-type]
            return new_state(State, (
                rules, start_deck, rng_seed, dungeon, room, discard, weapon, kills, health, turn, False,
                False, card, status, shuffles, loop, pending, history, events, trim_log(log, turn - 1) + events))
    # The underworld, the final room, or the dungeon ends: the general path.
    g = [rules, start_deck, rng_seed, dungeon, room, discard, weapon, kills, health, turn, potion_used,
         avoided_last, card, status, shuffles, loop, pending, history, events, log]
    after_card(g)
    g[G_LOG] += g[G_EVENTS]
    return new_state(State, g)


def _apply_choice(s: State, action: Action) -> State:
    """Avoiding, and the choices of the expansion's phases."""
    reason = refusal(s, action)
    if reason:
        raise IllegalAction(reason)
    kind = action.kind
    g: list[Any] = list(s)
    g[G_EVENTS] = ()
    if kind == A.AVOID:
        _avoid(g)
    elif kind in (A.BUY, A.LEAVE):
        merchant_choice(g, action.index if kind == A.BUY else None)
    elif kind in (A.RAISE, A.DECLINE):
        necromancer_choice(g, kind == A.RAISE)
    else:
        crossroads_choice(g, kind == A.LOOP)
    g[G_LOG] += g[G_EVENTS]
    g[G_HISTORY] = s.history + (action,)
    return new_state(State, g)


def _avoid(g: list) -> None:
    """The room goes under the dungeon (shuffled first if the rules say so) and the next one is dealt."""
    room = g[G_ROOM]
    if g[G_RULES].avoided_order == SHUFFLED:
        room = shuffle_cards(g, room)
    g[G_DUNGEON] += room
    g[G_AVOIDED_LAST] = True
    say(g, "avoid", ("Avoided the room; {} went under the dungeon.", room))
    start_turn(g, ())


def replay(rules: Rules, deck: tuple[Card, ...], actions, seed: int | None = None) -> State:
    """Rebuild a game from its rules, deck and actions (raises IllegalAction on a bad log)."""
    s = new_game(rules, seed=seed, deck=deck)
    for action in actions:
        s = apply(s, action)
    return s
