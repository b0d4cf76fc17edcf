"""Duel actions and their compact codes (used in logs, the database and Discord custom_ids).

    P<die><pair>     place die number <die> (0-based, roll order) on column pair <pair>   e.g. P02
    B<pair><card>    build: play <card> from hand on one's own column of <pair>          e.g. B1H11
    S<pair><card>    steal the opponent's column of <pair> with <card>                   e.g. S3C5
    F<pair>          declare one's own column of <pair> finished                         e.g. F2
    D                done: end one's play
    R<player>        resign (player 0 or 1; allowed at any time while the duel is on)    e.g. R1
"""

from __future__ import annotations

from typing import NamedTuple

from games.duel.cards import Card
from games.engine.digits import whole_number

PLACE, BUILD, STEAL, FINISH, DONE, RESIGN = "P", "B", "S", "F", "D", "R"


class IllegalDuelAction(ValueError):
    """An action the rules refuse; the message is meant for the player."""


class DuelAction(NamedTuple):
    kind: str
    pair: int = -1
    die: int = -1
    card: Card | None = None
    player: int = -1

    @property
    def code(self) -> str:
        if self.kind == PLACE:
            return f"P{self.die}{self.pair}"
        if self.kind in (BUILD, STEAL):
            return f"{self.kind}{self.pair}{self.card.code}"  # type: ignore[union-attr]  # they play a card
        if self.kind == FINISH:
            return f"F{self.pair}"
        if self.kind == RESIGN:
            return f"R{self.player}"
        return DONE

    @classmethod
    def parse(cls, code: str) -> DuelAction:
        bad = IllegalDuelAction(f"{code[:12]!r} is not a duel action")
        if not code:
            raise bad
        kind, rest = code[0].upper(), code[1:]
        try:
            if kind == DONE and not rest:
                return cls(DONE)
            if kind == PLACE and len(rest) == 2 and whole_number(rest) is not None:
                return place(int(rest[0]), int(rest[1]))
            if kind in (BUILD, STEAL) and len(rest) >= 3 and whole_number(rest[0]) is not None:
                return cls(kind, pair=int(rest[0]), card=Card.parse(rest[1:]))
            if kind == FINISH and len(rest) == 1 and whole_number(rest) is not None:
                return finish(int(rest))
            if kind == RESIGN and rest in ("0", "1"):
                return resign(int(rest))
        except ValueError:
            raise bad from None
        raise bad


def place(die: int, pair: int) -> DuelAction:
    return DuelAction(PLACE, pair=pair, die=die)


def build(pair: int, card: Card) -> DuelAction:
    return DuelAction(BUILD, pair=pair, card=card)


def steal(pair: int, card: Card) -> DuelAction:
    return DuelAction(STEAL, pair=pair, card=card)


def finish(pair: int) -> DuelAction:
    return DuelAction(FINISH, pair=pair)


def done() -> DuelAction:
    return DuelAction(DONE)


def resign(player: int) -> DuelAction:
    return DuelAction(RESIGN, player=player)
