"""Whole numbers as a person types them: the ASCII digits 0-9, and not too many of them.

``str.isdigit`` is true of ``①``, ``²`` and other characters that ``int`` refuses, and ``int`` reads the digits of
every script (``٣`` is 3) and refuses more than 4,300 of them with an error of its own. A card number, a seed
number, an id or a setting is written in 0-9, so every parser of text from outside reads its numbers here.
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"[0-9]+")  # (a character range, not \d: only 0-9)
LONGEST = 19  # digits: every number of 19 digits fits a 64-bit signed integer (a database row id, a Discord id)


def whole_number(text: str, digits: int = LONGEST) -> int | None:
    """The number ``text`` writes in 1 to ``digits`` ASCII digits (nothing else, not even spaces), else None."""
    if not 0 < len(text) <= digits or not _DIGITS.fullmatch(text):
        return None
    return int(text)
