"""The daily calendar: day numbers and when each day begins and ends (pure; no I/O, no i18n).

Day numbers count whole UTC days: Daily #1 is 2026-01-01 (UTC), Daily #2 the day after. A daily (and a practice
replay of it) can be played until its day ends.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

EPOCH = date(2026, 1, 1)  # Daily #1


def _aware_utc(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("a naive datetime has no place here: pass a timezone-aware time")
    return moment.astimezone(UTC)


def day_of(moment: datetime) -> int:
    """The daily number of the UTC day holding ``moment`` (aware)."""
    return (_aware_utc(moment).date() - EPOCH).days + 1


def day_start(day: int) -> datetime:
    """00:00 UTC of daily ``day``."""
    return datetime.combine(EPOCH + timedelta(days=day - 1), time(0, 0), tzinfo=UTC)


def day_end(day: int) -> datetime:
    """The instant daily ``day`` ends (the next day's start)."""
    return day_start(day + 1)


def day_date(day: int) -> date:
    return EPOCH + timedelta(days=day - 1)


def month_of(day: int) -> int:
    """The month number holding daily ``day``: Month #1 is January 2026, #12 December 2026, #13 January 2027."""
    moment = day_date(day)
    return (moment.year - EPOCH.year) * 12 + moment.month


def month_start(month: int) -> date:
    """The first date of month number ``month``."""
    year, index = divmod(month - 1, 12)
    return date(EPOCH.year + year, index + 1, 1)


def month_days(month: int) -> tuple[int, int]:
    """The first and last daily numbers of month number ``month``."""
    first = (month_start(month) - EPOCH).days + 1
    return first, (month_start(month + 1) - EPOCH).days


__all__ = ["EPOCH", "day_date", "day_end", "day_of", "day_start", "month_days", "month_of", "month_start"]
