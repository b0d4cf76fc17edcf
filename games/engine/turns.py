"""The steps an action is made of, on a list copy of the state: turns begin and rooms end.

``playing.apply`` plays the usual move (a monster, potion or weapon taken from the room) on local variables: the
state is unpacked once and the new State is one tuple built from them. Every other step (the end of a room,
avoiding, the expansion's cards and phases) edits one list copy of the state in place (``g``, indexed by the
``G_`` constants below) and one ``tuple.__new__`` (``new_state``) makes the result. Here: recording an event,
shuffling, starting a turn, equipping a weapon, and what follows a resolved card: the next room, the final
room's end, the end of the underworld's raised room, a cleared dungeon. The expansion's own steps are in
``expansion.py``.
"""

from __future__ import annotations

from games.engine.cards import Card
from games.engine.rules import EARLY, FINAL_ROOM, MAX_LOOPS
from games.engine.seeds import shuffled
from games.engine.state import (
    AT_CROSSROADS,
    CARDS_FACED,
    IN_UNDERWORLD,
    PLAYING,
    ROOM_SIZE,
    WON,
    Event,
    State,
)

# Where each field of ``State`` sits in ``g``, the list copy of a state that the steps edit.
(G_RULES, G_START_DECK, G_RNG_SEED, G_DUNGEON, G_ROOM, G_DISCARD, G_WEAPON, G_KILLS, G_HEALTH, G_TURN,
 G_POTION_USED, G_AVOIDED_LAST, G_LAST_CARD, G_STATUS, G_SHUFFLES, G_LOOP, G_PENDING, G_HISTORY, G_EVENTS,
 G_LOG) = range(len(State._fields))

new_state = tuple.__new__  # ``new_state(State, fields)``: a State built without NamedTuple.s argument handling


def say(g: list, kind: str, text: str | tuple, amount: int = 0) -> None:
    """Record an event; ``text`` is ready text or ``(template, *parts)`` built when read."""
    g[G_EVENTS] += (Event(g[G_TURN], kind, text, amount),)


def shuffle_cards(g: list, cards) -> tuple[Card, ...]:
    g[G_SHUFFLES] += 1
    return shuffled(cards, g[G_RNG_SEED], g[G_SHUFFLES])


def start_turn(g: list, carried: tuple[Card, ...]) -> None:
    """The next room: ``carried`` and cards from the dungeon; under the early ending, out when it cannot fill."""
    need = ROOM_SIZE - len(carried)
    dungeon = g[G_DUNGEON]
    room = carried + dungeon[:need]
    dungeon = g[G_DUNGEON] = dungeon[need:]
    rules = g[G_RULES]
    if rules.ending == EARLY and len(room) < ROOM_SIZE:
        g[G_ROOM] = room
        say(g, "clear", "The dungeon cannot fill another room: you made it out!")
        clear_dungeon(g)
        return
    turn = g[G_TURN] = g[G_TURN] + 1
    g[G_ROOM] = room
    g[G_POTION_USED] = False
    g[G_LOG] = trim_log(g[G_LOG], turn - 1)
    g[G_EVENTS] += (room_event(turn, room, not dungeon and rules.ending == FINAL_ROOM),)


def room_event(turn: int, room: tuple[Card, ...], final: bool) -> Event:
    if final:
        return Event(turn, "room", ("Room {}: {}. This is the final room: every card must be resolved.", turn, room))
    return Event(turn, "room", ("Room {}: {}.", turn, room))


def trim_log(log: tuple[Event, ...], previous: int) -> tuple[Event, ...]:
    """The log without the events of turns before ``previous`` (the log is in turn order)."""
    if not log or log[0].turn >= previous:
        return log
    kept = 1
    for event in log[1:]:
        if event.turn >= previous:
            break
        kept += 1
    return log[kept:]


def equip_event(turn: int, weapon: Card, old: Card | None) -> Event:
    if old is not None:
        return Event(turn, "equip", ("Equipped {}, discarding {}.", weapon, old))
    return Event(turn, "equip", ("Equipped {}.", weapon))


def equip(g: list, weapon: Card) -> None:
    old = g[G_WEAPON]
    if old is not None:
        g[G_DISCARD] += (old,) + g[G_KILLS]
    g[G_EVENTS] += (equip_event(g[G_TURN], weapon, old),)
    g[G_WEAPON] = weapon
    g[G_KILLS] = ()


def after_card(g: list) -> None:
    """After a card is resolved: end the (sub-)room or the game when it is done."""
    if g[G_STATUS] != PLAYING:
        return
    room = g[G_ROOM]
    resolved = room.count(None)
    pending = g[G_PENDING]
    if pending and pending[0] == IN_UNDERWORLD:
        if resolved >= CARDS_FACED or resolved == len(room):
            leave_underworld(g, tuple([c for c in room if c is not None]))
        return
    if not g[G_DUNGEON] and g[G_RULES].ending == FINAL_ROOM:
        if resolved == len(room):
            say(g, "clear", "The final room is cleared: you survived the dungeon!")
            clear_dungeon(g)
        return
    if resolved >= CARDS_FACED:
        g[G_AVOIDED_LAST] = False
        start_turn(g, tuple(filter(None, room)))  # the cards left (a card is never false)


def clear_dungeon(g: list) -> None:
    """The dungeon is cleared: won, or to the crossroads while loops are left."""
    if g[G_RULES].looping and g[G_LOOP] < MAX_LOOPS:
        g[G_PENDING] = (AT_CROSSROADS,)
        say(g, "crossroads", ("Loop {} cleared. Descend again, or retire with your score?", g[G_LOOP]))
    else:
        g[G_STATUS] = WON


def leave_underworld(g: list, left: tuple[Card, ...]) -> None:
    """The raised room is done: back to the room the necromancer was met in (``expansion.necromancer_choice``)."""
    _, outer, outer_potion, necro = g[G_PENDING]
    g[G_PENDING] = ()
    g[G_DISCARD] += left + (necro,)
    g[G_ROOM] = outer
    g[G_POTION_USED] = outer_potion
    say(g, "necromancer", "The raised room is done; back to the dungeon.")
    after_card(g)
