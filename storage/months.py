"""The month board: each player's counted dailies' points summed over a calendar month (``month_totals``).

Kept like the week board: the transaction that scores a counted daily adds it to the month holding its day (the
rows ``games.engine.tally`` decides, written by ``totals``), so reading a board is a few rows of an index at any
size. Month #1 is January 2026 (``games.engine.calendar.month_of``). Also the count of a day's players, which the
server's daily post shows.
"""

from __future__ import annotations

from storage.backends.base import Db, Sql
from storage.models import WeekEntry
from storage.totals import DAYS_ORDER, totals_guild

MONTH_BOARD = ("SELECT user_id, points, days, wins, best, forfeits FROM month_totals WHERE month = $1 "
               f"AND guild_id = $2 ORDER BY {DAYS_ORDER} LIMIT $3")
# A player's place: the rows ranked before theirs (``DAYS_ORDER``) and all the month's rows, counted off the
# board's index (no window over the whole month).
MONTH_RANK = (
    "SELECT (SELECT count(*) FROM month_totals o WHERE o.month = m.month AND o.guild_id = m.guild_id "
    "AND (o.points > m.points OR (o.points = m.points AND (o.days > m.days OR (o.days = m.days "
    "AND (coalesce(o.last_at, 0) < coalesce(m.last_at, 0) OR (coalesce(o.last_at, 0) = "
    "coalesce(m.last_at, 0) AND o.user_id < m.user_id))))))), "
    "(SELECT count(*) FROM month_totals c WHERE c.month = m.month AND c.guild_id = m.guild_id) "
    "FROM month_totals m WHERE m.month = $1 AND m.guild_id = $2 AND m.user_id = $3")
DAY_PLAYERS = "SELECT count(*) FROM games WHERE day = $1 AND kind = 'daily' AND score IS NOT NULL"
DAY_PLAYERS_IN = ("SELECT count(*) FROM games WHERE guild_id = $2 AND day = $1 AND kind = 'daily' "
                  "AND score IS NOT NULL")
# The month totals recomputed from the games, as ``games.engine.tally`` adds them (``$1``: ``DAY_FLOOR``, a day's
# points are its score above it); the month of a day number, in each dialect's date arithmetic (Daily #1 is
# 2026-01-01).
FILL_MONTH_TOTALS = Sql(
    sqlite="""
INSERT INTO month_totals (month, guild_id, user_id, points, days, wins, forfeits, best, last_at)
SELECT (CAST(strftime('%Y', '2025-12-31', '+' || day || ' days') AS INTEGER) - 2026) * 12
       + CAST(strftime('%m', '2025-12-31', '+' || day || ' days') AS INTEGER) AS month,
       gid, user_id, sum(score - $1), count(*), sum(status = 'won'), sum(ended_by IS NOT NULL), max(score),
       max(ended_at)
FROM (
    SELECT day, guild_id AS gid, user_id, score, status, ended_by, ended_at FROM games
        WHERE kind = 'daily' AND score IS NOT NULL AND guild_id IS NOT NULL
    UNION ALL
    SELECT day, 0, user_id, score, status, ended_by, ended_at FROM games WHERE kind = 'daily' AND score IS NOT NULL
)
GROUP BY month, gid, user_id""",
    postgres="""
INSERT INTO month_totals (month, guild_id, user_id, points, days, wins, forfeits, best, last_at)
SELECT ((extract(year FROM date '2025-12-31' + day::integer))::bigint - 2026) * 12
       + (extract(month FROM date '2025-12-31' + day::integer))::bigint AS month,
       gid, user_id, sum(score - $1)::bigint, count(*), count(*) FILTER (WHERE status = 'won'),
       count(*) FILTER (WHERE ended_by IS NOT NULL), max(score), max(ended_at)
FROM (
    SELECT day, guild_id AS gid, user_id, score, status, ended_by, ended_at FROM games
        WHERE kind = 'daily' AND score IS NOT NULL AND guild_id IS NOT NULL
    UNION ALL
    SELECT day, 0, user_id, score, status, ended_by, ended_at FROM games WHERE kind = 'daily' AND score IS NOT NULL
) AS scored
GROUP BY 1, gid, user_id""")


# A player's month: the same record as a week's, over the days of a calendar month.
MonthEntry = WeekEntry


class Months:
    def __init__(self, db: Db) -> None:
        self.db = db

    async def leaderboard_month(self, month: int, guild_id: int | None = None, limit: int = 10) -> list[MonthEntry]:
        rows = await self.db.read(MONTH_BOARD, (month, totals_guild(guild_id), limit), board=True)
        return [MonthEntry(i, r[0], r[1], r[2], r[3], r[4], r[5]) for i, r in enumerate(rows, 1)]

    async def month_rank(self, user_id: int, month: int, guild_id: int | None = None) -> tuple[int, int] | None:
        found = await self.db.read(MONTH_RANK, (month, totals_guild(guild_id), user_id), board=True)
        return (found[0][0] + 1, found[0][1]) if found else None

    async def daily_players(self, day: int, guild_id: int | None = None) -> int:
        rows = await (self.db.read(DAY_PLAYERS, (day,), board=True) if guild_id is None else
                      self.db.read(DAY_PLAYERS_IN, (day, guild_id), board=True))
        return int(rows[0][0])


__all__ = ["FILL_MONTH_TOTALS", "MonthEntry", "Months"]
