"""What the use cases tell the process as it happens, whichever surface made it happen.

Two events: a counted daily finished (``daily_finished``), raised by the move that ended it
(``app.play.solo.move``), whether the move came from chat, the table or anywhere else; and a day's par is wanted
(``par_wanted``), raised when a daily is started while its par is not known yet (``app.daily.attempt``), so the
process has it solved in the background (``app.daily.par.ParKeeper.soon``) without any surface asking. The
process listens on its store (``listen``, ``listen_par_wanted``): the Discord bot turns the first into its
``daily_finished`` event, which the daily post counts. A move in a challenge's game (``challenge_moved``, raised by
``app.play.solo.move``) becomes the bot's ``challenge_moved``, after which the challenge's standings are edited in
their turn (``listen_challenges``). Every move, and every game's end by giving up, whichever surface or
use case made it, is also ``moved`` (``listen_moves``): the table's strip of friends (``web/together.py``)
follows the games it shows by it, so a move made in chat reaches the table without chat knowing the table.
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
DayListener = Callable[[int], None]
DAILY_FINISHED, PAR_WANTED, CHALLENGE_MOVED, MOVED = "daily_finished", "par_wanted", "challenge_moved", "moved"
_LISTENERS: WeakKeyDictionary[Any, dict[str, list[Callable[[Any], None]]]] = WeakKeyDictionary()


def _listen(store: Any, event: str, listener: Callable[[Any], None]) -> Callable[[], None]:
    _LISTENERS.setdefault(store, {}).setdefault(event, []).append(listener)

    def stop() -> None:
        listeners = _LISTENERS.get(store, {}).get(event, [])
        if listener in listeners:
            listeners.remove(listener)
    return stop


def _raise(store: Any, event: str, value: Any, about: str) -> None:
    for listener in list(_LISTENERS.get(store, {}).get(event, ())):
        try:
            listener(value)
        except Exception:  # noqa: BLE001 - what raised it goes on whatever a listener does
            log.exception("a listener of %s failed on %s", event, about)


def listen(store: Any, on_daily_finished: Listener) -> Callable[[], None]:
    """Call ``on_daily_finished(record)`` whenever a counted daily on ``store`` ends with a move; returns the
    function that stops it."""
    return _listen(store, DAILY_FINISHED, on_daily_finished)


def listen_par_wanted(store: Any, on_par_wanted: DayListener) -> Callable[[], None]:
    """Call ``on_par_wanted(day)`` whenever a daily on ``store`` is started while its par is unknown; returns the
    function that stops it. The listener must return at once (start the solve, never wait for it)."""
    return _listen(store, PAR_WANTED, on_par_wanted)


def listen_challenges(store: Any, on_challenge_moved: Listener) -> Callable[[], None]:
    """Call ``on_challenge_moved(record)`` whenever a move is made in a challenge's game on ``store``."""
    return _listen(store, CHALLENGE_MOVED, on_challenge_moved)


def listen_moves(store: Any, on_moved: Listener) -> Callable[[], None]:
    """Call ``on_moved(record)`` after every move made on ``store``, and every game given up (by its player or
    by a challenge's close); the listener must return at once."""
    return _listen(store, MOVED, on_moved)


def moved(store: Any, record: GameRecord) -> None:
    """A game on ``store`` has just changed by a move or a give-up (``record``, as committed)."""
    _raise(store, MOVED, record, f"game {record.id}")


def challenge_moved(store: Any, record: GameRecord) -> None:
    """A move was just made in a challenge's game on ``store`` (``record``, as committed)."""
    _raise(store, CHALLENGE_MOVED, record, f"game {record.id}")


def daily_finished(store: Any, record: GameRecord) -> None:
    """A counted daily on ``store`` has just ended (``record``, as committed). A listener's failure is logged,
    never the move's."""
    _raise(store, DAILY_FINISHED, record, f"game {record.id}")


def par_wanted(store: Any, day: int) -> None:
    """A daily of ``day`` on ``store`` was started while its par is not known. A listener's failure is logged,
    never the player's."""
    _raise(store, PAR_WANTED, day, f"daily {day}")


__all__ = ["DayListener", "Listener", "challenge_moved", "daily_finished", "listen", "listen_challenges",
           "listen_moves", "listen_par_wanted", "moved", "par_wanted"]
