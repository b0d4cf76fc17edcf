"""Boards and stats: the daily, week and all-time boards, a player's place on them, their stats and streak days,
and the operator's rebuild of the running totals (which ``games.engine.tally`` decides and ``totals`` writes)."""

from __future__ import annotations

from games.engine import PRESETS
from games.engine.tally import ALL_RULES, DAILIES
from storage.backends.base import Db, Sql, Tx
from storage.models import AllTimeEntry, DailyEntry, RulesStats, UserStats, WeekEntry, from_micros
from storage.months import FILL_MONTH_TOTALS
from storage.totals import totals_guild

NO_LIMIT = 1 << 62  # LIMIT for "all rows", in a form both SQLite and PostgreSQL take
_PRESET_BY_KEY = {rules.key: name for name, rules in PRESETS.items()}

_DAILY_ENTRY = "SELECT user_id, id, score, status, ended_at, guild_id, ended_by FROM games "
_DAILY_ORDER = "ORDER BY score DESC, (ended_by IS NOT NULL), ended_at, id LIMIT $2"
DAILY_BOARD = _DAILY_ENTRY + "WHERE day = $1 AND kind = 'daily' AND score IS NOT NULL " + _DAILY_ORDER
DAILY_BOARD_IN = (_DAILY_ENTRY + "WHERE guild_id = $3 AND day = $1 AND kind = 'daily' AND score IS NOT NULL "
                  + _DAILY_ORDER)
WEEK_BOARD = ("SELECT user_id, total, days, wins, best, forfeits FROM week_totals WHERE week_end = $1 "
              "AND guild_id = $2 ORDER BY total DESC, days DESC, last_at, user_id LIMIT $3")
# SQLite sorts NULL last in descending order already; PostgreSQL is told to.
ALL_TIME_BOARD = ("SELECT user_id, wins, games, best_score, average FROM player_totals WHERE guild_id = $1 "
                  "AND rules_key = $2 ORDER BY wins DESC, best_score DESC NULLS LAST, average DESC NULLS LAST, "
                  "user_id LIMIT $3")
_RANKED = ("SELECT place, players FROM (SELECT user_id, row_number() OVER (ORDER BY {order}) AS place, "
           "count(*) OVER () AS players FROM ({rows}) AS entries) AS ranked WHERE user_id = {user}")
_DAILY_RANKED_ROWS = ("SELECT user_id, score, (ended_by IS NOT NULL) AS forfeit, ended_at, id FROM games "
                      "WHERE {guild}day = $1 AND kind = 'daily' AND score IS NOT NULL")
_DAILY_RANK_ORDER = "score DESC, forfeit, ended_at, id"
DAILY_RANK = _RANKED.format(order=_DAILY_RANK_ORDER, rows=_DAILY_RANKED_ROWS.format(guild=""), user="$2")
DAILY_RANK_IN = _RANKED.format(order=_DAILY_RANK_ORDER, rows=_DAILY_RANKED_ROWS.format(guild="guild_id = $3 AND "),
                               user="$2")
WEEK_RANK = _RANKED.format(order="total DESC, days DESC, last_at, user_id", user="$3", rows=(
    "SELECT user_id, total, days, last_at FROM week_totals WHERE week_end = $1 AND guild_id = $2"))
ALL_TIME_RANK = _RANKED.format(order="wins DESC, best_score DESC, average DESC, user_id", user="$3", rows=(
    "SELECT user_id, wins, best_score, average FROM player_totals WHERE guild_id = $1 AND rules_key = $2"))
STATS = ("SELECT rules_key, games, wins, scored, best_score, average FROM player_totals "
         "WHERE user_id = $1 AND guild_id = $2")
DAILY_DAYS = ("SELECT DISTINCT day FROM games WHERE user_id = $1 AND kind = 'daily' AND score IS NOT NULL "
              "AND ended_by IS NULL ORDER BY day")

# The running totals recomputed from the games, as the migrations that made them filled them, hinted games left
# out: per rule set and overall (0002), counted dailies only (0004), weeks (0009). SQLite counts a condition with
# sum(); PostgreSQL with count(*) FILTER.
FILL_PLAYER_TOTALS = Sql(
    sqlite="""
INSERT INTO player_totals (user_id, guild_id, rules_key, games, wins, scored, total_score, best_score, average,
                           last_at)
SELECT user_id, gid, rk, count(*), sum(status = 'won'), count(score), coalesce(sum(score), 0), max(score),
       avg(score), max(ended_at)
FROM (
    SELECT user_id, guild_id AS gid, rules_key AS rk, status, score, ended_at FROM games
        WHERE kind IN ('normal', 'daily') AND status <> 'playing' AND hinted = 0 AND guild_id IS NOT NULL
    UNION ALL
    SELECT user_id, guild_id, '*', status, score, ended_at FROM games
        WHERE kind IN ('normal', 'daily') AND status <> 'playing' AND hinted = 0 AND guild_id IS NOT NULL
    UNION ALL
    SELECT user_id, 0, rules_key, status, score, ended_at FROM games
        WHERE kind IN ('normal', 'daily') AND status <> 'playing' AND hinted = 0
    UNION ALL
    SELECT user_id, 0, '*', status, score, ended_at FROM games
        WHERE kind IN ('normal', 'daily') AND status <> 'playing' AND hinted = 0
)
GROUP BY user_id, gid, rk""",
    postgres="""
INSERT INTO player_totals (user_id, guild_id, rules_key, games, wins, scored, total_score, best_score, average,
                           last_at)
SELECT user_id, gid, rk, count(*), count(*) FILTER (WHERE status = 'won'), count(score),
       coalesce(sum(score), 0)::bigint, max(score), avg(score)::double precision, max(ended_at)
FROM (
    SELECT user_id, guild_id AS gid, rules_key AS rk, status, score, ended_at FROM games
        WHERE kind IN ('normal', 'daily') AND status <> 'playing' AND hinted = 0 AND guild_id IS NOT NULL
    UNION ALL
    SELECT user_id, guild_id, '*', status, score, ended_at FROM games
        WHERE kind IN ('normal', 'daily') AND status <> 'playing' AND hinted = 0 AND guild_id IS NOT NULL
    UNION ALL
    SELECT user_id, 0, rules_key, status, score, ended_at FROM games
        WHERE kind IN ('normal', 'daily') AND status <> 'playing' AND hinted = 0
    UNION ALL
    SELECT user_id, 0, '*', status, score, ended_at FROM games
        WHERE kind IN ('normal', 'daily') AND status <> 'playing' AND hinted = 0
) AS finished
GROUP BY user_id, gid, rk""")
FILL_DAILY_TOTALS = Sql(
    sqlite="""
INSERT INTO player_totals (user_id, guild_id, rules_key, games, wins, scored, total_score, best_score, average,
                           last_at)
SELECT user_id, gid, 'daily', count(*), sum(status = 'won'), count(score), coalesce(sum(score), 0), max(score),
       avg(score), max(ended_at)
FROM (
    SELECT user_id, guild_id AS gid, status, score, ended_at FROM games
        WHERE kind = 'daily' AND status <> 'playing' AND hinted = 0 AND guild_id IS NOT NULL
    UNION ALL
    SELECT user_id, 0, status, score, ended_at FROM games
        WHERE kind = 'daily' AND status <> 'playing' AND hinted = 0
)
GROUP BY user_id, gid""",
    postgres="""
INSERT INTO player_totals (user_id, guild_id, rules_key, games, wins, scored, total_score, best_score, average,
                           last_at)
SELECT user_id, gid, 'daily', count(*), count(*) FILTER (WHERE status = 'won'), count(score),
       coalesce(sum(score), 0)::bigint, max(score), avg(score)::double precision, max(ended_at)
FROM (
    SELECT user_id, guild_id AS gid, status, score, ended_at FROM games
        WHERE kind = 'daily' AND status <> 'playing' AND hinted = 0 AND guild_id IS NOT NULL
    UNION ALL
    SELECT user_id, 0, status, score, ended_at FROM games
        WHERE kind = 'daily' AND status <> 'playing' AND hinted = 0
) AS finished
GROUP BY user_id, gid""")
FILL_WEEK_TOTALS = Sql(
    sqlite="""
INSERT INTO week_totals (week_end, guild_id, user_id, total, days, wins, forfeits, best, last_at)
SELECT day + w.n, gid, user_id, sum(score), count(*), sum(status = 'won'), sum(ended_by IS NOT NULL), max(score),
       max(ended_at)
FROM (
    SELECT day, guild_id AS gid, user_id, score, status, ended_by, ended_at FROM games
        WHERE kind = 'daily' AND score IS NOT NULL AND guild_id IS NOT NULL
    UNION ALL
    SELECT day, 0, user_id, score, status, ended_by, ended_at FROM games WHERE kind = 'daily' AND score IS NOT NULL
) JOIN (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
        UNION ALL SELECT 5 UNION ALL SELECT 6) AS w
GROUP BY day + w.n, gid, user_id""",
    postgres="""
INSERT INTO week_totals (week_end, guild_id, user_id, total, days, wins, forfeits, best, last_at)
SELECT day + w.n, gid, user_id, sum(score), count(*), count(*) FILTER (WHERE status = 'won'),
       count(*) FILTER (WHERE ended_by IS NOT NULL), max(score), max(ended_at)
FROM (
    SELECT day, guild_id AS gid, user_id, score, status, ended_by, ended_at FROM games
        WHERE kind = 'daily' AND score IS NOT NULL AND guild_id IS NOT NULL
    UNION ALL
    SELECT day, 0, user_id, score, status, ended_by, ended_at FROM games WHERE kind = 'daily' AND score IS NOT NULL
) AS scored CROSS JOIN generate_series(0, 6) AS w(n)
GROUP BY day + w.n, gid, user_id""")


def rules_name(rules_key: str) -> str:
    return _PRESET_BY_KEY.get(rules_key, "custom")


class Boards:
    def __init__(self, db: Db) -> None:
        self.db = db

    async def leaderboard_daily(self, day: int, guild_id: int | None = None, limit: int = 10) -> list[DailyEntry]:
        if guild_id is None:
            rows = await self.db.read(DAILY_BOARD, (day, limit), board=True)
        else:
            rows = await self.db.read(DAILY_BOARD_IN, (day, limit, guild_id), board=True)
        return [DailyEntry(i, r[0], r[1], r[2], r[3], from_micros(r[4]), r[5], r[6]) for i, r in enumerate(rows, 1)]

    async def leaderboard_week(self, day: int, guild_id: int | None = None, limit: int = 10) -> list[WeekEntry]:
        rows = await self.db.read(WEEK_BOARD, (day, totals_guild(guild_id), limit), board=True)
        return [WeekEntry(i, r[0], r[1], r[2], r[3], r[4], r[5]) for i, r in enumerate(rows, 1)]

    async def leaderboard_all_time(self, guild_id: int | None = None, limit: int = 10,
                                   rules_key: str | None = None, *, dailies_only: bool = False) -> list[AllTimeEntry]:
        if dailies_only and rules_key is not None:
            raise ValueError("dailies_only already chooses the games; give no rules_key with it")
        key = DAILIES if dailies_only else rules_key or ALL_RULES
        rows = await self.db.read(ALL_TIME_BOARD, (totals_guild(guild_id), key, limit), board=True)
        return [AllTimeEntry(i, r[0], r[1], r[2], r[3], r[4]) for i, r in enumerate(rows, 1)]

    async def leaderboard_rank(self, board: str, user_id: int, day: int | None = None,
                               guild_id: int | None = None) -> tuple[int, int] | None:
        if board == "daily":
            found = await (self.db.read(DAILY_RANK, (day, user_id), board=True) if guild_id is None else
                           self.db.read(DAILY_RANK_IN, (day, user_id, guild_id), board=True))
        elif board == "week":
            found = await self.db.read(WEEK_RANK, (day, totals_guild(guild_id), user_id), board=True)
        elif board == "all-time":
            found = await self.db.read(ALL_TIME_RANK, (totals_guild(guild_id), DAILIES, user_id), board=True)
        else:
            raise ValueError(f"no board {board!r}")
        return (found[0][0], found[0][1]) if found else None

    async def user_stats(self, user_id: int, guild_id: int | None = None) -> UserStats:
        rows = await self.db.read(STATS, (user_id, totals_guild(guild_id)), board=True)
        overall = next((r for r in rows if r[0] == ALL_RULES), None)
        by_rules = sorted((RulesStats(r[0], rules_name(r[0]), r[1], r[2], r[4], r[5]) for r in rows
                           if r[0] not in (ALL_RULES, DAILIES)), key=lambda s: (-s.games, s.rules_key))
        dailies = next((RulesStats(DAILIES, "daily", r[1], r[2], r[4], r[5]) for r in rows if r[0] == DAILIES), None)
        if overall is None:
            return UserStats(user_id, guild_id)
        return UserStats(user_id, guild_id, games=overall[1], wins=overall[2], scored=overall[3], best=overall[4],
                         average=overall[5], by_rules=tuple(by_rules), dailies=dailies)

    async def daily_days(self, user_id: int) -> list[int]:
        return [row[0] for row in await self.db.read(DAILY_DAYS, (user_id,), board=True)]

    async def rebuild_totals(self) -> None:
        async def body(tx: Tx) -> None:
            await tx.execute("DELETE FROM player_totals")
            await tx.execute("DELETE FROM week_totals")
            await tx.execute("DELETE FROM month_totals")
            for fill in (FILL_PLAYER_TOTALS, FILL_DAILY_TOTALS, FILL_WEEK_TOTALS, FILL_MONTH_TOTALS):
                await tx.execute(fill)

        await self.db.write(body, slow=True)  # a repair over every game ever played may take a while


__all__ = ["NO_LIMIT", "Boards", "rules_name"]
