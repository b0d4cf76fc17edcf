"""Typed storage errors: the cogs turn each into a short message for the player (cogs/plumbing/errors.py).

Engine ``IllegalAction`` is never wrapped: ``Store.play`` lets it through unchanged.
"""

from __future__ import annotations

from typing import Protocol


class _Game(Protocol):  # storage.models.GameRecord, without importing it (models imports these errors)
    @property
    def id(self) -> int: ...
    @property
    def user_id(self) -> int: ...
    @property
    def kind(self) -> str: ...


class StorageError(Exception):
    """Base class of every error raised by ``storage``."""


class GameNotFound(StorageError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} does not exist")
        self.game_id = game_id


class MoveRefused(StorageError):
    """A move (or a giving up) that the game as stored refuses: nothing was played. ``why`` says which, and the
    application layer turns each into its own coded error (``app.errors``): ``NOT_YOURS``; ``OVER``, the game has
    ended (``status``); ``STALE``, another move landed first (the game is at ``current``, not ``expected``);
    ``DAY_OVER``, a daily whose day had ended (``day``): the store closed the game instead."""

    NOT_YOURS, OVER, STALE, DAY_OVER = "not_yours", "over", "stale", "day_over"

    def __init__(self, game_id: int, why: str, *, expected: int | None = None, current: int | None = None,
                 status: str | None = None, day: int | None = None) -> None:
        super().__init__(f"game {game_id}: the move on version {expected} is refused ({why}; at {current}, {status})")
        self.game_id, self.why, self.expected, self.current, self.status, self.day = (
            game_id, why, expected, current, status, day)


class ActiveGameExists(StorageError):
    """The user already has an active game in that slot; ``game`` is it (offer resume or abandon)."""

    def __init__(self, game: _Game) -> None:
        super().__init__(f"user {game.user_id} already has active game {game.id} ({game.kind})")
        self.game = game


class CorruptGame(StorageError):
    """One game's stored data cannot be loaded (snapshot and log both unusable). Other games are unaffected."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id} is damaged: {reason}")
        self.game_id = game_id
        self.reason = reason


class AttemptAlreadyUsed(StorageError):
    """The user's counted attempt at this daily exists already."""

    def __init__(self, user_id: int, day: int | None, game_id: int | None = None) -> None:
        super().__init__(f"user {user_id} has already used the attempt at daily {day}")
        self.user_id = user_id
        self.day = day
        self.game_id = game_id


class SchemaTooNew(StorageError):
    """The database was written by a newer version of the bot than this code."""

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(
            f"the database {path} has schema version {found}, but this code only knows versions up to {known}: "
            f"it was written by a newer version of the bot. Upgrade the bot (or restore a backup made by this "
            f"version); the database was left untouched."
        )
        self.path = path
        self.found = found
        self.known = known


class DatabaseError(StorageError):
    """The database cannot do what was asked: unusable (not SQLite, damaged beyond one row, a failed migration),
    out of reach or full (the two subclasses below), or it refused a statement."""


__all__ = [
    "ActiveGameExists", "AttemptAlreadyUsed", "CorruptGame", "DatabaseError", "GameNotFound", "MoveRefused",
    "SchemaTooNew", "StorageError",
]


class DatabaseUnavailable(DatabaseError):
    """The database could not be reached or did not answer in time (down, restarting, hung, network)."""


class DatabaseFull(DatabaseError):
    """The database refused to store anything: its disk (or quota) is full or it is read-only. Nothing was saved."""
