"""What the use cases tell the process as it happens, whichever surface made it happen.

One event so far: a counted daily finished (``daily_finished``), raised by the move that ended it
(``app.play.solo.move``), whether the move came from chat, the table or anywhere else. The process listens on its
store (``listen``): the Discord bot turns it into its ``daily_finished`` event, which the daily post counts.
Listeners are kept per store, so two bots in one process (the tests) each hear only their own games.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from storage.models import GameRecord

log = logging.getLogger(__name__)

Listener = Callable[[GameRecord], None]
_LISTENERS: WeakKeyDictionary[Any, list[Listener]] = WeakKeyDictionary()


def listen(store: Any, on_daily_finished: Listener) -> Callable[[], None]:
    """Call ``on_daily_finished(record)`` whenever a counted daily on ``store`` ends with a move; returns the
    function that stops it."""
    _LISTENERS.setdefault(store, []).append(on_daily_finished)

    def stop() -> None:
        listeners = _LISTENERS.get(store, [])
        if on_daily_finished in listeners:
            listeners.remove(on_daily_finished)
    return stop


def daily_finished(store: Any, record: GameRecord) -> None:
    """A counted daily on ``store`` has just ended (``record``, as committed). A listener's failure is logged,
    never the move's."""
    for listener in list(_LISTENERS.get(store, ())):
        try:
            listener(record)
        except Exception:  # noqa: BLE001 - the move is made whatever a listener does
            log.exception("a listener of daily_finished failed on game %s", record.id)


__all__ = ["Listener", "daily_finished", "listen"]
