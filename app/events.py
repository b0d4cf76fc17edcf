"""What the use cases tell the process as it happens, whichever surface made it happen.

Two events: a counted daily finished (``daily_finished``), raised by the move that ended it, and a move in a
challenge's game (``challenge_moved``), both raised by ``app.play.solo.move``, whether the move came from chat, the
table or anywhere else. The process listens on its store (``listen``, ``listen_challenges``): the Discord bot turns
them into its ``daily_finished`` event, which the daily post counts, and ``challenge_moved``, after which the
challenge's standings are edited in their turn.
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
_CHALLENGE_LISTENERS: WeakKeyDictionary[Any, list[Listener]] = WeakKeyDictionary()


def listen(store: Any, on_daily_finished: Listener) -> Callable[[], None]:
    """Call ``on_daily_finished(record)`` whenever a counted daily on ``store`` ends with a move; returns the
    function that stops it."""
    return _listen(_LISTENERS, store, on_daily_finished)


def listen_challenges(store: Any, on_challenge_moved: Listener) -> Callable[[], None]:
    """Call ``on_challenge_moved(record)`` whenever a move is made in a challenge's game on ``store``."""
    return _listen(_CHALLENGE_LISTENERS, store, on_challenge_moved)


def _listen(registry: WeakKeyDictionary[Any, list[Listener]], store: Any, listener: Listener) -> Callable[[], None]:
    registry.setdefault(store, []).append(listener)

    def stop() -> None:
        listeners = registry.get(store, [])
        if listener in listeners:
            listeners.remove(listener)
    return stop


def daily_finished(store: Any, record: GameRecord) -> None:
    """A counted daily on ``store`` has just ended (``record``, as committed). A listener's failure is logged,
    never the move's."""
    _tell(_LISTENERS, store, record, "daily_finished")


def challenge_moved(store: Any, record: GameRecord) -> None:
    """A move was just made in a challenge's game on ``store`` (``record``, as committed)."""
    _tell(_CHALLENGE_LISTENERS, store, record, "challenge_moved")


def _tell(registry: WeakKeyDictionary[Any, list[Listener]], store: Any, record: GameRecord, event: str) -> None:
    for listener in list(registry.get(store, ())):
        try:
            listener(record)
        except Exception:  # noqa: BLE001 - the move is made whatever a listener does
            log.exception("a listener of %s failed on game %s", event, record.id)


__all__ = ["Listener", "challenge_moved", "daily_finished", "listen", "listen_challenges"]
