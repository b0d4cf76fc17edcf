"""Duel snapshots as JSON (format-versioned). The action log is the truth; a snapshot is a cache of it."""

from __future__ import annotations

import json

from games.duel.cards import Card
from games.duel.game import OVER, PLACING, PLAYING, Column, DuelState
from games.i18n.phrase import Phrase

FORMAT = 1


class DuelSnapshotError(ValueError):
    pass


def _cards(cards) -> str:
    return " ".join(c.code for c in cards)


def _parse_cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in text.split())


def _event_data(event: str):
    """An event as JSON: its template and fields, so it can still be translated (plain text as it is)."""
    return [event.template, event.fields] if isinstance(event, Phrase) else event


def _event(data) -> str:
    if isinstance(data, str):  # written before events kept their template: shown as it was written
        return data
    template, fields = data
    return Phrase(str(template), **{str(name): value for name, value in dict(fields).items()})


def to_json(state: DuelState) -> str:
    data = {
        "format": FORMAT, "seed": state.seed, "dealer": state.dealer,
        "hands": [_cards(h) for h in state.hands],
        "columns": [[[_cards(c.cards), c.direction, c.finished] for c in side] for side in state.columns],
        "stock": _cards(state.stock), "stolen": _cards(state.stolen),
        "roller": state.roller, "phase": state.phase, "actor": state.actor,
        "dice": list(state.dice), "placed": list(state.placed), "usage": list(state.usage),
        "rolls": state.rolls, "reshuffles": state.reshuffles, "turn": state.turn, "winner": state.winner,
        "history": list(state.history), "events": [_event_data(e) for e in state.events],
    }
    return json.dumps(data, separators=(",", ":"))


def from_json(text: str) -> DuelState:
    try:
        d = json.loads(text)
        if d.get("format") != FORMAT:
            raise DuelSnapshotError(f"unknown duel snapshot format {d.get('format')!r}")
        if d["phase"] not in (PLACING, PLAYING, OVER):
            raise DuelSnapshotError(f"unknown phase {d['phase']!r}")
        return DuelState(
            seed=int(d["seed"]), dealer=int(d["dealer"]),
            hands=tuple(_parse_cards(h) for h in d["hands"]),  # type: ignore[arg-type]  # two players
            columns=tuple(tuple(Column(_parse_cards(c), int(direction), bool(done)) for c, direction, done in side)  # type: ignore[arg-type]
                          for side in d["columns"]),
            stock=_parse_cards(d["stock"]), stolen=_parse_cards(d["stolen"]),
            roller=int(d["roller"]), phase=d["phase"], actor=int(d["actor"]),
            dice=tuple(d["dice"]), placed=tuple(d["placed"]), usage=tuple(d["usage"]),
            rolls=int(d["rolls"]), reshuffles=int(d["reshuffles"]), turn=int(d["turn"]), winner=d["winner"],
            history=tuple(d["history"]), events=tuple(_event(e) for e in d["events"]))
    except DuelSnapshotError:
        raise
    except (ValueError, KeyError, TypeError) as exc:
        raise DuelSnapshotError(f"damaged duel snapshot: {exc}") from exc
