"""Discord's global 429s, told to the process's send budget (app/daily/budget.py).

discord.py handles a 429 itself: it waits ``retry_after`` and sends again, and on a global one it holds every
request until then. It says so only in its log (``discord.http``: "Global rate limit has been hit. Retrying in
%.2f seconds."), so that line is where the budget learns of it, to slow its pace down to the limit now in force.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from app.daily.budget import SendBudget

DISCORD_HTTP = "discord.http"
GLOBAL_HIT = "Global rate limit has been hit"


class GlobalLimitWatch(logging.Filter):
    """A filter that lets every record through, and tells ``budget`` of each global 429 it sees."""

    def __init__(self, budget: SendBudget) -> None:
        super().__init__()
        self.budget = budget

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and record.msg.startswith(GLOBAL_HIT) and record.args:
            try:
                retry_after = float(record.args[0])  # type: ignore[index, arg-type]
            except (TypeError, ValueError, IndexError, KeyError):
                return True
            self.budget.limited_for(retry_after)
        return True


def watch_global_limits(budget: SendBudget) -> Callable[[], None]:
    """Start telling ``budget`` of global 429s; returns the call that stops it."""
    watch = GlobalLimitWatch(budget)
    logger = logging.getLogger(DISCORD_HTTP)
    if logger.getEffectiveLevel() > logging.WARNING:  # a filter sees only the records the logger lets through
        logger.setLevel(logging.WARNING)
    logger.addFilter(watch)
    return lambda: logger.removeFilter(watch)
