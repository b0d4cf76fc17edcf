"""Duel cards: a plain 52-card deck (no jokers), ranks A..K = 1..13 that wrap (K is next to A).

Text forms: code = suit letter + rank number (``H11``), stored and used in action codes;
label = the card, suit first as in the solo game (``♥J``; players read it through ``games.engine.cards.readable``:
``♥️J``, ``♤10``).
"""

from __future__ import annotations

from typing import NamedTuple

from games.engine.digits import whole_number

SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANKS = 13


class Card(NamedTuple):
    rank: int  # 1 (ace) .. 13 (king)
    suit: str  # C D H S

    @property
    def code(self) -> str:
        return f"{self.suit}{self.rank}"

    @property
    def label(self) -> str:
        return f"{SUIT_SYMBOLS[self.suit]}{RANK_LABELS.get(self.rank, str(self.rank))}"

    @classmethod
    def parse(cls, code: str) -> Card:
        suit, rank = code[:1].upper(), whole_number(code[1:], digits=2)
        if suit not in SUITS or rank is None or not 1 <= rank <= RANKS:
            raise ValueError(f"{code[:12]!r} is not a card (e.g. H11 = ♥J)")
        return cls(rank, suit)


def step(rank: int, direction: int) -> int:
    """The rank one step up (+1) or down (-1), wrapping K <-> A."""
    return (rank - 1 + direction) % RANKS + 1


def build_deck() -> tuple[Card, ...]:
    """The canonical order the seeded shuffle starts from: clubs A..K, diamonds, hearts, spades."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in range(1, RANKS + 1))


def sort_hand(cards) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: (c.rank, c.suit)))
