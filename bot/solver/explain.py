"""An optimal line in words: replayed through the engine, one line per room, from each state's events."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Action, Rules, apply, new_game
from bot.engine.cards import Card
from bot.engine.game import State
from bot.i18n.messages import ENGLISH, Messages


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
