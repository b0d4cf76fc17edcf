"""Cards: what they are, how they are written, and which deck a rule set uses.

A card is a small immutable value. Its *kind* (monster, weapon, potion or one of
the expansion cards) is fixed when the deck is built, because the same printed
card means different things under different rules (♦K is a weapon in the
52-card deck and a merchant in the expansion).

Text forms:
- code: suit letter + value, e.g. ``S14``, ``H5``, ``D10``, jokers ``X1``/``X2``;
  typed by players (``--deck``) and stored in the database.
- label: the card in plain suits, e.g. ``♠A``, ``♥5``, ``♦10``, ``🃏``.
- readable text (``readable``): what a player reads, in the bot, the terminal and the duel alike: suit first,
  black suits outlined (``♤A``, ``♧7``: Discord draws ♠ and ♣ as black emoji that vanish on its dark theme) and red
  suits as their red emoji (``♥️5``, ``♦️10``), so every card reads on dark and light backgrounds.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

MONSTER = "monster"
WEAPON = "weapon"
POTION = "potion"
MERCHANT = "merchant"
JOKER = "joker"
NECROMANCER = "necromancer"

SUIT_SYMBOLS = {"C": "♣", "S": "♠", "D": "♦", "H": "♥", "X": "🃏"}
_FACE_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
# Plain suits to the ones a player reads; a red suit already followed by its emoji selector is left as it is.
_READABLE = {"♠": "♤", "♣": "♧", "♥": "♥️", "♦": "♦️"}
_PLAIN_SUIT = re.compile("[♠♣]|[♥♦](?!\ufe0f)")


def readable(text: str) -> str:
    """``text`` with every suit written as players read it (``♠4`` → ``♤4``, ``♥5`` → ``♥️5``); idempotent."""
    return _PLAIN_SUIT.sub(lambda suit: _READABLE[suit[0]], text)


class Card(NamedTuple):
    suit: str  # one of C S D H, or X for a joker
    value: int  # the number the rules use (aces are 14, or 1 in the full deck)
    kind: str

    @property
    def code(self) -> str:
        return CODES[self]

    @property
    def rank(self) -> str:
        """The printed rank: 2-10, J, Q, K or A."""
        if self.value == 1 and self.suit != "X":
            return "A"
        return _FACE_NAMES.get(self.value, str(self.value))

    @property
    def label(self) -> str:
        return _label(self.suit, self.value)

    def __str__(self) -> str:  # pragma: no cover - convenience for debugging
        return self.label


class _Codes(dict):
    """Each card's code, written once: a stored game writes every card of its deal at every move."""

    def __missing__(self, card: Card) -> str:
        code = self[card] = f"{card.suit}{card.value}"
        return code


CODES: dict[Card, str] = _Codes()  # card -> code (``CODES[card]`` is ``card.code``)


@cache
def _label(suit: str, value: int) -> str:
    if suit == "X":
        return "🃏"
    rank = "A" if value == 1 else _FACE_NAMES.get(value, str(value))
    return f"{SUIT_SYMBOLS[suit]}{rank}"


def _kind(suit: str, value: int, full_deck: bool, merchants: bool, necromancers: bool) -> str | None:
    """The role of a printed card under a deck configuration, or None if it is left out."""
    if suit in "CS":
        return MONSTER
    if suit == "X":
        return None
    red_face_or_ace = value >= 11 or (full_deck and value == 1)
    if full_deck:
        return WEAPON if suit == "D" else POTION
    if not red_face_or_ace:
        return WEAPON if suit == "D" else POTION
    if value == 13 and merchants:
        return MERCHANT
    if value == 11 and necromancers:
        return NECROMANCER
    return None


@cache
def build_deck(full_deck: bool = False, merchants: bool = False, jokers: bool = False,
               necromancers: bool = False) -> tuple[Card, ...]:
    """The unshuffled deck in canonical order: suits C, S, D, H, values ascending, jokers last.

    The canonical order is part of the seeded-deal algorithm (see ``seeds.py``):
    changing it changes every seeded deal.
    """
    values = range(1, 14) if full_deck else range(2, 15)
    cards = []
    for suit in "CSDH":
        for value in values:
            kind = _kind(suit, value, full_deck, merchants, necromancers)
            if kind is not None:
                cards.append(Card(suit, value, kind))
    if jokers:
        cards += [Card("X", 1, JOKER), Card("X", 2, JOKER)]
    return tuple(cards)


class CardParseError(ValueError):
    pass


def parse_card(code: str, deck: tuple[Card, ...]) -> Card:
    """Read a card code (``S14``, ``h5``, ``♠A``, ``D10``) as a card of ``deck``."""
    text = code.strip().upper()
    by_code = {c.code: c for c in deck}
    if text in by_code:
        return by_code[text]
    by_label = {c.label.upper(): c for c in deck}
    if code.strip().upper() in by_label:
        return by_label[code.strip().upper()]
    raise CardParseError(
        f"{code[:12]!r} is not a card of this deck: write a suit letter C/S/D/H and a value, e.g. S14 or H5"
    )


def parse_deck(text: str, deck: tuple[Card, ...]) -> tuple[Card, ...]:
    """Read an explicit deck order (top card first); it must be exactly ``deck`` reordered."""
    cards = tuple(parse_card(part, deck) for part in text.replace(",", " ").split())
    if sorted(cards) != sorted(deck):
        missing = sorted(set(deck) - set(cards))
        extra = [c for c in cards if cards.count(c) > 1 or c not in deck]
        parts = []
        if missing:
            parts.append("missing " + " ".join(c.code for c in missing))
        if extra:
            parts.append("repeated " + " ".join(sorted({c.code for c in extra})))
        raise CardParseError(
            f"a deck must hold each of the {len(deck)} cards exactly once ({'; '.join(parts) or 'wrong count'})"
        )
    return cards


def deck_codes(cards: tuple[Card, ...]) -> str:
    return " ".join(c.code for c in cards)
