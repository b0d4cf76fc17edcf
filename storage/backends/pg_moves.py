"""PostgreSQL's one-statement writes: a group of moves (with the totals of the games they end), a new game.

Each is one statement outside any transaction block (one round trip, its own commit), at READ COMMITTED, where the
guarantee comes from the statement itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage.backends.base import Move, Outcomes
from storage.errors import GameNotFound, MoveRefused
from storage.models import GAME_COLUMNS
from storage.sql import MONTH_TOTALS, PLAYER_TOTALS, WEEK_TOTALS, TotalsTable

# A group of moves in one statement: each game's conditional UPDATE (moved on only from the version the move was
# made on, only while playing) and the action-log rows of exactly the games it updated; then, per move, whether it
# was applied and the game as the statement found it. Two statements updating one game (two processes, two clicks)
# queue on the row lock, and the second finds the version moved on: it updates nothing, so of two racing moves
# exactly one is applied.
_MOVES = (
    "m AS (SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[], "
    "$7::bigint[], $8::bigint[]) AS m(id, expected, code, snapshot, status, score, ended_at, at)), "
    "u AS (UPDATE games g SET version = m.expected + 1, snapshot = m.snapshot, status = m.status, score = m.score, "
    "ended_at = m.ended_at FROM m WHERE g.id = m.id AND g.version = m.expected AND g.status = 'playing' "
    "RETURNING g.id, m.expected, m.code, m.at, g.hinted), "
    "a AS (INSERT INTO game_actions (game_id, seq, code, at) SELECT id, expected + 1, code, at FROM u)")
_OUTCOMES = (
    " SELECT m.id, u.id IS NOT NULL, g.version, g.status FROM m LEFT JOIN u ON u.id = m.id "
    "LEFT JOIN games g ON g.id = m.id")
APPLY_MOVES = "WITH " + _MOVES + _OUTCOMES
# The same with the running totals of the games those moves end (``games.engine.tally``'s rows, each tagged with its
# game): added only for the games the statement updated and that are not hinted (read from the row the statement
# holds locked, so a hint taken at the same moment is either seen or waits), in the same statement and so the same
# commit. ``INSERT ... ON CONFLICT DO UPDATE`` is an atomic add at READ COMMITTED: a statement that meets a row
# another one is updating waits for it and adds to the committed row, so concurrent ends never lose a count. The
# rows go in key order, so two statements take their row locks in one order. A statement may not upsert one key
# twice: such a group (one player ending two games at once) takes the transaction instead.
_ENDING = (PLAYER_TOTALS, WEEK_TOTALS, MONTH_TOTALS)  # in the order of their arguments, after the moves' 8


def _totals_insert(table: TotalsTable, first: int) -> str:
    """``table``'s rows from arrays ``$first …`` (each row tagged with its game, then the tally's row), inserted
    for the updated games that are not hinted, in key order."""
    arrays = ", ".join(f"${first + n}::{kind}[]" for n, (_, kind) in enumerate((("game_id", "bigint"), *table.row)))
    values = ", ".join([f"k.{column}" for column in table.row_columns] + (["1"] if table.days else []))
    return (f"INSERT INTO {table.name} AS {table.alias} ({table.columns}) SELECT {values} "
            f"FROM unnest({arrays}) AS k(game_id, {', '.join(table.row_columns)}) "
            "JOIN u ON u.id = k.game_id AND u.hinted = 0 "
            f"ORDER BY {', '.join('k.' + column for column in table.key)} {table.conflict.postgres}")


def _ending_moves() -> str:
    first, inserts = 9, []
    for table in _ENDING:
        inserts.append(f"{table.name}_added AS ({_totals_insert(table, first)})")
        first += 1 + len(table.row)
    return "WITH " + _MOVES + ", " + ", ".join(inserts) + _OUTCOMES


APPLY_ENDING_MOVES = _ending_moves()
# A new game in one statement: inserted (with a counted daily's attempt) unless the player has a game running in
# the slot or has used the day; then the new id, the used attempt's game, and the running game's row. Two processes
# creating at the same instant both pass the checks, and the unique indexes decide: ``games_one_active`` (one
# running game per player and slot) and the key of ``daily_attempts`` (one counted attempt per player and day); the
# second insert waits for the first to commit and fails (``ConstraintViolation``), which the store reports exactly
# as a refused check. Parameters: user, guild, channel, kind, slot, day, rules_json, rules key, rules name, seed,
# deck, snapshot, now (us).
START_GAME = (
    f"WITH active AS (SELECT {GAME_COLUMNS} FROM games WHERE user_id = $1 AND slot = $5 AND status = 'playing' "
    "AND challenge_id IS NULL), "
    "used AS (SELECT game_id FROM daily_attempts WHERE $4 = 'daily' AND user_id = $1 AND day = $6), "
    "g AS (INSERT INTO games (user_id, guild_id, channel_id, kind, slot, day, rules_json, rules_key, rules_name, "
    "seed, deck, status, version, snapshot, started_at) "
    "SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'playing', 0, $12, $13 "
    "WHERE NOT EXISTS (SELECT 1 FROM active) AND NOT EXISTS (SELECT 1 FROM used) RETURNING id), "
    "a AS (INSERT INTO daily_attempts (user_id, day, game_id, created_at) SELECT $1, $6, id, $13 FROM g "
    "WHERE $4 = 'daily') "
    "SELECT (SELECT id FROM g), (SELECT game_id FROM used), active.* FROM (VALUES (1)) AS one (x) "
    "LEFT JOIN active ON true")


def totals_columns(group: list[Move]) -> list[list[Any]] | None:
    """The totals arguments of ``APPLY_ENDING_MOVES`` (player rows, week rows, then month rows, column by column,
    each row tagged with its game), or None when one key would be upserted twice (the statement cannot)."""
    tables = [[(move.game_id, *row) for move in group for row in rows(move)]
              for rows in (lambda m: m.tally.players, lambda m: m.tally.weeks, lambda m: m.tally.months)]
    # Every table's key is the tally row's first three columns.
    if any(len({row[1:4] for row in rows}) != len(rows) for rows in tables):
        return None
    columns: list[list[Any]] = []
    for table, rows in zip(_ENDING, tables, strict=True):
        columns += [list(column) for column in zip(*rows, strict=True)] if rows else [[]] * (1 + len(table.row))
    return columns


def outcomes(group: list[Move], rows: Sequence[Sequence[Any]]) -> Outcomes:
    """Per move, None (applied) or the exception its caller gets, from the statement's rows."""
    found = {row[0]: row for row in rows}
    result: Outcomes = []
    for move in group:
        _, applied, version, status = found[move.game_id]
        if applied:
            result.append(None)
        elif version is None:
            result.append(GameNotFound(move.game_id))
        elif status != "playing":
            result.append(MoveRefused(move.game_id, MoveRefused.OVER, expected=move.expected, current=version,
                                      status=status))
        else:  # moved on, perhaps by a statement that committed while this one waited for the row
            result.append(MoveRefused(move.game_id, MoveRefused.STALE, expected=move.expected,
                                      current=max(version, move.expected + 1)))
    return result


__all__ = ["APPLY_ENDING_MOVES", "APPLY_MOVES", "START_GAME", "outcomes", "totals_columns"]
