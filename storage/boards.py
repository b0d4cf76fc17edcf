"""Boards and stats: the daily, week and all-time boards, a player's place on them, their stats and streak days,
and the operator's rebuild of the running totals (which ``games.engine.tally`` decides and ``totals`` writes).

The daily board ranks one day's scores; the boards of several days (week, month, all-time dailies) rank the
points ``games.engine.tally`` gives each day, which playing can only add to."""

from __future__ import annotations

from games.engine import PRESETS
from games.engine.tally import ALL_RULES, DAILIES, DAY_FLOOR
from storage.backends.base import Db, Tx
from storage.models import AllTimeEntry, DailyEntry, RulesStats, UserStats, WeekEntry, from_micros
from storage.months import FILL_MONTH_TOTALS
from storage.totals import DAYS_ORDER, totals_guild

NO_LIMIT = 1 << 62  # LIMIT for "all rows", in a form both SQLite and PostgreSQL take
_PRESET_BY_KEY = {rules.key: name for name, rules in PRESETS.items()}

_DAILY_ENTRY = "SELECT user_id, id, score, status, ended_at, guild_id, ended_by FROM games "
_DAILY_ORDER = "ORDER BY score DESC, (ended_by IS NOT NULL), ended_at, id LIMIT $2"
DAILY_BOARD = _DAILY_ENTRY + "WHERE day = $1 AND kind = 'daily' AND score IS NOT NULL " + _DAILY_ORDER
DAILY_BOARD_IN = (_DAILY_ENTRY + "WHERE guild_id = $3 AND day = $1 AND kind = 'daily' AND score IS NOT NULL "
                  + _DAILY_ORDER)
WEEK_BOARD = ("SELECT user_id, points, days, wins, best, forfeits FROM week_totals WHERE week_end = $1 "
              f"AND guild_id = $2 ORDER BY {DAYS_ORDER} LIMIT $3")
_ALL_TIME_ENTRY = "SELECT user_id, wins, games, best_score, average, points FROM player_totals "
# The all-time daily board, a board of several days, ranks by points (``games.engine.tally``), the counted dailies
# (``games``) standing for days; the rule set written out so its partial index is used.
_DAILIES_ORDER = DAYS_ORDER.replace("days", "games")
ALL_TIME_DAILIES_BOARD = (_ALL_TIME_ENTRY + f"WHERE guild_id = $1 AND rules_key = '{DAILIES}' "
                          f"ORDER BY {_DAILIES_ORDER} LIMIT $2")
# Any other set of games: most wins. SQLite sorts NULL last in descending order already; PostgreSQL is told to.
ALL_TIME_BOARD = (_ALL_TIME_ENTRY + "WHERE guild_id = $1 AND rules_key = $2 ORDER BY wins DESC, "
                  "best_score DESC NULLS LAST, average DESC NULLS LAST, user_id LIMIT $3")
_RANKED = ("SELECT place, players FROM (SELECT user_id, row_number() OVER (ORDER BY {order}) AS place, "
           "count(*) OVER () AS players FROM ({rows}) AS entries) AS ranked WHERE user_id = {user}")
_DAILY_RANKED_ROWS = ("SELECT user_id, score, (ended_by IS NOT NULL) AS forfeit, ended_at, id FROM games "
                      "WHERE {guild}day = $1 AND kind = 'daily' AND score IS NOT NULL")
_DAILY_RANK_ORDER = "score DESC, forfeit, ended_at, id"
DAILY_RANK = _RANKED.format(order=_DAILY_RANK_ORDER, rows=_DAILY_RANKED_ROWS.format(guild=""), user="$2")
DAILY_RANK_IN = _RANKED.format(order=_DAILY_RANK_ORDER, rows=_DAILY_RANKED_ROWS.format(guild="guild_id = $3 AND "),
                               user="$2")
WEEK_RANK = _RANKED.format(order=DAYS_ORDER, user="$3", rows=(
    "SELECT user_id, points, days, last_at FROM week_totals WHERE week_end = $1 AND guild_id = $2"))
ALL_TIME_RANK = _RANKED.format(order=_DAILIES_ORDER, user="$2", rows=(
    f"SELECT user_id, points, games, last_at FROM player_totals WHERE guild_id = $1 AND rules_key = '{DAILIES}'"))
STATS = ("SELECT rules_key, games, wins, scored, best_score, average FROM player_totals "
         "WHERE user_id = $1 AND guild_id = $2")
DAILY_DAYS = ("SELECT DISTINCT day FROM games WHERE user_id = $1 AND kind = 'daily' AND score IS NOT NULL "
              "AND ended_by IS NULL ORDER BY day")

# The running totals recomputed from the games, as ``games.engine.tally`` adds them (hinted games left out): per rule
# set, every rule set and counted dailies only, in each server and every server (guild 0); then the 7 weeks holding
# each scored counted daily. ``$1`` is ``DAY_FLOOR``: a scored counted daily's points are its score above it. One
# text for both databases: ``sum(CASE …)`` counts a condition, ``CAST`` gives each column its type.
_COUNTED = ("SELECT user_id, {guild}, {rules}, kind, status, score, ended_at FROM games "
            "WHERE kind IN ('normal', 'daily') AND status <> 'playing' AND hinted = 0")
FILL_PLAYER_TOTALS = f"""
INSERT INTO player_totals (user_id, guild_id, rules_key, games, wins, scored, total_score, best_score, average,
                           last_at, points)
SELECT user_id, gid, rk, count(*), sum(CASE WHEN status = 'won' THEN 1 ELSE 0 END), count(score),
       CAST(coalesce(sum(score), 0) AS BIGINT), max(score), CAST(avg(score) AS DOUBLE PRECISION), max(ended_at),
       CAST(coalesce(sum(CASE WHEN kind = 'daily' THEN score - $1 END), 0) AS BIGINT)
FROM (
    {_COUNTED.format(guild="guild_id AS gid", rules="rules_key AS rk")} AND guild_id IS NOT NULL
    UNION ALL {_COUNTED.format(guild="guild_id", rules="'*'")} AND guild_id IS NOT NULL
    UNION ALL {_COUNTED.format(guild="guild_id", rules="'daily'")} AND guild_id IS NOT NULL AND kind = 'daily'
    UNION ALL {_COUNTED.format(guild="0", rules="rules_key")}
    UNION ALL {_COUNTED.format(guild="0", rules="'*'")}
    UNION ALL {_COUNTED.format(guild="0", rules="'daily'")} AND kind = 'daily'
) AS finished
GROUP BY user_id, gid, rk"""
FILL_WEEK_TOTALS = """
INSERT INTO week_totals (week_end, guild_id, user_id, points, days, wins, forfeits, best, last_at)
SELECT day + w.n, gid, user_id, CAST(sum(score - $1) AS BIGINT), count(*),
       sum(CASE WHEN status = 'won' THEN 1 ELSE 0 END), sum(CASE WHEN ended_by IS NOT NULL THEN 1 ELSE 0 END),
       max(score), max(ended_at)
FROM (
    SELECT day, guild_id AS gid, user_id, score, status, ended_by, ended_at FROM games
        WHERE kind = 'daily' AND score IS NOT NULL AND guild_id IS NOT NULL
    UNION ALL
    SELECT day, 0, user_id, score, status, ended_by, ended_at FROM games WHERE kind = 'daily' AND score IS NOT NULL
) AS scored CROSS JOIN (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
                        UNION ALL SELECT 5 UNION ALL SELECT 6) AS w
GROUP BY day + w.n, gid, user_id"""


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
        if dailies_only:
            rows = await self.db.read(ALL_TIME_DAILIES_BOARD, (totals_guild(guild_id), limit), board=True)
        else:
            rows = await self.db.read(ALL_TIME_BOARD, (totals_guild(guild_id), rules_key or ALL_RULES, limit),
                                      board=True)
        return [AllTimeEntry(i, r[0], r[1], r[2], r[3], r[4], r[5]) for i, r in enumerate(rows, 1)]

    async def leaderboard_rank(self, board: str, user_id: int, day: int | None = None,
                               guild_id: int | None = None) -> tuple[int, int] | None:
        if board == "daily":
            found = await (self.db.read(DAILY_RANK, (day, user_id), board=True) if guild_id is None else
                           self.db.read(DAILY_RANK_IN, (day, user_id, guild_id), board=True))
        elif board == "week":
            found = await self.db.read(WEEK_RANK, (day, totals_guild(guild_id), user_id), board=True)
        elif board == "all-time":
            found = await self.db.read(ALL_TIME_RANK, (totals_guild(guild_id), user_id), board=True)
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
            for fill in (FILL_PLAYER_TOTALS, FILL_WEEK_TOTALS, FILL_MONTH_TOTALS):
                await tx.execute(fill, (DAY_FLOOR,))

        await self.db.write(body, slow=True)  # a repair over every game ever played may take a while


__all__ = ["NO_LIMIT", "Boards", "rules_name"]
