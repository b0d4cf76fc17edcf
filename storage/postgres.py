"""``PgStore``: the ``Store`` on PostgreSQL through asyncpg, for several bot processes sharing one database.

Same API and guarantees as the SQLite store (storage/store.py), and the same code wherever the SQL is portable:
``PgStore`` inherits every method and only replaces how a statement reaches the database.

* A pool of connections (asyncpg reconnects by itself: a connection broken by a server restart is replaced on
  the next acquire; a connection going back to the pool is reused as it is, without asyncpg's reset round trip).
  Plain reads run on any pooled connection; a write made of several statements is one transaction at
  SERIALIZABLE isolation, which gives what SQLite's ``BEGIN IMMEDIATE`` gives: the transaction behaves as if it
  ran alone. When two transactions collide (two processes claiming the same daily post), PostgreSQL aborts one
  with a serialization failure and it is run again from the start, where it sees the winner's commit.
* The busiest writes are one statement each, outside any transaction block (one round trip, its own commit), at
  READ COMMITTED, where the guarantee comes from the statement itself: a group of moves (``_APPLY_MOVES``) updates
  each game only from the version its move was made on, so of two racing clicks, in one process or two, exactly
  one applies and the other gets ``StaleVersion``; ``create_game`` (``_START_GAME``) leans on the unique indexes
  (one running game per player and slot, one counted attempt per player and day).
* A move on a game this process holds in memory at the move's version (it made the last move, created the game
  or read it since) is made without reading the game first (``_game_to_move``). Memory may be stale, as another
  process may have moved or ended the game: the write is conditional all the same, so the move is refused with
  the version found, and the game is read again next time. A version names one state (the action log is only
  appended to), so a stale memory can never apply a move to an old state.
* ``synchronous_commit`` stays on (PostgreSQL's default): COMMIT returns once the WAL is flushed, and a move is
  acknowledged only after its COMMIT, so an acknowledged move survives the bot being killed (and the server).
* Losing the server (down, restarting, network) is ``DatabaseError``: the cogs answer "I can't reach my database
  right now", nothing half-written stays, and the next click uses a fresh connection.
* Statements are the SQLite store's, with ``?`` placeholders numbered for PostgreSQL; the few that differ in
  dialect are in ``_DIALECT`` below, next to their SQLite text, or in a method overridden here. Schema changes live
  in ``storage/pg_migrations`` with the same numbers as ``storage/migrations``; the applied version is kept in
  ``schema_version`` and a database newer than the code is refused (``SchemaTooNew``).
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import sqlite3
from collections import OrderedDict
from collections.abc import Callable, Iterable
from datetime import datetime
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from . import migrate
from .errors import DatabaseError, GameNotFound, GameOver, StaleVersion
from .models import PLAYING, GameRecord
from .months import MONTH_TOTALS_UPSERT, MONTH_TOTALS_UPSERT_PG
from .store import (
    _GAME_COLUMNS,
    PLAYER_TOTALS_UPSERT,
    STATE_CACHE_SIZE,
    WEEK_TOTALS_UPSERT,
    Store,
    _add_totals_many,
    _utcnow,
)

log = logging.getLogger(__name__)

MIGRATIONS = "pg_migrations"
POOL_SIZE = 10
MOVE_CONNECTIONS = 2  # the moves' own pool: one group commit on its way, the next one ready to go
CONNECT_TIMEOUT = 5.0  # seconds to reach the server before a click is told to try again
COMMAND_TIMEOUT = 30.0  # a statement the server does not answer (a network cut without a reset) fails, not hangs
MIGRATION_TIMEOUT = 3600.0
SERIALIZATION_RETRIES = 100
_MIGRATION_LOCK = 0x5C0D7E1  # pg_advisory_lock key: one process migrates at a time
# Errors that mean "the server is out of reach", not "this statement is wrong".
_UNREACHABLE = (OSError, asyncio.TimeoutError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError,
                asyncpg.CannotConnectNowError, asyncpg.OperatorInterventionError)
_RETRY = (asyncpg.SerializationError, asyncpg.DeadlockDetectedError)


class PgIntegrityError(sqlite3.IntegrityError):
    """A constraint violation on PostgreSQL, raised as the ``sqlite3.IntegrityError`` the shared code expects."""


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))


# --- SQL: the SQLite store's statements that PostgreSQL spells differently -------------------------------------
_DIALECT = {
    # _add_totals_many: PostgreSQL wants the existing row's columns qualified, and greatest() for max(a, b).
    PLAYER_TOTALS_UPSERT:
    "INSERT INTO player_totals AS t (user_id, guild_id, rules_key, games, wins, scored, total_score, best_score, "
    "average, last_at) VALUES (?,?,?,?,?,?,?,?,?,?) "
    "ON CONFLICT (user_id, guild_id, rules_key) DO UPDATE SET "
    "games = t.games + excluded.games, wins = t.wins + excluded.wins, scored = t.scored + excluded.scored, "
    "total_score = t.total_score + excluded.total_score, "
    "best_score = CASE WHEN t.best_score IS NULL THEN excluded.best_score "
    "WHEN excluded.best_score IS NULL THEN t.best_score ELSE greatest(t.best_score, excluded.best_score) END, "
    "average = CASE WHEN t.scored + excluded.scored > 0 THEN "
    "(t.total_score + excluded.total_score) * 1.0 / (t.scored + excluded.scored) END, "
    "last_at = greatest(coalesce(t.last_at, 0), excluded.last_at)",
    WEEK_TOTALS_UPSERT:
    "INSERT INTO week_totals AS w (week_end, guild_id, user_id, total, days, wins, forfeits, best, last_at) "
    "VALUES (?,?,?,?,1,?,?,?,?) ON CONFLICT (week_end, guild_id, user_id) DO UPDATE SET "
    "total = w.total + excluded.total, days = w.days + 1, wins = w.wins + excluded.wins, "
    "forfeits = w.forfeits + excluded.forfeits, best = greatest(w.best, excluded.best), "
    "last_at = greatest(coalesce(w.last_at, 0), excluded.last_at)",
    MONTH_TOTALS_UPSERT: MONTH_TOTALS_UPSERT_PG,  # 0012, beside the week totals
    # daily_secret
    "INSERT OR IGNORE INTO bot_secrets (name, value) VALUES (?, ?)":
    "INSERT INTO bot_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
    # put_par
    "INSERT OR REPLACE INTO par_cache (rules_key, deck, best_score, line, created_at) VALUES (?,?,?,?,?)":
    "INSERT INTO par_cache (rules_key, deck, best_score, line, created_at) VALUES (?,?,?,?,?) "
    "ON CONFLICT (rules_key, deck) DO UPDATE SET best_score = excluded.best_score, line = excluded.line, "
    "created_at = excluded.created_at",
}
# leaderboard_all_time: SQLite sorts NULL last in descending order, PostgreSQL first.
_DIALECT["SELECT user_id, wins, games, best_score, average FROM player_totals WHERE guild_id = ? AND rules_key = ? "
         "ORDER BY wins DESC, best_score DESC, average DESC, user_id LIMIT ?"] = (
    "SELECT user_id, wins, games, best_score, average FROM player_totals WHERE guild_id = ? AND rules_key = ? "
    "ORDER BY wins DESC, best_score DESC NULLS LAST, average DESC NULLS LAST, user_id LIMIT ?")
# A group of moves in one statement, so one round trip (and, outside any transaction block, its own commit): each
# game's conditional UPDATE (moved on only from the version the move was made on, only while playing) and the
# action-log rows of exactly the games it updated; then, per move, whether it was applied and the game as the
# statement found it. Two statements updating one game (two processes, two clicks) queue on the row lock, and the
# second finds the version moved on: it updates nothing, so of two racing moves exactly one is applied.
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
_APPLY_MOVES = "WITH " + _MOVES + _OUTCOMES
# The same with the running totals of the games those moves end (the rows ``_add_totals_many`` would upsert, each
# tagged with its game): added only for the games the statement updated and that are not hinted (read from the row
# the statement holds locked, so a hint taken at the same moment is either seen or waits), in the same statement
# and so the same commit. ``INSERT ... ON CONFLICT DO UPDATE`` is an atomic add at READ COMMITTED: a statement that
# meets a row another one is updating waits for it and adds to the committed row, so concurrent ends never lose a
# count. The rows go in key order, so two statements take their row locks in one order. A statement may not upsert
# one key twice: such a group (one player ending two games at once) takes the shared path.
_APPLY_ENDING_MOVES = (
    "WITH " + _MOVES + ", "
    "pt AS (INSERT INTO player_totals AS t (user_id, guild_id, rules_key, games, wins, scored, total_score, "
    "best_score, average, last_at) SELECT p.user_id, p.guild_id, p.rules_key, p.games, p.wins, p.scored, "
    "p.total_score, p.best_score, p.average, p.last_at FROM unnest($9::bigint[], $10::bigint[], $11::bigint[], "
    "$12::text[], $13::bigint[], $14::bigint[], $15::bigint[], $16::bigint[], $17::bigint[], "
    "$18::double precision[], $19::bigint[]) AS p(game_id, user_id, guild_id, rules_key, games, wins, scored, "
    "total_score, best_score, average, last_at) JOIN u ON u.id = p.game_id AND u.hinted = 0 "
    "ORDER BY p.user_id, p.guild_id, p.rules_key "
    "ON CONFLICT " + _DIALECT[PLAYER_TOTALS_UPSERT].split(" ON CONFLICT ", 1)[1] + "), "
    "wt AS (INSERT INTO week_totals AS w (week_end, guild_id, user_id, total, days, wins, forfeits, best, last_at) "
    "SELECT k.week_end, k.guild_id, k.user_id, k.total, 1, k.wins, k.forfeits, k.best, k.last_at "
    "FROM unnest($20::bigint[], $21::bigint[], $22::bigint[], $23::bigint[], $24::bigint[], $25::bigint[], "
    "$26::bigint[], $27::bigint[], $28::bigint[]) AS k(game_id, week_end, guild_id, user_id, total, wins, forfeits, "
    "best, last_at) JOIN u ON u.id = k.game_id AND u.hinted = 0 ORDER BY k.week_end, k.guild_id, k.user_id "
    "ON CONFLICT " + _DIALECT[WEEK_TOTALS_UPSERT].split(" ON CONFLICT ", 1)[1] + "), "
    "mt AS (INSERT INTO month_totals AS mo (month, guild_id, user_id, total, days, wins, forfeits, best, last_at) "
    "SELECT k.month, k.guild_id, k.user_id, k.total, 1, k.wins, k.forfeits, k.best, k.last_at "
    "FROM unnest($29::bigint[], $30::bigint[], $31::bigint[], $32::bigint[], $33::bigint[], $34::bigint[], "
    "$35::bigint[], $36::bigint[], $37::bigint[]) AS k(game_id, month, guild_id, user_id, total, wins, forfeits, "
    "best, last_at) JOIN u ON u.id = k.game_id AND u.hinted = 0 ORDER BY k.month, k.guild_id, k.user_id "
    "ON CONFLICT " + MONTH_TOTALS_UPSERT_PG.split(" ON CONFLICT ", 1)[1] + ")" + _OUTCOMES)
STATEMENT_RETRIES = 5  # a one-statement group chosen as a deadlock's victim is rolled back whole: run it again
# create_game in one statement (autocommit, READ COMMITTED): insert the game (and a counted daily's attempt) unless
# the player has a game running in the slot or has used the day; then the new id, the used attempt's game, and the
# running game's row. Two processes creating at the same instant both pass the checks, and the unique indexes
# decide: ``games_one_active`` (one running game per player and slot) and the key of ``daily_attempts`` (one
# counted attempt per player and day); the second insert waits for the first to commit and fails, which
# create_game reports exactly as a refused check. Parameters: user, guild, channel, kind, slot, day, rules_json,
# rules key, rules name, seed, deck, snapshot, now (us).
_START_GAME = (
    f"WITH active AS (SELECT {_GAME_COLUMNS} FROM games WHERE user_id = $1 AND slot = $5 AND status = 'playing'), "
    "used AS (SELECT game_id FROM daily_attempts WHERE $4 = 'daily' AND user_id = $1 AND day = $6), "
    "g AS (INSERT INTO games (user_id, guild_id, channel_id, kind, slot, day, rules_json, rules_key, rules_name, "
    "seed, deck, status, version, snapshot, started_at) "
    "SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'playing', 0, $12, $13 "
    "WHERE NOT EXISTS (SELECT 1 FROM active) AND NOT EXISTS (SELECT 1 FROM used) RETURNING id), "
    "a AS (INSERT INTO daily_attempts (user_id, day, game_id, created_at) SELECT $1, $6, id, $13 FROM g "
    "WHERE $4 = 'daily') "
    "SELECT (SELECT id FROM g), (SELECT game_id FROM used), active.* FROM (VALUES (1)) AS one (x) "
    "LEFT JOIN active ON true")


class _TotalsRows:
    """Stands in for a connection to ``_add_totals_many``, keeping the rows it would upsert instead: the rows of
    the totals are built by the shared code alone."""

    def __init__(self) -> None:
        self.rows: dict[str, list[tuple]] = {PLAYER_TOTALS_UPSERT: [], WEEK_TOTALS_UPSERT: [],
                                             MONTH_TOTALS_UPSERT: []}

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        self.rows[sql] += [tuple(row) for row in rows]


# Inserts whose caller reads ``cursor.lastrowid``: the generated id comes back with RETURNING.
_RETURNS_ID = re.compile(r"^\s*INSERT INTO (games|duels) ", re.IGNORECASE)


@lru_cache(maxsize=512)
def translate(sql: str) -> str:
    """The PostgreSQL text of one of the store's statements: its dialect twin, ``?`` numbered ``$1, $2, …``."""
    sql = _DIALECT.get(sql, sql)
    out, number, quoted = [], 0, False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            number += 1
            out.append(f"${number}")
        else:
            out.append(char)
    return "".join(out)


def _count(status: str) -> int:
    """Rows touched, from a command tag such as ``UPDATE 1`` or ``INSERT 0 3``."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


class _Cursor:
    __slots__ = ("lastrowid", "rowcount")

    def __init__(self, rowcount: int, lastrowid: int | None = None) -> None:
        self.rowcount = rowcount
        self.lastrowid = lastrowid


class _Connection:
    """One pooled connection inside a write transaction, answering the calls the store's bodies make
    (``execute``, ``executemany``, ``execute_fetchall``) the way aiosqlite does."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn
        self.timeout: float | None = None  # None: the pool's COMMAND_TIMEOUT

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> _Cursor:
        text, params = translate(sql), tuple(params)
        try:
            if _RETURNS_ID.match(sql):
                return _Cursor(1, await self._conn.fetchval(text + " RETURNING id", *params, timeout=self.timeout))
            return _Cursor(_count(await self._conn.execute(text, *params, timeout=self.timeout)))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise PgIntegrityError(str(exc)) from exc

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> _Cursor:
        rows = [tuple(params) for params in rows]
        if sql.lstrip().upper().startswith("INSERT"):  # pipelined in one round trip; each row is one insert
            try:
                await self._conn.executemany(translate(sql), rows)
            except asyncpg.IntegrityConstraintViolationError as exc:
                raise PgIntegrityError(str(exc)) from exc
            return _Cursor(len(rows))
        total = 0
        for params in rows:  # one by one: the caller checks how many rows the conditional updates changed
            total += (await self.execute(sql, params)).rowcount
        return _Cursor(total)

    async def execute_fetchall(self, sql: str, params: Iterable[Any] = ()) -> list:
        try:
            return await self._conn.fetch(translate(sql), *tuple(params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise PgIntegrityError(str(exc)) from exc


class PgStore(Store):
    """The store on PostgreSQL. Open with ``await PgStore.open(url)`` (or ``storage.open_store(url)``)."""

    def __init__(self, pool: asyncpg.Pool, url: str, clock: Callable[[], datetime],
                 mover: asyncpg.Pool | None = None) -> None:
        super().__init__(None, redact(url), clock)
        self._pool = pool
        # The group commits of moves have connections of their own: a move never waits in line behind reads.
        self._mover = mover
        self._flushers: set[asyncio.Task] = set()  # group commits on their way (see _commit_move)
        # The games in play as this process last read or wrote them (see _game_to_move): a move on one of them
        # at the version held here is made without reading the game again.
        self._playing: OrderedDict[int, GameRecord] = OrderedDict()

    # --- opening and closing ---------------------------------------------------------------------------
    @classmethod
    async def open(cls, url: str, *, clock: Callable[[], datetime] | None = None,
                   pool_size: int = POOL_SIZE) -> PgStore:
        """Connect to the database at ``url`` (``postgresql://user:password@host:port/name``), apply pending
        migrations and return the store. Raises ``DatabaseError`` when the server cannot be reached and
        ``SchemaTooNew`` for a database written by newer code (left untouched)."""
        shown = redact(url)
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, timeout=CONNECT_TIMEOUT,
                                             command_timeout=COMMAND_TIMEOUT, reset=_keep_session)
        except (*_UNREACHABLE, asyncpg.PostgresError, ValueError) as exc:
            raise DatabaseError(f"cannot connect to PostgreSQL at {shown}: {_reason(exc)}") from exc
        try:
            async with pool.acquire() as conn:
                await upgrade(conn, shown)
            mover = await asyncpg.create_pool(url, min_size=1, max_size=MOVE_CONNECTIONS, timeout=CONNECT_TIMEOUT,
                                              command_timeout=COMMAND_TIMEOUT, reset=_keep_session)
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, (*_UNREACHABLE, asyncpg.PostgresError)):
                raise DatabaseError(f"lost PostgreSQL at {shown} while opening: {_reason(exc)}") from exc
            raise
        return await cls(pool, url, clock or _utcnow, mover)._ready()


    # --- plumbing ----------------------------------------------------------------------------------------
    def _conn(self) -> asyncpg.Pool:
        if self._pool is None:
            raise DatabaseError("the store is closed")
        return self._pool

    async def _read(self, sql: str, params: Iterable[Any] = (), *, board: bool = False) -> list:
        try:
            return await self._conn().fetch(translate(sql), *tuple(params))
        except _UNREACHABLE as exc:
            raise DatabaseError(f"cannot reach PostgreSQL: {_reason(exc)}") from exc
        except asyncpg.PostgresError as exc:  # the server refused (out of connections, disk full, ...)
            raise DatabaseError(f"PostgreSQL refused a query: {_reason(exc)}") from exc

    async def _transaction(self, body, writes: int = 1):
        """Run ``body(db)`` in one SERIALIZABLE transaction, again from the start after a serialization
        failure (another transaction got there first). Commit on return; roll back on an exception."""
        for attempt in range(SERIALIZATION_RETRIES):
            try:
                async with self._conn().acquire(timeout=CONNECT_TIMEOUT) as conn:
                    async with conn.transaction(isolation="serializable"):
                        return await body(_Connection(conn))
            except _RETRY:
                # The first retry at once (the transaction that won has committed: the next attempt sees it), then
                # with a growing random pause when many collide.
                await asyncio.sleep(random.uniform(0, 0.002 * min(attempt, 10)) if attempt else 0)
            except _UNREACHABLE as exc:
                raise DatabaseError(f"cannot reach PostgreSQL: {_reason(exc)}") from exc
            except asyncpg.PostgresError as exc:  # constraint violations arrive as PgIntegrityError instead
                raise DatabaseError(f"PostgreSQL refused a transaction: {_reason(exc)}") from exc
        raise DatabaseError(f"a transaction kept colliding with others ({SERIALIZATION_RETRIES} attempts)")

    async def _commit_move(self, move) -> None:
        """As the SQLite store's group commit, with up to ``MOVE_CONNECTIONS`` groups on their way at once: a move
        arriving while one group commits goes out at once in the next, instead of waiting for the first to end."""
        move.future = asyncio.get_running_loop().create_future()
        self._pending.append(move)
        self._flushers = {task for task in self._flushers if not task.done()}
        if len(self._flushers) < MOVE_CONNECTIONS:
            self._flushers.add(asyncio.get_running_loop().create_task(self._flush_moves()))
        # A move on its way is committed or refused whatever happens to its caller. A caller cancelled meanwhile
        # still waits for that, then is cancelled: whoever cancelled a click finds its move decided, and a game
        # read after it shows the move if it landed.
        cancelled = False
        while not move.future.done():
            try:
                await asyncio.wait((move.future,))
            except asyncio.CancelledError:
                cancelled = True
        if cancelled or move.future.exception() is not None:
            # refused (moved on, ended elsewhere), or its caller is gone: the game is read again next time
            self._forget(move.game_id, move.expected)
        if cancelled:
            raise asyncio.CancelledError
        move.future.result()

    # --- the games in play, kept in memory -------------------------------------------------------------------
    async def _game_to_move(self, game_id: int, expected_version: int) -> GameRecord:
        """The game a move is made on: from memory when this process holds it at the version the move was made on,
        else read. Safe however stale memory is: the write is still conditional on that version (and on the game
        still being played), and a version names exactly one state, since the action log is only ever appended
        to. If another process moved or ended the game meanwhile the write changes nothing, the move is refused
        (``StaleVersion``, ``GameOver``) with the version found, and the game is forgotten: the next move reads
        it. What memory holds that may change elsewhere, the ids of the game's message, is refreshed by every
        read (a click reads the game before moving)."""
        record = self._playing.get(game_id)
        if record is not None and record.version == expected_version:
            self._playing.move_to_end(game_id)
            return record
        return await self.get_game(game_id)

    def _known(self, record: GameRecord) -> GameRecord:
        if record.status == PLAYING and not record.damaged:
            held = self._playing.get(record.id)
            if held is None or held.version <= record.version:  # never back to an older read
                self._playing[record.id] = record
                self._playing.move_to_end(record.id)
                while len(self._playing) > STATE_CACHE_SIZE:
                    self._playing.popitem(last=False)
        else:
            self._playing.pop(record.id, None)
        return record

    def _forget(self, game_id: int, version: int | None = None) -> None:
        """Drop the game from memory (only if held at ``version`` or older, when given)."""
        held = self._playing.get(game_id)
        if held is not None and (version is None or held.version <= version):
            del self._playing[game_id]

    async def _expire(self, records: list[GameRecord]) -> list[int]:
        for record in records:
            self._forget(record.id)
        return await super()._expire(records)

    async def set_message(self, game_id: int, channel_id: int | None, message_id: int | None) -> None:
        self._forget(game_id)
        await super().set_message(game_id, channel_id, message_id)

    async def abandon(self, game_id: int, user_id: int) -> GameRecord:
        self._forget(game_id)
        return await super().abandon(game_id, user_id)

    async def _start_game(self, values: tuple) -> tuple[str, Any]:
        """One statement (``_START_GAME``), one round trip and its own commit."""
        row = await self._statement(self._conn(), _START_GAME, values)
        if row[0] is not None:
            return ("new", row[0])
        if row[2] is not None:  # checked first, as the shared code does: a running daily is also a used attempt
            return ("active", tuple(row)[2:])
        if row[1] is not None:
            return ("used", row[1])
        raise DatabaseError("a new game was neither created nor refused")  # pragma: no cover - by construction

    async def _statement(self, pool: asyncpg.Pool, sql: str, args, *, many: bool = False):
        """One statement outside any transaction block (its own commit): the first row, or every row with
        ``many``. A statement chosen as a deadlock's victim was rolled back whole and is run again."""
        for attempt in range(STATEMENT_RETRIES):
            try:
                return await (pool.fetch(sql, *args) if many else pool.fetchrow(sql, *args))
            except asyncpg.DeadlockDetectedError as exc:
                if attempt == STATEMENT_RETRIES - 1:
                    raise DatabaseError(f"PostgreSQL refused a statement: {_reason(exc)}") from exc
                await asyncio.sleep(random.uniform(0, 0.002 * (attempt + 1)))
            except asyncpg.IntegrityConstraintViolationError as exc:
                raise PgIntegrityError(str(exc)) from exc
            except _UNREACHABLE as exc:
                raise DatabaseError(f"cannot reach PostgreSQL: {_reason(exc)}") from exc
            except asyncpg.PostgresError as exc:
                raise DatabaseError(f"PostgreSQL refused a statement: {_reason(exc)}") from exc
        raise AssertionError("unreachable")  # pragma: no cover

    async def close(self) -> None:
        while any(not task.done() for task in self._flushers):  # moves already submitted are committed first
            await asyncio.shield(asyncio.gather(*self._flushers, return_exceptions=True))
        await super().close()
        pool, self._pool = self._pool, None
        mover, self._mover = self._mover, None
        for each in (pool, mover):
            if each is not None:
                await each.close()

    async def _write_group(self, group, now_us: int) -> list[Exception | None]:
        """Moves in one statement (``_APPLY_MOVES``, or ``_APPLY_ENDING_MOVES`` when some end a counted game and
        their totals are kept in the same statement): one round trip and one commit for the whole group, where the
        shared path takes a SERIALIZABLE transaction of a round trip per move, run again whenever it collides. A
        group that reaches a daily past its day (to be closed instead) or upserts one totals row twice takes the
        shared path."""
        ids = [m.game_id for m in group]
        if len(set(ids)) != len(ids) or any(m.expiry is not None and now_us >= m.expiry[0] for m in group):
            return await super()._write_group(group, now_us)
        args = [ids, [m.expected for m in group], [m.code for m in group], [m.snapshot for m in group],
                [m.status for m in group], [m.score for m in group], [m.ended_us for m in group],
                [m.at_us for m in group]]
        statement = _APPLY_MOVES
        ending = [m for m in group if m.totals is not None]
        if ending:
            players, weeks, months = [], [], []
            for move in ending:
                rows = _TotalsRows()
                await _add_totals_many(rows, [move.totals])
                players += [(move.game_id, *row) for row in rows.rows[PLAYER_TOTALS_UPSERT]]
                weeks += [(move.game_id, *row) for row in rows.rows[WEEK_TOTALS_UPSERT]]
                months += [(move.game_id, *row) for row in rows.rows[MONTH_TOTALS_UPSERT]]
            if (len({row[1:4] for row in players}) != len(players)
                    or len({row[1:4] for row in weeks}) != len(weeks)
                    or len({row[1:4] for row in months}) != len(months)):
                return await super()._write_group(group, now_us)
            # Columns as the unnest lists them: player rows (game, user, guild, rules, games, wins, scored, total,
            # best, average, last); week rows (game, week_end, guild, user, total, wins, forfeits, best, last).
            args += [list(column) for column in zip(*players, strict=True)] if players else [[]] * 11
            args += [list(column) for column in zip(*weeks, strict=True)] if weeks else [[]] * 9
            args += [list(column) for column in zip(*months, strict=True)] if months else [[]] * 9  # 0012
            statement = _APPLY_ENDING_MOVES
        # A constraint violation (e.g. a stray action-log row) is PgIntegrityError: _flush_moves splits the group.
        rows = await self._statement(self._mover or self._conn(), statement, args, many=True)
        found = {row[0]: row for row in rows}
        outcomes: list[Exception | None] = []
        for move in group:
            game_id, applied, version, status = found[move.game_id]
            if applied:
                outcomes.append(None)
            elif version is None:
                outcomes.append(GameNotFound(move.game_id))
            elif status != "playing":
                outcomes.append(GameOver(move.game_id, move.expected, version, status))
            else:  # moved on, perhaps by a statement that committed while this one waited for the row
                outcomes.append(StaleVersion(move.game_id, move.expected, max(version, move.expected + 1)))
        return outcomes

    async def rebuild_totals(self) -> None:
        from .store import _without_hinted

        fills = [s for m in migrate.migrations(MIGRATIONS) for s in m.statements()
                 if "INSERT INTO player_totals" in s or "INSERT INTO week_totals" in s
                 or "INSERT INTO month_totals" in s]

        async def body(db):
            db.timeout = MIGRATION_TIMEOUT  # a repair over every game ever played may take a while
            await db.execute("DELETE FROM player_totals")
            await db.execute("DELETE FROM week_totals")
            await db.execute("DELETE FROM month_totals")
            for sql in fills:
                await db.execute(_without_hinted(sql))

        await self._write(body)

    # --- operations --------------------------------------------------------------------------------------
    async def integrity_check(self) -> str:
        """"ok" when every game's action log holds exactly moves 1…version; otherwise one line per game that
        does not (PostgreSQL checks its own pages; this checks what the bot relies on)."""
        rows = await self._read(
            "SELECT g.id, g.version, count(a.seq), coalesce(max(a.seq), 0) FROM games g "
            "LEFT JOIN game_actions a ON a.game_id = g.id GROUP BY g.id, g.version "
            "HAVING count(a.seq) <> g.version OR coalesce(max(a.seq), 0) <> g.version ORDER BY g.id")
        return "\n".join(f"game {r[0]}: version {r[1]}, log of {r[2]} moves up to {r[3]}" for r in rows) or "ok"

    async def backup(self, target) -> None:
        raise DatabaseError("back up a PostgreSQL database with pg_dump (or copy it with `python -m bot copy-db`)")


async def _keep_session(conn: asyncpg.Connection) -> None:
    """A connection going back to the pool is reused as it is. asyncpg's default reset sends ``RESET ALL``, ``CLOSE
    ALL``, ``UNLISTEN *`` and ``pg_advisory_unlock_all()`` on every release, a second round trip for every query;
    the store leaves nothing of that kind behind (no session settings, cursors, listeners; the migration lock is
    released where it is taken). An open transaction is still rolled back by the pool before this is called."""


def _reason(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


# --- migrations ---------------------------------------------------------------------------------------------

async def schema_version(conn: asyncpg.Connection) -> int:
    """The applied schema version (0 for an empty database)."""
    if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
        return 0
    return await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version")


async def upgrade(conn: asyncpg.Connection, shown: str, target: int | None = None) -> int:
    """Bring the database to ``target`` (default: the latest), one transaction per migration, one process at a
    time (an advisory lock). A database newer than the code is refused before anything is written."""
    steps = migrate.migrations(MIGRATIONS)
    known = steps[-1].version if steps else 0
    target = known if target is None else target
    migrate.check_version(await schema_version(conn), shown, known)
    await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
    try:
        current = await schema_version(conn)
        migrate.check_version(current, shown, known)
        for migration in steps:
            if migration.version <= current or migration.version > target:
                continue
            try:
                async with conn.transaction():
                    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                                       "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)")
                    await conn.execute(migration.sql, timeout=MIGRATION_TIMEOUT)
                    await conn.execute("INSERT INTO schema_version (version, name, applied_at) "
                                       "VALUES ($1, $2, (extract(epoch FROM clock_timestamp()) * 1e6)::bigint)",
                                       migration.version, migration.name)
            except asyncpg.PostgresError as exc:
                raise DatabaseError(f"{shown}: migration {migration.name} failed: {exc}") from exc
            current = migration.version
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)
    return current


__all__ = ["PgStore", "redact", "schema_version", "translate", "upgrade"]
