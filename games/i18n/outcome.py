"""What an action will do, in the few characters a button has room for, in the reader's language.

Every surface that offers a card's action (the chat's buttons, the table in the browser) labels it with these
words, so a player reads the same preview wherever they play.
"""

from __future__ import annotations

from games.engine import Outcome
from games.engine.cards import MONSTER, POTION
from games.i18n.marks import N_
from games.i18n.messages import ENGLISH, Messages

# The engine's one-word previews of cards that neither hurt nor heal (``Outcome.note``).
NOTES = {"shop": N_("shop"), "shuffle": N_("shuffle"), "raise": N_("raise"), "nothing": N_("nothing")}


def outcome_text(outcome: Outcome, tr: Messages = ENGLISH) -> str:
    """``−5``, ``0 dmg``, ``−9 lethal``, ``+4``, ``+0 (full)``, ``wasted``, ``equip``, or the engine's note."""
    card = outcome.card
    if card is not None and card.kind == MONSTER:
        if outcome.damage == 0:
            return tr("0 dmg")
        return tr("−{damage} lethal", damage=outcome.damage) if outcome.lethal else f"−{outcome.damage}"
    if card is not None and card.kind == POTION:
        if outcome.wasted:
            return tr("wasted")
        return tr("+0 (full)") if outcome.heal == 0 else f"+{outcome.heal}"
    if outcome.equips and not outcome.damage:
        return tr("equip")
    if outcome.note in NOTES:
        return tr(NOTES[outcome.note])
    return outcome.short
