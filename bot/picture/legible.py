"""How large a picture's words must be drawn to be read on a phone.

Discord shows a message's picture at the width its embed leaves, whatever the picture's own width: measured in
SimCord's Discord-like preview (``simcord[preview]`` 3.2.1, the window 390 px wide as a phone's,
``scripts/capture_screens.py`` prints each picture's shown width), the 800-px table and the 640-px duel board
both show 270 px wide. A word drawn ``size`` px tall in a picture ``width`` px wide is then
``size * 270 / width`` px tall on the phone; 11 px is the smallest a reader takes in without zooming.
"""

from __future__ import annotations

from math import ceil
from typing import NamedTuple

PHONE_PICTURE_WIDTH = 270  # px: a picture's shown width in a 390-px phone's message (SimCord's preview)
SMALLEST_SHOWN = 11  # px: the smallest glyph a phone's reader reads without zooming


def smallest_size(width: int) -> int:
    """The smallest font size (px, FreeType's em size) a picture ``width`` px wide may draw a word at."""
    return ceil(SMALLEST_SHOWN * width / PHONE_PICTURE_WIDTH)


def shown_size(size: float, width: int) -> float:
    """How tall (px) a word drawn at ``size`` in a picture ``width`` px wide shows on the phone."""
    return size * min(1.0, PHONE_PICTURE_WIDTH / width)


class Word(NamedTuple):
    """A text a picture draws and the font size it draws it at: the layouts list theirs for the tests."""

    text: str
    size: int
