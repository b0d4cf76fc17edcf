"""The application layer's refusals: coded errors that carry what a surface needs to word them.

Each has a ``code`` (a short stable string a surface or an API answer can switch on) and the records it is about;
none carries player text. ``StaleVersion`` and its subclasses carry the game as stored now (``record``), so a
surface shows the current state instead of making a second move.
"""

from __future__ import annotations

from storage.duels import DuelRecord
from storage.errors import (
    ActiveGameExists,
    AttemptAlreadyUsed,
    CorruptGame,
    DatabaseError,
    DatabaseFull,
    DatabaseUnavailable,
    GameNotFound,
    StorageError,
)
from storage.models import GameRecord
from storage.time_limit import StoreTimeout

# The store's own troubles pass through the use cases unchanged and are named here too, so that a surface words
# every refusal and trouble from this one module: a game that does not exist or cannot be read, a slot or an
# attempt already taken, and the database down, full or too slow (``StoreTimeout``: the call may still land).
STORE_TROUBLES = (GameNotFound, CorruptGame, ActiveGameExists, AttemptAlreadyUsed, DatabaseError, StoreTimeout)


class Refused(Exception):
    """A request the rules of play refuse; ``code`` says why."""

    code = "refused"


class NotYourGame(Refused):
    """The game belongs to another player (``owner_id``)."""

    code = "not_your_game"

    def __init__(self, record: GameRecord, user_id: int) -> None:
        super().__init__(f"game {record.id} belongs to {record.user_id}, not {user_id}")
        self.record, self.owner_id, self.user_id = record, record.user_id, user_id


class StaleVersion(Refused):
    """The move was made on version ``seen``, but the game is at ``record.version`` now: nothing was played;
    ``record`` is the game as stored."""

    code = "stale"

    def __init__(self, record: GameRecord, seen: int) -> None:
        super().__init__(f"game {record.id} is at version {record.version} ({record.status}), not {seen}")
        self.record, self.seen = record, seen


class GameOver(StaleVersion):
    """The game has ended (won, dead, given up or closed with its day): nothing was played."""

    code = "game_over"


class DayOver(GameOver):
    """The daily's day ended before this move: the attempt (or practice replay) was closed instead, scored as a
    forfeit where it counts; ``day`` is its day."""

    code = "day_over"

    def __init__(self, record: GameRecord, seen: int) -> None:
        super().__init__(record, seen)
        self.day = record.day


class NoGame(Refused):
    """The player has no game in progress (in the slot asked about)."""

    code = "no_game"

    def __init__(self, user_id: int) -> None:
        super().__init__(f"user {user_id} has no game in progress")
        self.user_id = user_id


class CoachRefused(Refused):
    """A hint or a review refused: ``code`` is one of the ``app.coach.access`` reasons; ``reason`` the solver's
    own (marked, untranslated) words when it cannot play the game's rules; ``day`` the daily still running."""

    def __init__(self, code: str, record: GameRecord, *, reason: str | None = None) -> None:
        super().__init__(f"game {record.id}: {code}" + (f" ({reason})" if reason else ""))
        self.code, self.record, self.reason, self.day = code, record, reason, record.day


class NotShareable(Refused):
    """Only a finished counted daily (won or dead) is a result to share."""

    code = "not_shareable"

    def __init__(self, record: GameRecord) -> None:
        super().__init__(f"game {record.id} ({record.kind}, {record.status}) is not a finished counted daily")
        self.record = record


class HintNeedsConsent(Refused):
    """The game's first hint would stop it counting: ask the player, then ask again with ``confirmed``."""

    code = "hint_needs_consent"

    def __init__(self, record: GameRecord) -> None:
        super().__init__(f"game {record.id}: a first hint needs the player's yes")
        self.record = record


class PracticeRefused(Refused):
    """A practice replay refused: ``code`` is ``PAST_DAY`` (the day is over; ``today`` is today's) or
    ``NOT_OPEN`` (the request is not for the player's own counted attempt at that day)."""

    def __init__(self, code: str, day: int, today: int) -> None:
        super().__init__(f"practice of daily {day} refused: {code}")
        self.code, self.day, self.today = code, day, today


PAST_DAY, NOT_OPEN = "past_day", "not_open"


class DuelRefused(Refused):
    """A duel request refused before it reached the store: ``code`` is one of the ``app.play.duels`` reasons;
    ``record`` the duel as stored now (the open duel in the way, for ``BUSY``), when there is one; ``user_id``
    who the refusal is about (for ``BUSY``: the player who already has an open duel)."""

    def __init__(self, code: str, record: DuelRecord | None = None, *, user_id: int | None = None) -> None:
        super().__init__(f"duel request refused: {code}")
        self.code, self.record, self.user_id = code, record, user_id


class StaleHand(DuelRefused):
    """A duel move made on an older hand than the duel's: nothing was played; ``record`` is the duel as stored,
    ``seat`` the mover's."""

    code = "stale_hand"
    record: DuelRecord

    def __init__(self, record: DuelRecord, seat: int, user_id: int) -> None:
        super().__init__(self.code, record, user_id=user_id)
        self.record, self.seat = record, seat


class OpponentBusy(DuelRefused):
    """A challenge refused: ``user_id`` (either player) already has an open duel, ``record``."""

    code = "busy"
    record: DuelRecord
    user_id: int

    def __init__(self, record: DuelRecord, user_id: int) -> None:
        super().__init__(self.code, record, user_id=user_id)
        self.record, self.user_id = record, user_id


class ReplayRefused(Refused):
    """A replay refused: ``code`` is one of the ``app.replays.access`` reasons; ``number`` the daily or duel
    number asked for, when one was."""

    def __init__(self, code: str, *, number: int | None = None) -> None:
        super().__init__(f"replay refused: {code}" + (f" ({number})" if number is not None else ""))
        self.code, self.number = code, number


class BoardRefused(Refused):
    """A board asked for a day or a month that has not happened yet: ``code`` is ``app.players.boards.FUTURE_DAY``
    (``asked`` a day number) or ``FUTURE_MONTH`` (``asked`` a month number); ``today`` is today's day number."""

    def __init__(self, code: str, asked: int, today: int) -> None:
        super().__init__(f"board refused: {code} ({asked}; today is daily {today})")
        self.code, self.asked, self.today = code, asked, today


__all__ = ["NOT_OPEN", "PAST_DAY", "STORE_TROUBLES", "ActiveGameExists", "AttemptAlreadyUsed", "CorruptGame",
           "DatabaseError", "DatabaseFull", "DatabaseUnavailable", "GameNotFound", "StorageError", "StoreTimeout",
           "BoardRefused", "CoachRefused", "DayOver", "DuelRefused", "GameOver",
           "HintNeedsConsent", "NoGame", "NotShareable", "NotYourGame", "OpponentBusy", "PracticeRefused", "Refused",
           "ReplayRefused", "StaleHand", "StaleVersion"]


class ChallengeRefused(Refused):
    """A challenge request refused: ``code`` is one of the ``app.challenges.play`` reasons; ``other`` the running
    challenge that stands in the way (``BUSY``)."""

    def __init__(self, code: str, challenge_id: int, *, other: int | None = None) -> None:
        super().__init__(f"challenge {challenge_id}: {code}")
        self.code, self.challenge_id, self.other = code, challenge_id, other
