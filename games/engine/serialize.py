"""A state's compact JSON form, with a format version.

The form holds every field of the state (cards as codes, actions as codes) so a
state loads without replaying; ``from_json`` checks the card accounting so a
damaged snapshot is refused instead of played.
"""

from __future__ import annotations

import json
from collections import Counter

import orjson

from games.engine.actions import ActionParseError, decode, encode
from games.engine.cards import CODES, Card, CardParseError
from games.engine.rules import Rules, RulesError
from games.engine.state import (
    AT_CROSSROADS,
    AT_MERCHANT,
    AT_NECROMANCER,
    DEAD,
    IN_UNDERWORLD,
    PLAYING,
    WON,
    Event,
    State,
    all_cards,
)

FORMAT = 1


class SnapshotError(ValueError):
    """A JSON state that cannot be loaded: wrong version, damaged or inconsistent."""


def _codes(cards) -> str:
    return " ".join(map(CODES.__getitem__, cards))


def _maybe(card: Card | None) -> str | None:
    return None if card is None else card.code


def _pending_to_json(pending: tuple):
    if not pending:
        return None
    phase = pending[0]
    if phase == AT_MERCHANT:
        return [phase, _codes(pending[1]), pending[2].code]
    if phase == AT_NECROMANCER:
        return [phase, pending[1].code]
    if phase == IN_UNDERWORLD:
        return [phase, [_maybe(c) for c in pending[1]], pending[2], pending[3].code]
    return [phase]


def _events_to_json(events) -> list:
    return [[e.turn, e.kind, e.text, e.amount] for e in events]


def to_dict(s: State) -> dict:
    return {
        "format": FORMAT,
        "rules": s.rules.to_dict(),
        "deck": _codes(s.start_deck),
        "rng_seed": s.rng_seed,
        "dungeon": _codes(s.dungeon),
        "room": [_maybe(c) for c in s.room],
        "discard": _codes(s.discard),
        "weapon": _maybe(s.weapon),
        "kills": _codes(s.kills),
        "health": s.health,
        "turn": s.turn,
        "potion_used": s.potion_used,
        "avoided_last": s.avoided_last,
        "last_card": _maybe(s.last_card),
        "status": s.status,
        "shuffles": s.shuffles,
        "loop": s.loop,
        "pending": _pending_to_json(s.pending),
        "history": encode(s.history),
        "events": _events_to_json(s.events),
        "log": _events_to_json(s.log),
    }


def to_json(s: State) -> str:
    """The compact JSON text: the same text as ``json.dumps`` with no spaces and no ASCII escapes, written by orjson
    (several times faster: a stored game is written whole at every move)."""
    data = to_dict(s)
    try:
        return orjson.dumps(data).decode()
    except TypeError:  # an int beyond 64 bits (a seed given as a larger number): the standard library writes any
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def from_json(text: str | bytes) -> State:
    try:
        data = json.loads(text)
    except (ValueError, TypeError) as exc:
        raise SnapshotError(f"not JSON: {exc}") from exc
    return from_dict(data)


def from_dict(data: dict) -> State:
    if not isinstance(data, dict):
        raise SnapshotError("a state must be a JSON object")
    version = data.get("format")
    if version != FORMAT:
        raise SnapshotError(f"state format {version!r} is not supported (this code reads format {FORMAT})")
    try:
        rules = Rules.from_dict(data["rules"])
        by_code = {c.code: c for c in rules.full_deck()}

        def card(code):
            if code is None:
                return None
            if code not in by_code:
                raise CardParseError(f"unknown card {code!r}")
            return by_code[code]

        def cards(text):
            return tuple(card(c) for c in text.split())

        pending_raw = data["pending"]
        pending: tuple = ()
        if pending_raw:
            phase = pending_raw[0]
            if phase == AT_MERCHANT:
                pending = (phase, cards(pending_raw[1]), card(pending_raw[2]))
            elif phase == AT_NECROMANCER:
                pending = (phase, card(pending_raw[1]))
            elif phase == IN_UNDERWORLD:
                pending = (phase, tuple(card(c) for c in pending_raw[1]), bool(pending_raw[2]),
                           card(pending_raw[3]))
            elif phase == AT_CROSSROADS:
                pending = (phase,)
            else:
                raise SnapshotError(f"unknown pending phase {phase!r}")

        def events(raw):
            return tuple(Event(int(t), str(k), str(x), int(a)) for t, k, x, a in raw)

        state = State(
            rules=rules,
            start_deck=cards(data["deck"]),
            rng_seed=int(data["rng_seed"]),
            dungeon=cards(data["dungeon"]),
            room=tuple(card(c) for c in data["room"]),
            discard=cards(data["discard"]),
            weapon=card(data["weapon"]),
            kills=cards(data["kills"]),
            health=int(data["health"]),
            turn=int(data["turn"]),
            potion_used=bool(data["potion_used"]),
            avoided_last=bool(data["avoided_last"]),
            last_card=card(data["last_card"]),
            status=str(data["status"]),
            shuffles=int(data["shuffles"]),
            loop=int(data["loop"]),
            pending=pending,
            history=decode(data["history"]),
            events=events(data["events"]),
            log=events(data["log"]),
        )
    except SnapshotError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, RulesError, CardParseError, ActionParseError) as exc:
        raise SnapshotError(f"damaged state: {exc!r}") from exc
    _check(state)
    return state


def _check(s: State) -> None:
    if Counter(all_cards(s)) != Counter(s.start_deck) or Counter(s.start_deck) != Counter(s.rules.full_deck()):
        raise SnapshotError("damaged state: the cards do not add up to the deck")
    if s.status not in (PLAYING, WON, DEAD):
        raise SnapshotError(f"damaged state: unknown status {s.status!r}")
    if not 0 <= s.health <= s.rules.max_health:
        raise SnapshotError("damaged state: health out of range")
    if len(s.room) > 4:
        raise SnapshotError("damaged state: a room holds at most 4 cards")
