"""PostgreSQL's one-statement writes: a group of moves (with the totals of the games they end), a new game.

Each is one statement outside any transaction block (one round trip, its own commit), at READ COMMITTED, where the
guarantee comes from the statement itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage.backends.base import Move, Outcomes
from storage.errors import GameNotFound, GameOver, StaleVersion
from storage.models import GAME_COLUMNS
from storage.sql import (
    MONTH_TOTALS_COLUMNS,
    MONTH_TOTALS_CONFLICT,
    PLAYER_TOTALS_COLUMNS,
    PLAYER_TOTALS_CONFLICT,
    WEEK_TOTALS_COLUMNS,
    WEEK_TOTALS_CONFLICT,
)

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
APPLY_ENDING_MOVES = (
    "WITH " + _MOVES + ", "
    f"pt AS (INSERT INTO player_totals AS t ({PLAYER_TOTALS_COLUMNS}) SELECT p.user_id, p.guild_id, p.rules_key, "
    "p.games, p.wins, p.scored, p.total_score, p.best_score, p.average, p.last_at FROM unnest($9::bigint[], "
    "$10::bigint[], $11::bigint[], $12::text[], $13::bigint[], $14::bigint[], $15::bigint[], $16::bigint[], "
    "$17::bigint[], $18::double precision[], $19::bigint[]) AS p(game_id, user_id, guild_id, rules_key, games, wins, "
    "scored, total_score, best_score, average, last_at) JOIN u ON u.id = p.game_id AND u.hinted = 0 "
    "ORDER BY p.user_id, p.guild_id, p.rules_key " + PLAYER_TOTALS_CONFLICT.postgres + "), "
    f"wt AS (INSERT INTO week_totals AS w ({WEEK_TOTALS_COLUMNS}) "
    "SELECT k.week_end, k.guild_id, k.user_id, k.total, 1, k.wins, k.forfeits, k.best, k.last_at "
    "FROM unnest($20::bigint[], $21::bigint[], $22::bigint[], $23::bigint[], $24::bigint[], $25::bigint[], "
    "$26::bigint[], $27::bigint[], $28::bigint[]) AS k(game_id, week_end, guild_id, user_id, total, wins, forfeits, "
    "best, last_at) JOIN u ON u.id = k.game_id AND u.hinted = 0 ORDER BY k.week_end, k.guild_id, k.user_id "
    + WEEK_TOTALS_CONFLICT.postgres + "), "
    f"mt AS (INSERT INTO month_totals AS mo ({MONTH_TOTALS_COLUMNS}) "
    "SELECT k.month, k.guild_id, k.user_id, k.total, 1, k.wins, k.forfeits, k.best, k.last_at "
    "FROM unnest($29::bigint[], $30::bigint[], $31::bigint[], $32::bigint[], $33::bigint[], $34::bigint[], "
    "$35::bigint[], $36::bigint[], $37::bigint[]) AS k(game_id, month, guild_id, user_id, total, wins, forfeits, "
    "best, last_at) JOIN u ON u.id = k.game_id AND u.hinted = 0 ORDER BY k.month, k.guild_id, k.user_id "
    + MONTH_TOTALS_CONFLICT.postgres + ")" + _OUTCOMES)
# A new game in one statement: inserted (with a counted daily's attempt) unless the player has a game running in
# the slot or has used the day; then the new id, the used attempt's game, and the running game's row. Two processes
# creating at the same instant both pass the checks, and the unique indexes decide: ``games_one_active`` (one
# running game per player and slot) and the key of ``daily_attempts`` (one counted attempt per player and day); the
# second insert waits for the first to commit and fails (``ConstraintViolation``), which the store reports exactly
# as a refused check. Parameters: user, guild, channel, kind, slot, day, rules_json, rules key, rules name, seed,
# deck, snapshot, now (us).
START_GAME = (
    f"WITH active AS (SELECT {GAME_COLUMNS} FROM games WHERE user_id = $1 AND slot = $5 AND status = 'playing'), "
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
    each tagged with its game), or None when one key would be upserted twice (the statement cannot)."""
    players = [(move.game_id, *row) for move in group for row in move.tally.players]
    weeks = [(move.game_id, *row) for move in group for row in move.tally.weeks]
    months = [(move.game_id, *row) for move in group for row in move.tally.months]
    if any(len({row[1:4] for row in rows}) != len(rows) for rows in (players, weeks, months)):
        return None
    # Columns as the unnest lists them: player rows (game, user, guild, rules, games, wins, scored, total, best,
    # average, last); week rows (game, week_end, guild, user, total, wins, forfeits, best, last).
    columns = [list(column) for column in zip(*players, strict=True)] if players else [[]] * 11
    columns += [list(column) for column in zip(*weeks, strict=True)] if weeks else [[]] * 9
    columns += [list(column) for column in zip(*months, strict=True)] if months else [[]] * 9  # (game, month, ...)
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
            result.append(GameOver(move.game_id, move.expected, version, status))
        else:  # moved on, perhaps by a statement that committed while this one waited for the row
            result.append(StaleVersion(move.game_id, move.expected, max(version, move.expected + 1)))
    return result


__all__ = ["APPLY_ENDING_MOVES", "APPLY_MOVES", "START_GAME", "outcomes", "totals_columns"]
