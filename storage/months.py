"""The month board: each player's counted daily scores summed over a calendar month (``month_totals``, 0012).

Kept like the week board: the transaction that scores a counted daily adds it to the month holding its day
(``month_rows``, upserted by ``_add_totals_many`` beside the week totals), so reading a board is a few rows of an
index at any size. Month #1 is January 2026 (``bot.daily.month_of``). ``MonthBoards`` is mixed into the store.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.daily import month_of

ALL_GUILDS = 0  # month_totals.guild_id for "every server" (as player_totals and week_totals)

MONTH_TOTALS_UPSERT = (
    "INSERT INTO month_totals (month, guild_id, user_id, total, days, wins, forfeits, best, last_at) "
    "VALUES (?,?,?,?,1,?,?,?,?) ON CONFLICT (month, guild_id, user_id) DO UPDATE SET "
    "total = total + excluded.total, days = days + 1, wins = wins + excluded.wins, "
    "forfeits = forfeits + excluded.forfeits, best = max(best, excluded.best), "
    "last_at = max(coalesce(last_at, 0), excluded.last_at)")
# PostgreSQL wants the existing row's columns qualified, and greatest() for max(a, b).
MONTH_TOTALS_UPSERT_PG = (
    "INSERT INTO month_totals AS mo (month, guild_id, user_id, total, days, wins, forfeits, best, last_at) "
    "VALUES (?,?,?,?,1,?,?,?,?) ON CONFLICT (month, guild_id, user_id) DO UPDATE SET "
    "total = mo.total + excluded.total, days = mo.days + 1, wins = mo.wins + excluded.wins, "
    "forfeits = mo.forfeits + excluded.forfeits, best = greatest(mo.best, excluded.best), "
    "last_at = greatest(coalesce(mo.last_at, 0), excluded.last_at)")


def month_rows(day: int, guilds: tuple[int, ...], user_id: int, score: int, won: int, forfeit: int,
               at_us: int) -> list[tuple]:
    """The ``MONTH_TOTALS_UPSERT`` rows of one scored counted daily: its month, in each of ``guilds``."""
    month = month_of(day)
    return [(month, g, user_id, score, won, forfeit, score, at_us) for g in guilds]


@dataclass(frozen=True, slots=True)
class MonthEntry:
    """A player's month: the sum of their counted daily scores over the month's days."""

    rank: int
    user_id: int
    total: int
    days: int  # counted dailies with a score in the month (won, dead, or forfeited)
    wins: int
    best: int
    forfeits: int = 0


_ORDER = "total DESC, days DESC, last_at, user_id"


class MonthBoards:
    """Store methods of the month board (mixed into ``Store``; uses its ``_read``)."""

    async def leaderboard_month(self, month: int, guild_id: int | None = None, limit: int = 10) -> list[MonthEntry]:
        """Month number ``month``'s board: each player's counted daily scores summed (as the week board: every
        day counts; ties go to more days played, then the earlier last finish)."""
        rows = await self._read(
            "SELECT user_id, total, days, wins, best, forfeits FROM month_totals WHERE month = ? AND guild_id = ? "
            f"ORDER BY {_ORDER} LIMIT ?", (month, ALL_GUILDS if guild_id is None else guild_id, limit), board=True)
        return [MonthEntry(i, *r) for i, r in enumerate(rows, 1)]

    async def month_rank(self, user_id: int, month: int, guild_id: int | None = None) -> tuple[int, int] | None:
        """(the user's place, players on the board) of ``leaderboard_month``, or None when not on it: the rows
        ranked before the user's and all the month's rows, counted off the board's index (no window over them)."""
        found = await self._read(
            "SELECT (SELECT count(*) FROM month_totals o WHERE o.month = m.month AND o.guild_id = m.guild_id "
            "AND (o.total > m.total OR (o.total = m.total AND (o.days > m.days OR (o.days = m.days "
            "AND (coalesce(o.last_at, 0) < coalesce(m.last_at, 0) OR (coalesce(o.last_at, 0) = "
            "coalesce(m.last_at, 0) AND o.user_id < m.user_id))))))), "
            "(SELECT count(*) FROM month_totals c WHERE c.month = m.month AND c.guild_id = m.guild_id) "
            "FROM month_totals m WHERE m.month = ? AND m.guild_id = ? AND m.user_id = ?",
            (month, ALL_GUILDS if guild_id is None else guild_id, user_id), board=True)
        return (found[0][0] + 1, found[0][1]) if found else None
