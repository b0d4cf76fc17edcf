"""The database's trouble, logged so an operator can read it: one line when it starts, then one line a minute with
how many requests it refused, instead of an ERROR and a traceback for each click.

A full disk or a database that is down fails every request at once: hundreds of identical tracebacks a second
(a full SQLite disk wrote 622 in 10 s) bury the one line that says what is wrong. Each player is still answered
(cogs/plumbing/errors.py); the metric ``scoundrel_errors_total{cause="database"}`` still counts every failure; the
traceback is kept for DEBUG.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from app import errors as store_errors

log = logging.getLogger(__name__)

WINDOW = 60.0  # seconds between two lines about the same trouble


def kind_of(error: BaseException) -> str:
    """``full`` (nothing can be stored), ``down`` (out of reach) or ``failing`` (any other database error)."""
    if isinstance(error, store_errors.DatabaseFull):
        return "full"
    if isinstance(error, store_errors.DatabaseUnavailable):
        return "down"
    return "failing"


WORDS = {"full": "the database is full or read-only: nothing can be saved",
         "down": "the database cannot be reached or does not answer in time",
         "failing": "the database refuses requests"}


@dataclass
class _Window:
    loop: asyncio.AbstractEventLoop | None  # whose timer closes it (a window of a finished loop never closes)
    count: int = 0
    latest: str = ""


class DatabaseTrouble:
    """Counts the failures of each kind; ``note`` logs the first of a run at once and the rest once a minute."""

    def __init__(self, window: float = WINDOW) -> None:
        self.window = window
        self._open: dict[str, _Window] = {}

    def note(self, error: BaseException, where: str, kind: str | None = None) -> None:
        """One failure of a request (``where``); ``kind`` as ``kind_of`` says unless given (a call that timed
        out is ``down``)."""
        kind = kind or kind_of(error)
        text = _one_line(error)
        log.debug("database failure in %s", where, exc_info=error)
        current = self._open.get(kind)
        if current is not None and current.loop is _running_loop():
            current.count += 1
            current.latest = text
            return
        log.error("%s (%s in %s); further failures are counted, one line a minute", WORDS[kind], text, where)
        self._open[kind] = _Window(_running_loop())
        self._schedule(kind)

    def _schedule(self, kind: str) -> None:
        loop = self._open[kind].loop
        if loop is None:  # no loop (called outside the bot): the next failure logs its own first line
            del self._open[kind]
        else:
            loop.call_later(self.window, self._close, kind)

    def _close(self, kind: str) -> None:
        current = self._open.pop(kind, None)
        if current is None or current.count == 0:
            return  # a quiet minute: the trouble is over, or nobody asked; the next failure starts a new run
        log.error("%s: %d more requests failed in the last %.0f s (latest: %s)", WORDS[kind], current.count,
                  self.window, current.latest)
        self._open[kind] = _Window(current.loop)
        self._schedule(kind)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())[:300] or type(error).__name__


TROUBLE = DatabaseTrouble()  # one per process: every cog's failures add up to the same lines
