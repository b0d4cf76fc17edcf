"""Streak reminders: who asked to be reminded, and each day's reminder claimed at most once.

A player opts in with a number of hours before the UTC day ends; without a row nobody is ever messaged. A
reminder is claimed by inserting its (user, day) row: the first process to insert it sends it, every other one
finds the row and sends nothing, so a player gets at most one a day across restarts and processes. A reminder
that could not be delivered (DMs closed) is not tried again that day, and the player hears of it the next time
they set their reminders.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from storage.backends.base import Db, Tx
from storage.models import to_micros
from storage.time_limit import time_limited

REMIND_HOURS = (1, 2, 4, 8)  # how long before 00:00 UTC a reminder may be sent
SENT, CLOSED, FAILED = "sent", "closed", "failed"  # reminder_sends.outcome

SETTING = "SELECT user_id, hours, locale, undelivered_day FROM reminders WHERE user_id = $1"
SET = ("INSERT INTO reminders (user_id, hours, locale, undelivered_day, updated_at) VALUES ($1, $2, $3, NULL, $4) "
       "ON CONFLICT (user_id) DO UPDATE SET hours = excluded.hours, locale = excluded.locale, "
       "undelivered_day = NULL, updated_at = excluded.updated_at")
UNSET = "DELETE FROM reminders WHERE user_id = $1"
DUE = ("SELECT r.user_id, r.hours, r.locale, r.undelivered_day FROM reminders r WHERE r.hours = $1 "
       "AND NOT EXISTS (SELECT 1 FROM daily_attempts a WHERE a.user_id = r.user_id AND a.day = $2) "
       "AND NOT EXISTS (SELECT 1 FROM reminder_sends s WHERE s.user_id = r.user_id AND s.day = $2) "
       "ORDER BY r.user_id")
CLAIM = ("INSERT INTO reminder_sends (user_id, day, owner, claimed_at) VALUES ($1, $2, $3, $4) "
         "ON CONFLICT (user_id, day) DO NOTHING")
RELEASE = "DELETE FROM reminder_sends WHERE user_id = $1 AND day = $2 AND owner = $3 AND outcome IS NULL"
OUTCOME = "UPDATE reminder_sends SET outcome = $1 WHERE user_id = $2 AND day = $3"
UNDELIVERED = "UPDATE reminders SET undelivered_day = $1 WHERE user_id = $2"
SENT_OUTCOME = "SELECT outcome FROM reminder_sends WHERE user_id = $1 AND day = $2"


@dataclass(frozen=True, slots=True)
class Reminder:
    """A player's reminder setting, and the last day a reminder to them could not be delivered (or None)."""

    user_id: int
    hours: int
    locale: str | None
    undelivered_day: int | None


class Store(Protocol):
    """What reminders need of ``storage.Store``: its database, its clock and its time limit."""

    @property
    def db(self) -> Db: ...

    @property
    def wait(self) -> float | None: ...

    def now(self) -> datetime: ...


@time_limited
class Reminders:
    """The streak reminders of a store (``store.reminders``), each call within the store's time limit
    (``storage.time_limit``) like every other store call."""

    def __init__(self, store: Store) -> None:
        self._store = store

    @property
    def db(self) -> Db:
        return self._store.db

    @property
    def wait(self) -> float | None:
        return self._store.wait

    def now(self) -> datetime:
        return self._store.now()

    async def get(self, user_id: int) -> Reminder | None:
        rows = await self.db.read(SETTING, (user_id,))
        return Reminder(*rows[0]) if rows else None

    async def set(self, user_id: int, hours: int | None, locale: str | None = None) -> Reminder | None:
        """Remind the user ``hours`` (1, 2, 4 or 8) before the day ends; None: never (the row goes). Returns the
        setting as it was, whose ``undelivered_day`` (now cleared) the player has not been told about yet."""
        if hours is not None and hours not in REMIND_HOURS:
            raise ValueError(f"reminders go {REMIND_HOURS} hours before the day ends, not {hours}")
        now_us = to_micros(self.now())

        async def body(tx: Tx) -> Reminder | None:
            row = await tx.fetchone(SETTING, (user_id,))
            if hours is None:
                await tx.execute(UNSET, (user_id,))
            else:
                await tx.execute(SET, (user_id, hours, locale, now_us))
            return Reminder(*row) if row is not None else None

        return await self.db.write(body)

    async def due(self, day: int, hours: int) -> list[Reminder]:
        """Players reminded ``hours`` before daily ``day`` ends who have not started it and have not been sent (or
        tried) a reminder for it."""
        return [Reminder(*row) for row in await self.db.read(DUE, (hours, day))]

    async def claim(self, user_id: int, day: int, owner: str) -> bool:
        """True if this call claimed the user's reminder for ``day`` (and so must send it); False if another call,
        in this process or another, already has."""
        now_us = to_micros(self.now())

        async def body(tx: Tx) -> bool:
            return await tx.execute(CLAIM, (user_id, day, owner, now_us)) == 1

        return await self.db.write(body)

    async def release(self, user_id: int, day: int, owner: str) -> None:
        """Give back ``owner``'s claim whose send failed for a passing reason (not closed DMs), so a later reminder
        time of the same day tries again."""
        async def body(tx: Tx) -> None:
            await tx.execute(RELEASE, (user_id, day, owner))

        await self.db.write(body)

    async def record_outcome(self, user_id: int, day: int, outcome: str) -> None:
        """How the claimed reminder went (``sent``, ``closed``, ``failed``); ``closed`` marks the setting so the
        player is told."""
        if outcome not in (SENT, CLOSED, FAILED):
            raise ValueError(f"unknown reminder outcome {outcome!r}")

        async def body(tx: Tx) -> None:
            await tx.execute(OUTCOME, (outcome, user_id, day))
            if outcome == CLOSED:
                await tx.execute(UNDELIVERED, (day, user_id))

        await self.db.write(body)

    async def outcome(self, user_id: int, day: int) -> str | None:
        """``sent`` / ``closed`` / ``failed``, ``""`` while claimed and being sent, None when never claimed."""
        rows = await self.db.read(SENT_OUTCOME, (user_id, day))
        return (rows[0][0] or "") if rows else None


__all__ = ["CLOSED", "FAILED", "REMIND_HOURS", "SENT", "Reminder", "Reminders"]
