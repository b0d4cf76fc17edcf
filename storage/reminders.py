"""Streak reminders (0012): who asked to be reminded, and each day's reminder claimed at most once.

A player opts in with a number of hours before the UTC day ends; without a row nobody is ever messaged. A
reminder is claimed by inserting its (user, day) row: the first process to insert it sends it, every other one
finds the row and sends nothing, so a player gets at most one a day across restarts and processes. A reminder
that could not be delivered (DMs closed) is not tried again that day, and the player hears of it the next time
they set their reminders. ``Reminders`` is mixed into the store.
"""

from __future__ import annotations

from dataclasses import dataclass

from .models import to_micros

REMIND_HOURS = (1, 2, 4, 8)  # how long before 00:00 UTC a reminder may be sent
SENT, CLOSED, FAILED = "sent", "closed", "failed"  # reminder_sends.outcome


@dataclass(frozen=True, slots=True)
class Reminder:
    """A player's reminder setting, and the last day a reminder to them could not be delivered (or None)."""

    user_id: int
    hours: int
    locale: str | None
    undelivered_day: int | None


class Reminders:
    """Store methods of the streak reminders (mixed into ``Store``; uses its ``_read``, ``_write``, ``now``)."""

    async def get_reminder(self, user_id: int) -> Reminder | None:
        rows = await self._read("SELECT user_id, hours, locale, undelivered_day FROM reminders WHERE user_id = ?",
                                (user_id,))
        return Reminder(*rows[0]) if rows else None

    async def set_reminder(self, user_id: int, hours: int | None, locale: str | None = None) -> Reminder | None:
        """Remind the user ``hours`` before the day ends (None: never). Returns the setting as it was, whose
        ``undelivered_day`` (now cleared) the player has not been told about yet."""
        if hours is not None and hours not in REMIND_HOURS:
            raise ValueError(f"reminders go {REMIND_HOURS} hours before the day ends, not {hours}")
        now_us = to_micros(self.now())

        async def body(db):
            rows = await db.execute_fetchall(
                "SELECT user_id, hours, locale, undelivered_day FROM reminders WHERE user_id = ?", (user_id,))
            before = Reminder(*rows[0]) if rows else None
            if hours is None:
                await db.execute("DELETE FROM reminders WHERE user_id = ?", (user_id,))
            else:
                await db.execute(
                    "INSERT INTO reminders (user_id, hours, locale, undelivered_day, updated_at) "
                    "VALUES (?, ?, ?, NULL, ?) ON CONFLICT (user_id) DO UPDATE SET hours = excluded.hours, "
                    "locale = excluded.locale, undelivered_day = NULL, updated_at = excluded.updated_at",
                    (user_id, hours, locale, now_us))
            return before

        return await self._write(body)

    async def due_reminders(self, day: int, hours: int) -> list[Reminder]:
        """Players reminded ``hours`` before daily ``day`` ends who have not started it and have not been sent
        (or tried) a reminder for it."""
        rows = await self._read(
            "SELECT r.user_id, r.hours, r.locale, r.undelivered_day FROM reminders r WHERE r.hours = ? "
            "AND NOT EXISTS (SELECT 1 FROM daily_attempts a WHERE a.user_id = r.user_id AND a.day = ?) "
            "AND NOT EXISTS (SELECT 1 FROM reminder_sends s WHERE s.user_id = r.user_id AND s.day = ?) "
            "ORDER BY r.user_id", (hours, day, day))
        return [Reminder(*row) for row in rows]

    async def claim_reminder(self, user_id: int, day: int, owner: str) -> bool:
        """True if this call claimed the user's reminder for ``day`` (and so must send it); False if another
        call, in this process or another, already has."""
        now_us = to_micros(self.now())

        async def body(db):
            cursor = await db.execute(
                "INSERT INTO reminder_sends (user_id, day, owner, claimed_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id, day) DO NOTHING", (user_id, day, owner, now_us))
            return cursor.rowcount == 1

        return await self._write(body)

    async def release_reminder(self, user_id: int, day: int, owner: str) -> None:
        """Give back a claim whose send failed for a passing reason (not closed DMs), so a later reminder time of
        the same day tries again."""

        async def body(db):
            await db.execute("DELETE FROM reminder_sends WHERE user_id = ? AND day = ? AND owner = ? "
                             "AND outcome IS NULL", (user_id, day, owner))

        await self._write(body)

    async def reminder_sent(self, user_id: int, day: int, outcome: str) -> None:
        """Record how the claimed reminder went; ``CLOSED`` also marks the player's setting so they are told."""
        if outcome not in (SENT, CLOSED, FAILED):
            raise ValueError(f"unknown reminder outcome {outcome!r}")

        async def body(db):
            await db.execute("UPDATE reminder_sends SET outcome = ? WHERE user_id = ? AND day = ?",
                             (outcome, user_id, day))
            if outcome == CLOSED:
                await db.execute("UPDATE reminders SET undelivered_day = ? WHERE user_id = ?", (day, user_id))

        await self._write(body)

    async def reminder_outcome(self, user_id: int, day: int) -> str | None:
        """'sent' / 'closed' / 'failed', '' while claimed and being sent, None when never claimed."""
        rows = await self._read("SELECT outcome FROM reminder_sends WHERE user_id = ? AND day = ?", (user_id, day))
        return (rows[0][0] or "") if rows else None
