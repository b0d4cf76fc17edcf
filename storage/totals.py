"""Writing the running totals (``player_totals``, ``week_totals``, ``month_totals``): the rows ``games.engine.tally``
decides, added.

Each row is an upsert that adds to what is there (an atomic add, so concurrent ends never lose a count); the
statements are in ``storage/sql.py``.
"""

from __future__ import annotations

from games.engine.tally import ALL_GUILDS, Tally
from storage.backends.base import Tx
from storage.sql import MONTH_TOTALS_UPSERT, PLAYER_TOTALS_UPSERT, WEEK_TOTALS_UPSERT


async def add_tally(tx: Tx, tally: Tally) -> None:
    """Inside a write transaction: add the rows to the running totals."""
    if tally.players:
        await tx.executemany(PLAYER_TOTALS_UPSERT, tally.players)
    if tally.weeks:
        await tx.executemany(WEEK_TOTALS_UPSERT, tally.weeks)
    if tally.months:
        await tx.executemany(MONTH_TOTALS_UPSERT, tally.months)


# The order of a board of several days (week, month): most points, then most days played, then the earlier last
# finish. Playing one more day adds to the first two (``games.engine.tally``), so it never lowers a player's place.
DAYS_ORDER = "points DESC, days DESC, last_at, user_id"


def totals_guild(guild_id: int | None) -> int:
    """The guild key a board reads its totals under: the server's own, or ``ALL_GUILDS`` for every server."""
    return ALL_GUILDS if guild_id is None else guild_id


__all__ = ["DAYS_ORDER", "add_tally", "totals_guild"]
