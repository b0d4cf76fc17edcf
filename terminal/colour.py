"""Cards in red and black in a terminal: an output stream that colours every card label written through it.

Colour is used only when the stream is a terminal, ``TERM`` is not ``dumb`` and ``NO_COLOR`` is unset or empty
(https://no-color.org); otherwise the text passes through untouched. Cards are written as everywhere else
(``games.engine.cards.readable``: ``♤4``, ``♥️5``); red suits are printed red, black suits in bold in the terminal's
own text colour (true black would vanish on a dark terminal).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import TextIO, cast

RED, BOLD, RESET = "\x1b[31m", "\x1b[1m", "\x1b[0m"
_RANK = r"(?:10|[2-9AJQK])"
# Suit first, the red suits maybe with their emoji selector: ♤A, ♥️10 (plain ♠A, ♥10 too).
CARD = re.compile(rf"[♠♣♤♧♥♦]\ufe0f?{_RANK}")


def paint(text: str) -> str:
    return CARD.sub(lambda m: f"{RED if ('♥' in m[0] or '♦' in m[0]) else BOLD}{m[0]}{RESET}", text)


def wants_colour(stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class ColourWriter:
    """Wraps a text stream; ``write`` colours the card labels in what it is given."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(paint(text))

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def for_terminal(stream: TextIO, environ: Mapping[str, str] = os.environ) -> TextIO:
    """``stream`` itself, or a colouring wrapper of it when colour is wanted."""
    return cast(TextIO, ColourWriter(stream)) if wants_colour(stream, environ) else stream  # it writes like one
