"""How large a picture's words must be drawn to be read on a phone.

Discord shows a message's picture at the width its embed leaves, whatever the picture's own width, and no
taller than 280 px: measured in SimCord's Discord-like preview (``simcord[preview]`` 3.2.1, the window 390 px
wide as a phone's; ``scripts/capture_screens.py`` prints each picture's shown width), the 800-px table and the
640-px duel board both show 270 px wide, and a picture taller than 280 / 270 of its width is shown 280 px tall,
narrower (the preview's ``img.embed-image``: ``width: 100%; max-height: 280px; object-fit: contain``). A word
drawn ``size`` px tall is then ``size * shown width / width`` px tall on the phone; 11 px is the smallest a
reader takes in without zooming.
"""

from __future__ import annotations

from math import ceil
from typing import NamedTuple

PHONE_PICTURE_WIDTH = 270  # px: a picture's shown width in a 390-px phone's message (SimCord's preview)
PHONE_PICTURE_HEIGHT = 280  # px: the tallest a message's picture is shown; a taller one is shown narrower
SMALLEST_SHOWN = 11  # px: the smallest glyph a phone's reader reads without zooming


def shown_width(width: int, height: int) -> float:
    """How wide a picture ``width`` × ``height`` px shows in a phone's message."""
    return min(width, PHONE_PICTURE_WIDTH, PHONE_PICTURE_HEIGHT * width / height)


def smallest_size(width: int, height: int = 0) -> int:
    """The smallest font size (px, FreeType's em size) a picture ``width`` × ``height`` px may draw a word at
    (``height`` 0: a picture not taller than the phone shows it)."""
    shown = shown_width(width, height) if height else min(width, PHONE_PICTURE_WIDTH)
    return ceil(SMALLEST_SHOWN * width / shown)


def shown_size(size: float, width: int, height: int = 0) -> float:
    """How tall (px) a word drawn at ``size`` in a picture ``width`` × ``height`` px shows on the phone."""
    shown = shown_width(width, height) if height else min(width, PHONE_PICTURE_WIDTH)
    return size * shown / width


class Word(NamedTuple):
    """A text a picture draws and the font size it draws it at: the layouts list theirs for the tests."""

    text: str
    size: int
