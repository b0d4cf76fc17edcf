"""Cards as message text that reads on Discord's dark and light themes alike (``games.engine.cards.readable``).

Discord draws ♠ and ♣ as black emoji, nearly invisible on the dark theme. Black suits are written with the
outline suits ♤ ♧, which are plain text and take the theme's text colour; red suits are forced to their red
emoji (♥️ ♦️). The picture draws the real colours; this is only for text.
"""

from __future__ import annotations

from games.engine import Card, readable


def card_text(card: Card | None) -> str:
    return "·" if card is None else readable(card.label)
