"""Translations, kept as gettext ``.po`` catalogues read with Babel (``games/i18n/locales/<locale>/``).

English is the source language: a catalogue maps English text to one Discord locale.

- ``commands.po`` holds the slash commands' names, descriptions and choices (``cogs.text.translator``).
- ``messages/*.po`` hold everything a player reads: embeds, buttons, refusals, rules, help, the share
  text and the picture's words (``games.i18n.messages``). One file per area of the bot; together they are
  one catalogue.

Code marks text where it is written: ``tr("…")`` translates at once for the reader's locale, ``N_("…")``
marks text kept for later (module constants, the engine's event templates) and ``tr(CONSTANT)`` then
translates it where it is shown. The tests extract every marked string from the code with Babel and check
each catalogue against it.
"""

from __future__ import annotations

from games.i18n.marks import N_
from games.i18n.messages import ENGLISH, SHIPPED, Messages, messages_for
from games.i18n.outcome import outcome_text
from games.i18n.phrase import translated

__all__ = [
    "N_", "ENGLISH", "SHIPPED", "Messages", "messages_for", "outcome_text", "translated",
]
