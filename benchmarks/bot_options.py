"""What the benchmarks pass to ``ScoundrelBot`` so that any revision's bot runs as in its own process."""

from __future__ import annotations

import inspect


def owning(bot_class) -> dict:
    """The bot owns this process (it tunes the garbage collector); a revision from before that choice always did."""
    return {"own_process": True} if "own_process" in inspect.signature(bot_class).parameters else {}
