"""An optimal line in words: replayed through the engine, one line per room, from each state's events."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import Action, Rules, State, apply, new_game
from games.engine.actions import AVOID, FIGHT_WITH_WEAPON, TAKE
from games.engine.cards import MONSTER, POTION, WEAPON, Card
from games.i18n.messages import ENGLISH, Messages


def line_text(rules: Rules, deck: Sequence[Card], actions: Sequence[Action], start: State | None = None,
              tr: Messages = ENGLISH) -> list[str]:
    """One text per room, in ``tr``'s language: what was in it, what the line does there, and the health it leaves.

    ``start`` replaces ``new_game(rules, deck=deck)`` (tests use it for small deals the engine cannot deal).
    """
    state = start if start is not None else new_game(rules, deck=tuple(deck))
    lines: list[str] = []
    current: list[str] = []
    for event in state.events:
        current.append(tr.event(event))
    for action in actions:
        state = apply(state, action)
        for event in state.events:
            if event.kind == "room":
                lines.append(_room_line(tr, current, state.health))
                current = []
            current.append(tr.event(event))
    if current:
        lines.append(_room_line(tr, current, state.health if not state.over else None, state))
    return lines


def _room_line(tr: Messages, texts: list[str], health: int | None, end: State | None = None) -> str:
    text = " ".join(texts)
    if end is not None and end.over:
        return tr("{events} Score: {score}.", events=text, score=end.score)
    return tr("{events} Health: {health}.", events=text, health=health)


# One mark per kind of move, so a whole line fits a phone: a mark and the card it acts on, nothing else.
MOVE_MARKS = {"equip": "🗡️", "weapon": "⚔️", "barehanded": "👊", "drink": "🧪", "discard": "🗑️", "avoid": "🏃"}


def short_line(rules: Rules, deck: Sequence[Card], actions: Sequence[Action], start: State | None = None
               ) -> list[tuple[int, str, int]]:
    """The line room by room, compactly: (room number, its moves as marks and cards, health after the room)."""
    state = start if start is not None else new_game(rules, deck=tuple(deck))
    rooms: list[tuple[int, list[str], int]] = []
    for action in actions:
        card = state.room[action.index] if action.kind in (TAKE, FIGHT_WITH_WEAPON) else None
        if action.kind == AVOID:
            mark = MOVE_MARKS["avoid"]
        elif card is None or action.kind not in (FIGHT_WITH_WEAPON, TAKE):
            mark = action.code  # the expansion's choices: their code
        elif action.kind == FIGHT_WITH_WEAPON:
            mark = MOVE_MARKS["weapon"] + card.label
        elif card.kind == MONSTER:
            mark = MOVE_MARKS["barehanded"] + card.label
        elif card.kind == WEAPON:
            mark = MOVE_MARKS["equip"] + card.label
        elif card.kind == POTION:
            mark = MOVE_MARKS["discard" if state.potion_used else "drink"] + card.label
        else:
            mark = card.label
        if not rooms or rooms[-1][0] != state.turn:
            rooms.append((state.turn, [], 0))
        state = apply(state, action)
        rooms[-1] = (rooms[-1][0], rooms[-1][1] + [mark], state.health)
    return [(number, " ".join(marks), health) for number, marks, health in rooms]
