"""The daily sweep: once a day is over, its unfinished dailies and practice replays are closed.

A daily still running when its day ends is closed as abandoned (``expired``), a counted one scored by its forfeit,
so the next day's post lists it among the day's results and no move on it is taken any more.
"""

from __future__ import annotations

from storage.store import Store


async def close_past_dailies(store: Store, today: int) -> int:
    """Close every daily and practice game still running on a day before ``today``; how many were closed."""
    return len(await store.expire_dailies(today))
