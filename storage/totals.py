"""Writing the running totals (``player_totals``, ``week_totals``): the rows ``bot.engine.tally`` decides, added.

Each row is an upsert that adds to what is there (an atomic add, so concurrent ends never lose a count). The
``ON CONFLICT`` clauses are kept apart because PostgreSQL's one-statement move commit reuses them.
"""

from __future__ import annotations

from bot.engine.tally import Tally

from .backends.base import Sql, Tx

PLAYER_TOTALS_COLUMNS = ("user_id, guild_id, rules_key, games, wins, scored, total_score, best_score, average, "
                         "last_at")
WEEK_TOTALS_COLUMNS = "week_end, guild_id, user_id, total, days, wins, forfeits, best, last_at"
# SQLite's max(a, b) is PostgreSQL's greatest(a, b).
PLAYER_TOTALS_CONFLICT = Sql(
    sqlite="ON CONFLICT (user_id, guild_id, rules_key) DO UPDATE SET "
    "games = t.games + excluded.games, wins = t.wins + excluded.wins, scored = t.scored + excluded.scored, "
    "total_score = t.total_score + excluded.total_score, "
    "best_score = CASE WHEN t.best_score IS NULL THEN excluded.best_score "
    "WHEN excluded.best_score IS NULL THEN t.best_score ELSE max(t.best_score, excluded.best_score) END, "
    "average = CASE WHEN t.scored + excluded.scored > 0 THEN "
    "(t.total_score + excluded.total_score) * 1.0 / (t.scored + excluded.scored) END, "
    "last_at = max(coalesce(t.last_at, 0), excluded.last_at)",
    postgres="ON CONFLICT (user_id, guild_id, rules_key) DO UPDATE SET "
    "games = t.games + excluded.games, wins = t.wins + excluded.wins, scored = t.scored + excluded.scored, "
    "total_score = t.total_score + excluded.total_score, "
    "best_score = CASE WHEN t.best_score IS NULL THEN excluded.best_score "
    "WHEN excluded.best_score IS NULL THEN t.best_score ELSE greatest(t.best_score, excluded.best_score) END, "
    "average = CASE WHEN t.scored + excluded.scored > 0 THEN "
    "(t.total_score + excluded.total_score) * 1.0 / (t.scored + excluded.scored) END, "
    "last_at = greatest(coalesce(t.last_at, 0), excluded.last_at)")
WEEK_TOTALS_CONFLICT = Sql(
    sqlite="ON CONFLICT (week_end, guild_id, user_id) DO UPDATE SET "
    "total = w.total + excluded.total, days = w.days + 1, wins = w.wins + excluded.wins, "
    "forfeits = w.forfeits + excluded.forfeits, best = max(w.best, excluded.best), "
    "last_at = max(coalesce(w.last_at, 0), excluded.last_at)",
    postgres="ON CONFLICT (week_end, guild_id, user_id) DO UPDATE SET "
    "total = w.total + excluded.total, days = w.days + 1, wins = w.wins + excluded.wins, "
    "forfeits = w.forfeits + excluded.forfeits, best = greatest(w.best, excluded.best), "
    "last_at = greatest(coalesce(w.last_at, 0), excluded.last_at)")
_PLAYER_INSERT = (f"INSERT INTO player_totals AS t ({PLAYER_TOTALS_COLUMNS}) "
                  "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ")
_WEEK_INSERT = f"INSERT INTO week_totals AS w ({WEEK_TOTALS_COLUMNS}) VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $8) "
PLAYER_TOTALS_UPSERT = Sql(sqlite=_PLAYER_INSERT + PLAYER_TOTALS_CONFLICT.sqlite,
                           postgres=_PLAYER_INSERT + PLAYER_TOTALS_CONFLICT.postgres)
WEEK_TOTALS_UPSERT = Sql(sqlite=_WEEK_INSERT + WEEK_TOTALS_CONFLICT.sqlite,
                         postgres=_WEEK_INSERT + WEEK_TOTALS_CONFLICT.postgres)


async def add_tally(tx: Tx, tally: Tally) -> None:
    """Inside a write transaction: add the rows to the running totals."""
    if tally.players:
        await tx.executemany(PLAYER_TOTALS_UPSERT, tally.players)
    if tally.weeks:
        await tx.executemany(WEEK_TOTALS_UPSERT, tally.weeks)


__all__ = ["PLAYER_TOTALS_CONFLICT", "PLAYER_TOTALS_UPSERT", "WEEK_TOTALS_CONFLICT", "WEEK_TOTALS_UPSERT",
           "add_tally"]
