"""Statements shared by the storage areas and a backend, and ``Sql``: one statement written out in each dialect.

A plain ``str`` statement is one text both databases take (placeholders ``$1, $2, …``, which SQLite reads as named
parameters and PostgreSQL as positional ones); where the dialects differ, an ``Sql`` holds both texts, side by side.
Nothing is rewritten at run time.

The running totals live here because two places write them: ``storage/totals.py`` (any transaction) and
PostgreSQL's one-statement move commit (``storage/backends/pg_moves.py``). Each table is defined once
(``TotalsTable``: the columns of a row as ``games.engine.tally`` gives it, and what a row adds to one already there);
both the upserts and the move commit's ``unnest`` are made from that definition.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Sql:
    """One statement in each dialect, when they differ."""

    sqlite: str
    postgres: str


Statement = str | Sql


def _dialects(template: str) -> Sql:
    """``template`` in each dialect: SQLite's max(a, b) is PostgreSQL's greatest(a, b)."""
    return Sql(sqlite=template.format(max="max"), postgres=template.format(max="greatest"))


@dataclass(frozen=True, slots=True)
class TotalsTable:
    """A running totals table. ``row``: a tally row's columns in order, each with its PostgreSQL type; ``days``:
    each row is one more day played (the column is set to 1, or incremented); ``conflict``: the upsert's
    ``ON CONFLICT`` clause, adding a row to the one already there (the table's alias is ``alias``)."""

    name: str
    alias: str
    key: tuple[str, ...]
    row: tuple[tuple[str, str], ...]
    conflict: Sql
    days: bool = False

    @property
    def row_columns(self) -> tuple[str, ...]:
        return tuple(column for column, _ in self.row)

    @property
    def columns(self) -> str:
        """The insert's column list: the row's, then ``days``."""
        return ", ".join(self.row_columns + (("days",) if self.days else ()))

    @property
    def upsert(self) -> Sql:
        """One row's upsert, its values ``$1 …`` in the row's order."""
        values = ", ".join([f"${n}" for n in range(1, len(self.row) + 1)] + (["1"] if self.days else []))
        insert = f"INSERT INTO {self.name} AS {self.alias} ({self.columns}) VALUES ({values}) "
        return Sql(sqlite=insert + self.conflict.sqlite, postgres=insert + self.conflict.postgres)


PLAYER_TOTALS = TotalsTable(
    name="player_totals", alias="t", key=("user_id", "guild_id", "rules_key"),
    row=(("user_id", "bigint"), ("guild_id", "bigint"), ("rules_key", "text"), ("games", "bigint"),
         ("wins", "bigint"), ("scored", "bigint"), ("total_score", "bigint"), ("best_score", "bigint"),
         ("average", "double precision"), ("last_at", "bigint"), ("points", "bigint")),
    conflict=_dialects(
        "ON CONFLICT (user_id, guild_id, rules_key) DO UPDATE SET "
        "games = t.games + excluded.games, wins = t.wins + excluded.wins, scored = t.scored + excluded.scored, "
        "total_score = t.total_score + excluded.total_score, "
        "best_score = CASE WHEN t.best_score IS NULL THEN excluded.best_score "
        "WHEN excluded.best_score IS NULL THEN t.best_score ELSE {max}(t.best_score, excluded.best_score) END, "
        "average = CASE WHEN t.scored + excluded.scored > 0 THEN "
        "(t.total_score + excluded.total_score) * 1.0 / (t.scored + excluded.scored) END, "
        "last_at = {max}(coalesce(t.last_at, 0), excluded.last_at), points = t.points + excluded.points"))


def _days_table(name: str, alias: str, period: str) -> TotalsTable:
    """A table of days played in a period (a week, a month): one row per period, server and player."""
    return TotalsTable(
        name=name, alias=alias, key=(period, "guild_id", "user_id"), days=True,
        row=((period, "bigint"), ("guild_id", "bigint"), ("user_id", "bigint"), ("points", "bigint"),
             ("wins", "bigint"), ("forfeits", "bigint"), ("best", "bigint"), ("last_at", "bigint")),
        conflict=_dialects(
            f"ON CONFLICT ({period}, guild_id, user_id) DO UPDATE SET "
            f"points = {alias}.points + excluded.points, days = {alias}.days + 1, "
            f"wins = {alias}.wins + excluded.wins, forfeits = {alias}.forfeits + excluded.forfeits, "
            f"best = {{max}}({alias}.best, excluded.best), "
            f"last_at = {{max}}(coalesce({alias}.last_at, 0), excluded.last_at)"))


WEEK_TOTALS = _days_table("week_totals", "w", "week_end")
MONTH_TOTALS = _days_table("month_totals", "mo", "month")
PLAYER_TOTALS_UPSERT = PLAYER_TOTALS.upsert
WEEK_TOTALS_UPSERT = WEEK_TOTALS.upsert
MONTH_TOTALS_UPSERT = MONTH_TOTALS.upsert


__all__ = ["MONTH_TOTALS", "MONTH_TOTALS_UPSERT", "PLAYER_TOTALS", "PLAYER_TOTALS_UPSERT", "WEEK_TOTALS",
           "WEEK_TOTALS_UPSERT", "Sql", "Statement", "TotalsTable"]
