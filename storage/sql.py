"""Statements shared by the storage areas and a backend, and ``Sql``: one statement written out in each dialect.

A plain ``str`` statement is one text both databases take (placeholders ``$1, $2, …``, which SQLite reads as named
parameters and PostgreSQL as positional ones); where the dialects differ, an ``Sql`` holds both texts, side by side.
Nothing is rewritten at run time.

The running totals' upserts live here because two places write them: ``storage/totals.py`` (any transaction) and
PostgreSQL's one-statement move commit (``storage/backends/pg_moves.py``), which reuses the ``ON CONFLICT`` clauses.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Sql:
    """One statement in each dialect, when they differ."""

    sqlite: str
    postgres: str


Statement = str | Sql

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


__all__ = ["PLAYER_TOTALS_COLUMNS", "PLAYER_TOTALS_CONFLICT", "PLAYER_TOTALS_UPSERT", "WEEK_TOTALS_COLUMNS",
           "WEEK_TOTALS_CONFLICT", "WEEK_TOTALS_UPSERT", "Sql", "Statement"]
