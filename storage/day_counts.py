"""How many players a day's daily has had: the live count on the server's daily post, and "and N more" under
yesterday's results. Counted dailies with a score (won, died, or forfeited); read off the daily boards' partial
indexes. ``DayCounts`` is mixed into the store."""

from __future__ import annotations


class DayCounts:
    """Store methods counting a day's results (mixed into ``Store``; uses its ``_read``)."""

    async def daily_players(self, day: int, guild_id: int | None = None) -> int:
        """Players with a scored counted attempt at daily ``day`` (in ``guild_id``, or everywhere)."""
        if guild_id is None:
            rows = await self._read("SELECT count(*) FROM games WHERE day = ? AND kind = 'daily' "
                                    "AND score IS NOT NULL", (day,), board=True)
        else:
            rows = await self._read("SELECT count(*) FROM games WHERE guild_id = ? AND day = ? AND kind = 'daily' "
                                    "AND score IS NOT NULL", (guild_id, day), board=True)
        return rows[0][0]
