"""Streak reminders, whatever sends them: who chose which time, who is due one now, and the one-a-day claim.

Opt-in only: a player is reminded only after choosing a time (``REMIND_HOURS``: 1, 2, 4 or 8 hours before the UTC
day ends), on days they have not started the daily, and never again once they turn it off. Each reminder is
claimed in the database before it is sent (``claim``), so a player gets at most one a day across restarts and
processes; a passing failure gives the claim back (``release``) for the next reminder time that day, closed
direct messages are recorded and told to the player at their next look at the setting (``setting``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import NamedTuple

from app.daily.days import streaks
from games.engine.calendar import day_end, day_of
from storage.reminders import CLOSED, FAILED, REMIND_HOURS, SENT, Reminder
from storage.store import Store

# A sender may wake a hair early; a reminder due within this margin is sent now.
EARLY_MARGIN = timedelta(seconds=30)


class Setting(NamedTuple):
    """A player's reminder setting: ``hours`` before the day's end (None: off) and the day of a reminder that could
    not be delivered (closed direct messages) that they have not been told about yet."""

    hours: int | None
    undelivered_day: int | None


class Due(NamedTuple):
    """A reminder claimed for sending: to whom, for which day, in which language, and their streak at stake."""

    reminder: Reminder
    day: int
    streak: int


def remind_at(day: int, hours: int) -> datetime:
    """When a player reminded ``hours`` before the end of daily ``day`` is messaged."""
    return day_end(day) - timedelta(hours=hours)


def next_reminder(now: datetime, hours: int) -> datetime:
    """The next reminder time at or after ``now`` for ``hours``."""
    today = day_of(now)
    moment = remind_at(today, hours)
    return moment if moment >= now else remind_at(today + 1, hours)


async def setting(store: Store, user_id: int) -> Setting:
    """The player's setting; an undelivered reminder is told once (it is cleared as it is read)."""
    before = await store.reminders.get(user_id)
    if before is None:
        return Setting(None, None)
    if before.undelivered_day is not None:
        await store.reminders.set(user_id, before.hours, before.locale)
    return Setting(before.hours, before.undelivered_day)


async def choose(store: Store, user_id: int, hours: int | None, locale: str | None = None) -> Setting:
    """Remind the player ``hours`` before the day ends, in ``locale``; None turns reminders off. The new setting,
    with the undelivered reminder the player had not been told about yet (cleared now)."""
    if hours is not None and hours not in REMIND_HOURS:
        raise ValueError(f"reminders are {REMIND_HOURS} hours before the day ends, not {hours}")
    before = await store.reminders.set(user_id, hours, locale)
    return Setting(hours, before.undelivered_day if before is not None else None)


async def turn_off(store: Store, user_id: int) -> None:
    """No more reminders for the player."""
    await store.reminders.set(user_id, None)


async def due(store: Store, now: datetime, owner: str) -> AsyncIterator[Due]:
    """The reminders due at ``now`` and not sent yet today, each claimed for ``owner`` as it comes (one another
    sender claimed first is skipped): send each, then say how it went (``sent``, ``closed`` or ``release``)."""
    today = day_of(now)
    for hours in REMIND_HOURS:
        if remind_at(today, hours) > now + EARLY_MARGIN:
            continue
        for reminder in await store.reminders.due(today, hours):
            if not await store.reminders.claim(reminder.user_id, today, owner):
                continue  # another process (or an earlier pass) has it
            streak, _ = streaks(await store.daily_days(reminder.user_id), today)
            yield Due(reminder, today, streak)


async def sent(store: Store, claimed: Due, outcome: str = SENT) -> None:
    """How a claimed reminder went: ``SENT``, ``CLOSED`` (direct messages closed: told to the player later) or
    ``FAILED`` (refused for good)."""
    await store.reminders.record_outcome(claimed.reminder.user_id, claimed.day, outcome)


async def release(store: Store, claimed: Due, owner: str) -> None:
    """A passing failure: give the claim back, so the next reminder time today tries again."""
    await store.reminders.release(claimed.reminder.user_id, claimed.day, owner)


__all__ = ["CLOSED", "EARLY_MARGIN", "FAILED", "REMIND_HOURS", "SENT", "Due", "Setting", "choose", "due",
           "next_reminder", "release", "remind_at", "sent", "setting", "turn_off"]
