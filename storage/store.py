"""``Store``: the one place that talks to the database (SQLite through aiosqlite).

Durability and concurrency, in short:

* One long-lived connection per ``Store`` (opened in ``Bot.setup_hook``, closed on shutdown), WAL mode,
  ``busy_timeout`` 5 s, foreign keys on; an ``asyncio.Lock`` keeps one transaction at a time on it. Every write
  is one ``BEGIN IMMEDIATE`` transaction: the write lock is taken up front, so two processes never deadlock
  upgrading a read lock to a write lock. Two more private connections of the same ``Store`` take load off it
  (see ``Store.open``): one runs WAL checkpoints in the background so no click waits behind a checkpoint, and a
  read-only one serves plain reads, which under WAL never wait for the writer's fsync.
* ``synchronous=FULL``. In WAL mode NORMAL already survives the *process* being killed at any instant (a commit
  is in the WAL file, i.e. in the OS, before ``COMMIT`` returns); what NORMAL gives up is the last few commits on
  a power cut or kernel crash, because the WAL is only fsynced at checkpoints. The promise here is "nothing a
  player did is ever lost", and a move is acknowledged to the player only after its commit, so a commit must be
  on disk: FULL fsyncs the WAL on every commit. It costs about a quarter of a millisecond per move on this
  machine's disk (see benchmarks/storage_bench.py), far inside Discord's 3 s answer window.
* A move (``play``) is optimistic: load the game, let the engine apply the action, then in one transaction
  ``UPDATE games … WHERE id = ? AND version = ? AND status = 'playing'`` and append the action with primary key
  ``(game_id, seq)``. If the update changes no row another click (in this process or any other) got there
  first and ``StaleVersion`` carries the version that won. Acknowledged = committed. Moves that arrive while a
  commit is being flushed are committed together in the next transaction (group commit: each still checked and
  written on its own version), so under load the fsyncs are shared instead of queued.
* The action log is the truth; ``games.snapshot`` is a cache (and parsed states are cached in memory, keyed by
  the row's version and exact snapshot text). A game whose snapshot is unreadable is rebuilt
  from rules + deck + seed + log; if that fails too the game alone is ``CorruptGame`` (its record can still be
  abandoned) and every other game plays on.
* Write transactions run shielded from task cancellation, so a cancelled interaction never leaves the shared
  connection inside an open transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import sqlite3
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any

import aiosqlite

from bot.daily import day_end
from bot.engine import (
    PRESETS,
    Action,
    Card,
    Rules,
    SnapshotError,
    State,
    apply,
    deck_codes,
    decode,
    forfeit_score,
    from_json,
    new_game,
    new_seed,
    parse_deck,
    replay,
    to_json,
)

from . import migrate
from .backup import backup as copy_database
from .day_counts import DayCounts
from .errors import (
    ActiveGameExists,
    AttemptAlreadyUsed,
    CorruptGame,
    DatabaseError,
    DayOver,
    GameNotFound,
    GameOver,
    NotYourGame,
    StaleVersion,
)
from .maintenance import JOURNAL_SIZE_LIMIT
from .models import (
    ABANDONED,
    DAILY,
    NORMAL,
    PLAYING,
    PRACTICE,
    SLOTS,
    WON,
    AllTimeEntry,
    DailyChallenge,
    DailyEntry,
    GameRecord,
    GuildSettings,
    RulesStats,
    UserStats,
    WeekEntry,
    from_micros,
    hhmm_to_time,
    slot_of,
    time_to_hhmm,
    to_micros,
)
from .months import MONTH_TOTALS_UPSERT, MonthBoards, month_rows
from .reminders import Reminders

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
STATE_CACHE_SIZE = 2048  # parsed game states kept in memory (a cache; the database is the truth)
CHECKPOINT_EVERY = 100  # writes (moves or other transactions) between background WAL checkpoints
BACKSTOP_CHECKPOINT_PAGES = 10000  # SQLite's automatic checkpoint, should the background one fall behind
READ_CONNECTIONS = 2  # read-only connections for game loads, and as many again for boards and stats
ALL_GUILDS = 0  # player_totals.guild_id for "every server"
ALL_RULES = "*"  # player_totals.rules_key for "every rule set"
DAILIES = "daily"  # player_totals.rules_key for "counted dailies only" (the all-time daily board)
WEEK_DAYS = 7
DAILY_SECRET = "daily"

_GAME_COLUMNS = ("id, user_id, guild_id, channel_id, message_id, kind, day, rules_json, seed, deck, version, status, "
                 "score, started_at, ended_at, snapshot, ended_by")
_PRESET_BY_KEY = {rules.key: name for name, rules in PRESETS.items()}


def _utcnow() -> datetime:
    return datetime.now(UTC)


def rules_name(rules_key: str) -> str:
    return _PRESET_BY_KEY.get(rules_key, "custom")


class Store(MonthBoards, Reminders, DayCounts):
    """Async access to the bot's database. Open with ``await Store.open(path)``; ``await store.close()``."""

    def __init__(self, db: aiosqlite.Connection, path: str, clock: Callable[[], datetime],
                 checkpointer: aiosqlite.Connection | None = None, checkpoint_every: int = CHECKPOINT_EVERY,
                 readers: list[aiosqlite.Connection] | None = None,
                 board_readers: list[aiosqlite.Connection] | None = None) -> None:
        self._db = db
        # Reads that need not wait behind a commit's fsync (WAL: readers never block): game loads on their own
        # connections, boards and stats on others, so a click's load never queues behind a board.
        self._reader = _ReadPool(readers) if readers else None
        self._board_reader = _ReadPool(board_readers) if board_readers else self._reader
        self.path = path
        self._clock = clock
        self._lock = asyncio.Lock()  # one transaction at a time on the shared connection
        self._checkpointer = checkpointer
        self._checkpoint_every = checkpoint_every
        self._writes = 0  # since the last checkpoint
        self._checkpoint_task: asyncio.Task | None = None
        self._pending: list[_Move] = []  # moves waiting for the next group commit
        # Parsed states of recently used games, keyed by id and checked against the row's version and exact
        # snapshot text: a hit saves parsing the snapshot on every click, and can never serve a state the
        # database does not hold (a changed or damaged snapshot is simply a miss).
        self._states: OrderedDict[int, tuple[int, str, State]] = OrderedDict()
        self._flusher: asyncio.Task | None = None

    # --- opening and closing ---------------------------------------------------------------------------
    @classmethod
    async def open(cls, path: str | os.PathLike, *, clock: Callable[[], datetime] | None = None,
                   synchronous: str = "FULL", checkpoint_every: int | None = CHECKPOINT_EVERY,
                   separate_reads: bool = True, read_connections: int = READ_CONNECTIONS) -> Store:
        """Open (creating or upgrading) the database at ``path``.

        ``clock`` returns the current aware UTC time (default: the system clock; the bot may pass
        ``bot.clock.now`` so tests under a virtual clock agree). Raises ``SchemaTooNew`` for a database written
        by newer code and ``DatabaseError`` for a file that is not a usable SQLite database.

        Checkpoints (copying the WAL back into the database file, with an fsync) would otherwise run inside
        whichever commit crosses 1000 WAL pages, stalling every click queued behind it for tens of milliseconds.
        A second connection checkpoints in the background after every ``checkpoint_every`` writes instead (PASSIVE:
        it never blocks the writer); SQLite's own automatic checkpoint stays on as a backstop at a larger size.
        ``checkpoint_every=None`` keeps SQLite's default behaviour. (No timer: an idle store has no task running,
        which the bot's virtual-clock tests rely on.)

        Plain reads go through read-only connections when ``separate_reads`` is true: under WAL a reader sees every
        transaction committed before its query starts and never waits for the writer, so a click's ``load_game`` is
        not queued behind another click's fsync. Two pools of ``read_connections`` each: one for game loads, one for
        boards and stats, so a click's load never waits behind a board. Reads made inside a write transaction use
        the writer's connection.

        Counted dailies given up before forfeits were scored get their forfeit score here, once.
        """
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        path = str(path)
        await asyncio.to_thread(_prepare, path)
        try:
            db = await aiosqlite.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        except sqlite3.Error as exc:
            raise DatabaseError(f"cannot open the database {path}: {exc}") from exc
        checkpointer = None
        readers: list[aiosqlite.Connection] = []
        try:
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            await db.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT:d}")  # the WAL shrinks back
            version = (await _fetchone(db, "PRAGMA user_version"))[0]
            migrate.check_version(version, path)
            if version != migrate.latest_version():  # pragma: no cover - _prepare just upgraded it
                raise DatabaseError(f"{path} is at schema version {version} after upgrading")
            checkpointer = None
            if checkpoint_every is not None:
                await db.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP_CHECKPOINT_PAGES:d}")
                checkpointer = await aiosqlite.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
                await checkpointer.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
                await checkpointer.execute(f"PRAGMA synchronous = {synchronous.upper()}")
                await checkpointer.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT:d}")
            for _ in range(2 * max(1, read_connections) if separate_reads else 0):
                reader = await aiosqlite.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
                readers.append(reader)
                await reader.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
                await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            for extra in (checkpointer, *readers):
                if extra is not None:
                    await extra.close()
            await db.close()
            raise
        half = len(readers) // 2
        store = cls(db, path, clock or _utcnow, checkpointer, checkpoint_every or CHECKPOINT_EVERY, readers[:half],
                    readers[half:])
        return await store._ready()

    async def _ready(self):
        """Last step of opening (any backend): score old forfeits; a failure closes the store again."""
        try:
            await self._score_old_forfeits()
        except BaseException:
            await self.close()
            raise
        return self

    async def close(self) -> None:
        while self._flusher is not None and not self._flusher.done():
            await asyncio.shield(self._flusher)  # moves already submitted are committed first
        task, self._checkpoint_task = self._checkpoint_task, None
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        checkpointer, self._checkpointer = self._checkpointer, None
        if checkpointer is not None:
            await checkpointer.close()
        pools = {id(p): p for p in (self._reader, self._board_reader) if p is not None}
        self._reader = self._board_reader = None
        for pool in pools.values():
            await pool.close()
        async with self._lock:
            db, self._db = self._db, None
            if db is not None:
                await db.close()  # the last connection to close checkpoints the WAL into the file

    def _wrote(self, count: int = 1) -> None:
        """Count committed writes; start a background checkpoint when enough have gathered in the WAL."""
        self._writes += count
        if self._checkpointer is None or self._writes < self._checkpoint_every:
            return
        if self._checkpoint_task is not None and not self._checkpoint_task.done():
            return
        self._writes = 0
        self._checkpoint_task = asyncio.get_running_loop().create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        try:
            await self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except (sqlite3.Error, ValueError) as exc:  # pragma: no cover - the backstop checkpoint still runs
            log.warning("background checkpoint failed: %s", exc)

    # --- plumbing ----------------------------------------------------------------------------------------
    def now(self) -> datetime:
        moment = self._clock()
        if moment.tzinfo is None or moment.utcoffset() is None:
            raise ValueError("the store's clock must return timezone-aware datetimes")
        return moment.astimezone(UTC)

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise DatabaseError("the store is closed")
        return self._db

    async def _read(self, sql: str, params: Iterable[Any] = (), *, board: bool = False) -> list[sqlite3.Row]:
        """One query outside any transaction: on a read connection (no waiting for writes), else the writer's.
        ``board``: a board or stats query, on the boards' connections (never in a click's way)."""
        pool = self._board_reader if board else self._reader
        if pool is not None:
            return await pool.fetchall(sql, params)
        async with self._lock:
            return await _fetchall(self._conn(), sql, params)

    async def _write(self, body: Callable[[aiosqlite.Connection], Awaitable[Any]]) -> Any:
        """Run ``body(db)`` in one BEGIN IMMEDIATE transaction; commit on return, roll back on an exception.

        Shielded: a cancelled caller does not cut the transaction in half; it finishes (or rolls back) anyway.
        """
        return await asyncio.shield(self._transaction(body))

    async def _transaction(self, body, writes: int = 1):
        async with self._lock:
            db = self._conn()
            if db.in_transaction:  # pragma: no cover - defensive: never left open by this class
                await db.execute("ROLLBACK")
            await db.execute("BEGIN IMMEDIATE")
            try:
                result = await body(db)
                await db.execute("COMMIT")  # a failed COMMIT (disk full, I/O error) is rolled back below
            except BaseException:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise
            self._wrote(writes)
            return result

    # --- games -------------------------------------------------------------------------------------------
    async def create_game(self, user_id: int, guild_id: int | None, channel_id: int | None, rules: Rules | None = None,
                          seed: int | None = None, deck: tuple[Card, ...] | str | None = None,
                          kind: str = NORMAL, *, day: int | None = None) -> GameRecord:
        """Start a game: from ``deck`` (cards or codes) if given, else from ``seed`` (a new random seed if None).

        ``kind`` is ``normal``, ``daily`` (the counted attempt at ``day``: at most one per user and day, else
        ``AttemptAlreadyUsed``) or ``practice`` (a daily replayed, never counted). One active game per user per
        slot (``normal``; ``daily`` for daily and practice): otherwise ``ActiveGameExists`` carrying that game.
        """
        rules = Rules() if rules is None else rules
        slot = slot_of(kind)
        if kind != NORMAL and day is None:
            raise ValueError(f"a {kind} game needs its day")
        if kind == NORMAL and day is not None:
            raise ValueError("a normal game has no day")
        if isinstance(deck, str):
            deck = parse_deck(deck, rules.full_deck())
        if deck is None and seed is None:
            seed = new_seed()
        state = new_game(rules, seed=seed, deck=deck)
        codes = deck_codes(state.start_deck)
        rules_json = json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"))
        snapshot = to_json(state)
        now = self.now()
        now_us = to_micros(now)

        values = (user_id, guild_id, channel_id, kind, slot, day, rules_json, rules.key, rules.name, seed, codes,
                  snapshot, now_us)
        try:
            outcome, value = await self._start_game(values)
        except sqlite3.IntegrityError:
            # Only reachable if the checks were bypassed (SQLite runs them under the write lock; on PostgreSQL a
            # game created at the same instant in another process): report as they do.
            active = await self.active_game(user_id, slot)
            if active is not None:
                raise ActiveGameExists(active) from None
            raise AttemptAlreadyUsed(user_id, day) from None
        if outcome == "active":
            raise ActiveGameExists(await self._record(value))
        if outcome == "used":
            raise AttemptAlreadyUsed(user_id, day, value)
        self._remember(value, 0, snapshot, state)
        return self._known(GameRecord(id=value, user_id=user_id, guild_id=guild_id, channel_id=channel_id,
                                      message_id=None, kind=kind, day=day, rules=rules, seed=seed, version=0,
                                      status=PLAYING, score=None, started_at=from_micros(now_us), ended_at=None,
                                      deck=codes, _state=state))

    async def _start_game(self, values: tuple) -> tuple[str, Any]:
        """Insert a new game unless the player has one running in the slot or (a counted daily) has used the day:
        ("new", id), ("active", the running game's row) or ("used", the attempt's game id). ``values``: user,
        guild, channel, kind, slot, day, rules_json, rules key, rules name, seed, deck codes, snapshot, now (us)."""
        user_id, _, _, kind, slot, day, *_, now_us = values

        async def body(db):
            active = await _fetchone(db, f"SELECT {_GAME_COLUMNS} FROM games WHERE user_id = ? AND slot = ? "
                                         "AND status = 'playing'", (user_id, slot))
            if active is not None:
                return ("active", active)
            if kind == DAILY:
                used = await _fetchone(db, "SELECT game_id FROM daily_attempts WHERE user_id = ? AND day = ?",
                                       (user_id, day))
                if used is not None:
                    return ("used", used[0])
            cursor = await db.execute(
                "INSERT INTO games (user_id, guild_id, channel_id, kind, slot, day, rules_json, rules_key, rules_name,"
                " seed, deck, status, version, snapshot, started_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,'playing',0,?,?)",
                values)
            game_id = cursor.lastrowid
            if kind == DAILY:
                await db.execute("INSERT INTO daily_attempts (user_id, day, game_id, created_at) VALUES (?,?,?,?)",
                                 (user_id, day, game_id, now_us))
            return ("new", game_id)

        return await self._write(body)

    async def active_game(self, user_id: int, slot: str = NORMAL) -> GameRecord | None:
        """The user's game in progress in ``slot`` (``normal`` or ``daily``; ``practice`` means ``daily``).

        A damaged game is still returned (its ``state`` raises ``CorruptGame``) so it can be abandoned.
        """
        slot = slot_of(slot) if slot not in SLOTS else slot
        rows = await self._read(f"SELECT {_GAME_COLUMNS} FROM games WHERE user_id = ? AND slot = ? "
                                "AND status = 'playing'", (user_id, slot))
        return await self._record(rows[0]) if rows else None

    async def active_games(self, user_id: int) -> list[GameRecord]:
        rows = await self._read(f"SELECT {_GAME_COLUMNS} FROM games WHERE user_id = ? AND status = 'playing' "
                                "ORDER BY slot", (user_id,))
        return [await self._record(row) for row in rows]

    async def load_game(self, game_id: int) -> GameRecord:
        """The game as stored now. Raises ``GameNotFound``, or ``CorruptGame`` if its data is damaged."""
        record = await self.get_game(game_id)
        record.state  # noqa: B018 - raises CorruptGame for a damaged game
        return record

    async def get_game(self, game_id: int) -> GameRecord:
        """Like ``load_game`` but a damaged game comes back as a record (``damaged`` true) instead of raising."""
        rows = await self._read(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        return await self._record(rows[0])

    async def game_actions(self, game_id: int) -> list[str]:
        """The game's action log as codes, in order (the truth the state is rebuilt from)."""
        rows = await self._read("SELECT code FROM game_actions WHERE game_id = ? ORDER BY seq", (game_id,))
        return [row[0] for row in rows]

    async def play(self, game_id: int, user_id: int, expected_version: int, action: Action | str) -> GameRecord:
        """Apply ``action`` to the game if it is still at ``expected_version``; returns the new record.

        Raises ``GameNotFound``, ``NotYourGame``, ``StaleVersion`` (another move landed first; ``GameOver``, a
        subclass, when the game has ended), ``CorruptGame``, or the engine's ``IllegalAction`` unchanged.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        record = await self._game_to_move(game_id, expected_version)
        if record.user_id != user_id:
            raise NotYourGame(game_id, user_id)
        if record.status != PLAYING:
            raise GameOver(game_id, expected_version, record.version, record.status)
        if record.version != expected_version:
            raise StaleVersion(game_id, expected_version, record.version)
        deadline_us = to_micros(day_end(record.day)) if record.kind != NORMAL else None
        if deadline_us is not None and to_micros(self.now()) >= deadline_us:
            await self._expire([record])
            raise DayOver(game_id, expected_version, record.day)
        state = apply(record.state, action)  # CorruptGame / IllegalAction propagate
        version = expected_version + 1
        status = state.status if state.over else PLAYING
        score = state.score if state.over else None
        now_us = to_micros(self.now())
        ended_us = now_us if state.over else None
        snapshot = to_json(state)
        totals = None
        if state.over and record.kind != PRACTICE:  # a hinted game is left out by the commit, which reads the flag
            totals = (user_id, record.guild_id, record.rules.key, status, score, now_us, record.kind, record.day,
                      False)
        expiry = None
        if deadline_us is not None:  # checked again at commit time: the day may end while the move queues
            expiry = (deadline_us, record.day, *_forfeit(record))
        await self._commit_move(_Move(game_id, expected_version, action.code, snapshot, status, score, now_us,
                                      ended_us, totals, expiry))
        self._remember(game_id, version, snapshot, state)
        return self._known(GameRecord(id=game_id, user_id=user_id, guild_id=record.guild_id,
                                      channel_id=record.channel_id, message_id=record.message_id, kind=record.kind,
                                      day=record.day, rules=record.rules, seed=record.seed, version=version,
                                      status=status, score=score, started_at=record.started_at,
                                      ended_at=from_micros(ended_us), deck=record.deck, _state=state))

    async def _game_to_move(self, game_id: int, expected_version: int) -> GameRecord:
        """The game a move is about to be made on, as stored (``PgStore`` may answer from memory instead)."""
        return await self.get_game(game_id)

    def _known(self, record: GameRecord) -> GameRecord:
        """Every record read or written by this store passes here (``PgStore`` keeps the games in play)."""
        return record

    async def _commit_move(self, move: _Move) -> None:
        """Queue a move for the next group commit and wait until it is committed (or refused).

        Moves arriving while a commit is on its way to disk are written together in the next transaction: one
        BEGIN IMMEDIATE, one fsync and a handful of statements for the whole group, so under load the database
        keeps up with any number of players. Each move is still checked and written with its own conditional
        UPDATE; a move is acknowledged (its caller returns) only after the COMMIT that holds it.
        """
        move.future = asyncio.get_running_loop().create_future()
        self._pending.append(move)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush_moves())
        await move.future

    async def _flush_moves(self) -> None:
        while self._pending:
            group, self._pending = self._pending, []
            try:
                now_us = to_micros(self.now())
                outcomes = await self._write_group(group, now_us)
            except Exception as exc:  # noqa: BLE001 - one bad move must not sink the others: retry one by one
                if len(group) == 1:
                    outcomes = [_move_error(group[0], exc)]
                else:
                    log.warning("a group of %d moves failed (%r); writing them one by one", len(group), exc)
                    outcomes = []
                    for move in group:
                        try:
                            outcomes += await self._transaction(
                                lambda db, move=move: _write_moves(db, [move], to_micros(self.now())))
                        except Exception as single:  # noqa: BLE001
                            outcomes.append(_move_error(move, single))
            except BaseException as exc:  # cancelled (the store is closing): nothing of the group was committed
                for move in group:
                    if not move.future.done():
                        move.future.set_exception(exc if isinstance(exc, Exception) else DatabaseError("closing"))
                raise
            for move, outcome in zip(group, outcomes, strict=True):
                if move.future.done():  # the caller went away; the outcome stands
                    continue
                if outcome is None:
                    move.future.set_result(None)
                else:
                    move.future.set_exception(outcome)

    async def _write_group(self, group: list[_Move], now_us: int) -> list[Exception | None]:
        """One transaction for a group of moves; per move, None (written) or the exception its caller gets."""
        return await self._transaction(lambda db: _write_moves(db, group, now_us), len(group))

    async def abandon(self, game_id: int, user_id: int) -> GameRecord:
        """End a game in progress as ``abandoned`` (works on a damaged game too); ``ended_by`` is ``abandoned``.

        An abandoned game counts as played and not won. A counted daily that is abandoned has used its attempt
        and gets its forfeit score (``bot.engine.forfeit_score``: no better than dying there), so it stays on the
        boards; other games have no score. If the game has already ended it is returned unchanged.
        """
        for _ in range(5):  # a move landing between the read and the write changes the forfeit: read again
            record = await self.get_game(game_id)
            if record.user_id != user_id:
                raise NotYourGame(game_id, user_id)
            if record.status != PLAYING:
                return record
            score, totals = _forfeit(record)
            now_us = to_micros(self.now())

            async def body(db, record=record, score=score, totals=totals, now_us=now_us):
                cursor = await db.execute(
                    "UPDATE games SET status = 'abandoned', ended_by = 'abandoned', score = ?, ended_at = ? "
                    "WHERE id = ? AND status = 'playing' AND version = ?", (score, now_us, game_id, record.version))
                if cursor.rowcount != 1:
                    return False
                hinted = (await _fetchone(db, "SELECT hinted FROM games WHERE id = ?", (game_id,)))[0]
                if totals is not None and not hinted:  # counted: normal games and counted dailies, unhinted
                    rules_key = totals[2] or await _rules_key(db, game_id)
                    await _add_totals(db, user_id, record.guild_id, rules_key, ABANDONED, score, now_us, record.kind,
                                      record.day, forfeit=True)
                return True

            if await self._write(body):
                break
        return await self.get_game(game_id)

    async def expire_dailies(self, today: int) -> list[GameRecord]:
        """Close every daily and practice game still running on a day before ``today`` (status ``abandoned``,
        ended_by ``expired``, a counted daily scored by its forfeit); returns the closed records."""
        rows = await self._read("SELECT id FROM games WHERE status = 'playing' AND kind <> 'normal' AND day < ?",
                                (today,))
        records = [await self.get_game(row[0]) for row in rows]
        closed = await self._expire(records)
        return [await self.get_game(game_id) for game_id in closed]

    async def _score_old_forfeits(self) -> None:
        """Counted dailies given up before forfeits were scored (schema < 7) get their forfeit score and join the
        totals and boards. Runs when the store opens; finds nothing once done (``games_forfeit_unscored``)."""
        rows = await self._read(f"SELECT {_GAME_COLUMNS} FROM games "
                                "WHERE kind = 'daily' AND status = 'abandoned' AND score IS NULL")
        records = [record for record in [await self._record(row) for row in rows] if not record.damaged]
        if not records:
            return

        async def body(db):
            scored = []
            for record in records:
                score = forfeit_score(record.state)
                cursor = await db.execute("UPDATE games SET score = ? WHERE id = ? AND score IS NULL",
                                          (score, record.id))
                if cursor.rowcount == 1:
                    at_us = to_micros(record.ended_at or record.started_at)
                    scored.append((record.user_id, record.guild_id, record.rules.key, ABANDONED, score, at_us, DAILY,
                                   record.day, True))
            await _add_totals_many(db, scored, new=False)
            return len(scored)

        log.info("scored %d counted dailies given up before forfeits were scored", await self._write(body))

    async def _expire(self, records: list[GameRecord]) -> list[int]:
        """Close these daily/practice games as expired at the end of their day; the ids actually closed."""
        plans = [(r.id, *_forfeit(r), to_micros(day_end(r.day))) for r in records if r.day is not None]

        async def body(db):
            done = []
            for game_id, score, totals, deadline_us in plans:
                if await _close_expired(db, game_id, score, deadline_us, totals):
                    done.append(game_id)
            return done

        return await self._write(body) if plans else []

    async def set_message(self, game_id: int, channel_id: int | None, message_id: int | None) -> None:
        """Remember the message that shows the game (and its channel)."""

        async def body(db):
            cursor = await db.execute("UPDATE games SET channel_id = ?, message_id = ? WHERE id = ?",
                                      (channel_id, message_id, game_id))
            if cursor.rowcount != 1:
                raise GameNotFound(game_id)

        await self._write(body)

    async def recent_games(self, user_id: int, limit: int = 10) -> list[GameRecord]:
        """The user's latest games, newest first (any kind and status)."""
        rows = await self._read(f"SELECT {_GAME_COLUMNS} FROM games WHERE user_id = ? "
                                "ORDER BY started_at DESC, id DESC LIMIT ?", (user_id, limit), board=True)
        return [await self._record(row) for row in rows]

    async def _record(self, row: sqlite3.Row) -> GameRecord:
        """A record from a games row: state from the snapshot, else replayed from the log, else damaged."""
        (game_id, user_id, guild_id, channel_id, message_id, kind, day, rules_json, seed, deck, version, status,
         score, started_at, ended_at, snapshot, ended_by) = row
        rules = state = None
        damage = None
        try:
            rules = Rules.from_dict(json.loads(rules_json))
        except Exception as exc:  # noqa: BLE001 - any damage to one row stays with that row
            damage = f"unreadable rules: {exc!r}"
        cached = self._states.get(game_id)
        if rules is not None and cached is not None and cached[0] == version and cached[1] == snapshot \
                and cached[2].rules == rules:
            state = cached[2]
            self._states.move_to_end(game_id)
        elif rules is not None:
            state, snapshot_problem = _from_snapshot(snapshot, rules, deck, version)
            if state is not None:
                self._remember(game_id, version, snapshot, state)
            else:
                state, damage = await self._replay(game_id, rules, deck, seed, version)
                if state is not None and snapshot is not None:  # a finished game's is pruned by maintenance
                    log.warning("game %s: snapshot unusable (%s); rebuilt from its action log", game_id,
                                snapshot_problem)
        if state is None:
            log.error("game %s is damaged: %s", game_id, damage)
        try:
            started = from_micros(started_at)
            ended = from_micros(ended_at)
        except (TypeError, OverflowError, ValueError):
            started, ended = from_micros(0), None
            damage, state = damage or "unreadable times", None
        return self._known(GameRecord(id=game_id, user_id=user_id, guild_id=guild_id, channel_id=channel_id,
                                      message_id=message_id, kind=kind, day=day, rules=rules, seed=seed,
                                      version=version, status=status, score=score, started_at=started, ended_at=ended,
                                      deck=deck or "", damage=damage, ended_by=ended_by, _state=state))

    def _remember(self, game_id: int, version: int, snapshot: str, state: State) -> None:
        self._states[game_id] = (version, snapshot, state)
        self._states.move_to_end(game_id)
        while len(self._states) > STATE_CACHE_SIZE:
            self._states.popitem(last=False)

    async def _replay(self, game_id: int, rules: Rules, deck: str, seed: int | None,
                      version: int) -> tuple[State | None, str | None]:
        rows = await self._read("SELECT seq, code FROM game_actions WHERE game_id = ? AND seq <= ? ORDER BY seq",
                                (game_id, version))
        try:
            if [r[0] for r in rows] != list(range(1, version + 1)):
                return None, f"the action log has {len(rows)} of {version} moves"
            cards = parse_deck(deck, rules.full_deck())
            state = replay(rules, cards, decode(" ".join(r[1] for r in rows)), seed=seed)
        except Exception as exc:  # noqa: BLE001 - IllegalAction, CardParseError, ActionParseError, TypeError, ...
            return None, f"snapshot damaged and the action log does not replay: {exc!r}"
        return state, None

    # --- the daily challenge -----------------------------------------------------------------------------
    async def daily_secret(self) -> bytes:
        """The secret the daily deals are derived from: 32 random bytes made on first use, then kept."""

        async def body(db):
            cursor = await db.execute("INSERT OR IGNORE INTO bot_secrets (name, value) VALUES (?, ?)",
                                      (DAILY_SECRET, secrets.token_bytes(32)))
            if cursor.rowcount and await _fetchone(db, "SELECT 1 FROM daily_challenges LIMIT 1"):
                # e.g. an ordinary backup (made without the secret) copied into place by hand
                log.warning("the daily secret was missing from a database that has dailies; a new one was made, "
                            "so today's and later daily deals differ from the old secret's "
                            "(docs/OPERATIONS.md, Restoring)")
            return (await _fetchone(db, "SELECT value FROM bot_secrets WHERE name = ?", (DAILY_SECRET,)))[0]

        return bytes(await self._write(body))

    async def get_daily(self, day: int) -> DailyChallenge | None:
        rows = await self._read("SELECT day, seed, rules_json, par, par_line, created_at FROM daily_challenges "
                                "WHERE day = ?", (day,))
        return _daily(rows[0]) if rows else None

    async def put_daily(self, day: int, seed: int, rules: Rules | None = None, par: int | None = None,
                        par_line: str | None = None) -> DailyChallenge:
        """Record the day's deal (first writer wins: an existing day keeps its seed and rules) and return the
        stored challenge. ``par``/``par_line`` fill in a par not known yet (``set_daily_par`` overwrites)."""
        rules = Rules() if rules is None else rules
        rules_json = json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"))
        now_us = to_micros(self.now())

        async def body(db):
            await db.execute(
                "INSERT INTO daily_challenges (day, seed, rules_json, rules_key, par, par_line, created_at) "
                "VALUES (?,?,?,?,?,?,?) ON CONFLICT (day) DO UPDATE SET "
                "par = coalesce(daily_challenges.par, excluded.par), "
                "par_line = CASE WHEN daily_challenges.par IS NULL THEN excluded.par_line "
                "ELSE daily_challenges.par_line END",
                (day, seed, rules_json, rules.key, par, par_line, now_us))
            return await _fetchone(db, "SELECT day, seed, rules_json, par, par_line, created_at "
                                       "FROM daily_challenges WHERE day = ?", (day,))

        return _daily(await self._write(body))

    async def set_daily_par(self, day: int, par: int, par_line: str | None = None) -> None:
        async def body(db):
            cursor = await db.execute("UPDATE daily_challenges SET par = ?, par_line = ?, par_owner = NULL, "
                                      "par_lease_until = NULL WHERE day = ?", (par, par_line, day))
            if cursor.rowcount != 1:
                raise KeyError(f"daily {day} has not been recorded")

        await self._write(body)

    async def claim_daily_par(self, day: int, owner: str, lease: timedelta) -> bool:
        """Take (or renew) the lease on solving the par of ``day`` (recorded with ``put_daily``): true if ``owner``
        should solve it now. False once the par is stored, or while another owner's lease runs; a lease that ran
        out (its process died mid-solve) can be taken. Exactly one of several processes racing gets true."""
        now_us = to_micros(self.now())
        until_us = to_micros(self.now() + lease)

        async def body(db):
            row = await _fetchone(db, "SELECT par, par_owner, par_lease_until FROM daily_challenges WHERE day = ?",
                                  (day,))
            if row is None:
                raise KeyError(f"daily {day} has not been recorded")
            par, holder, lease_until = row
            if par is not None:
                return False
            if holder is not None and holder != owner and lease_until is not None and lease_until > now_us:
                return False
            await db.execute("UPDATE daily_challenges SET par_owner = ?, par_lease_until = ? WHERE day = ?",
                             (owner, until_us, day))
            return True

        return await self._write(body)

    async def release_daily_par(self, day: int, owner: str) -> None:
        """``owner`` gave up solving the par of ``day`` (the solve failed): another process may try at once."""
        async def body(db):
            await db.execute("UPDATE daily_challenges SET par_owner = NULL, par_lease_until = NULL "
                             "WHERE day = ? AND par_owner = ?", (day, owner))

        await self._write(body)

    async def daily_attempt(self, user_id: int, day: int) -> GameRecord | None:
        """The user's counted attempt at ``day`` (any status), or None."""
        rows = await self._read("SELECT game_id FROM daily_attempts WHERE user_id = ? AND day = ?", (user_id, day))
        return await self.get_game(rows[0][0]) if rows else None

    async def daily_results(self, day: int, guild_id: int | None = None,
                            limit: int | None = None) -> list[DailyEntry]:
        """Every counted attempt at ``day`` (played in ``guild_id`` if given; the first ``limit`` if given): scored
        results first in board order (forfeits after deaths of the same score), then the attempts still being
        played. ``rank`` numbers all of them in that order."""
        scored = await self.leaderboard_daily(day, guild_id, NO_LIMIT if limit is None else limit)
        if limit is not None and len(scored) >= limit:
            return scored
        guild_sql = " AND guild_id = ?" if guild_id is not None else ""
        rest = NO_LIMIT if limit is None else limit - len(scored)
        params = (day,) + ((guild_id,) if guild_id is not None else ()) + (rest,)
        rows = await self._read(
            "SELECT user_id, id, score, status, ended_at, guild_id, ended_by FROM games "
            f"WHERE status = 'playing' AND kind <> 'normal' AND kind = 'daily' AND day = ?{guild_sql} "
            "ORDER BY id LIMIT ?", params, board=True)
        return scored + [DailyEntry(i, r[0], r[1], r[2], r[3], from_micros(r[4]), r[5], r[6])
                         for i, r in enumerate(rows, len(scored) + 1)]

    # --- guild settings ----------------------------------------------------------------------------------
    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (defaults for a guild never configured)."""
        rows = await self._read("SELECT guild_id, daily_channel_id, daily_time, preset, daily_role_id "
                                "FROM guild_settings "
                                "WHERE guild_id = ?", (guild_id,))
        return _guild(rows[0]) if rows else GuildSettings(guild_id)

    async def set_daily_schedule(self, guild_id: int, channel_id: int | None,
                                 post_time: time | str | None, role_id: int | None = None) -> GuildSettings:
        """Post the daily in ``channel_id`` at ``post_time`` (UTC, a ``time`` or ``'HH:MM'``), pinging ``role_id``
        if given; a None channel and time turn it off (and forget the role)."""
        text = time_to_hhmm(post_time)
        now_us = to_micros(self.now())

        async def body(db):
            await db.execute(
                "INSERT INTO guild_settings (guild_id, daily_channel_id, daily_time, daily_role_id, updated_at) "
                "VALUES (?,?,?,?,?) ON CONFLICT (guild_id) DO UPDATE SET daily_channel_id = excluded.daily_channel_id, "
                "daily_time = excluded.daily_time, daily_role_id = excluded.daily_role_id, "
                "updated_at = excluded.updated_at",
                (guild_id, channel_id, text, role_id, now_us))

        await self._write(body)
        return await self.get_guild_settings(guild_id)

    async def set_guild_preset(self, guild_id: int, preset: str | None) -> GuildSettings:
        """The rule preset ``/scoundrel play`` uses by default in this guild (a name from ``PRESETS``); None goes
        back to the bot's configured default."""
        name = None if preset is None else preset.strip().lower()
        if name is not None and name not in PRESETS:
            raise ValueError(f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
        now_us = to_micros(self.now())

        async def body(db):
            await db.execute(
                "INSERT INTO guild_settings (guild_id, preset, updated_at) VALUES (?,?,?) "
                "ON CONFLICT (guild_id) DO UPDATE SET preset = excluded.preset, updated_at = excluded.updated_at",
                (guild_id, name, now_us))

        await self._write(body)
        return await self.get_guild_settings(guild_id)

    async def guilds_with_daily(self) -> list[GuildSettings]:
        """Every guild with a daily channel and post time set, by guild id."""
        rows = await self._read("SELECT guild_id, daily_channel_id, daily_time, preset, daily_role_id "
                                "FROM guild_settings "
                                "WHERE daily_channel_id IS NOT NULL AND daily_time IS NOT NULL ORDER BY guild_id")
        return [_guild(row) for row in rows]

    async def claim_daily_post(self, guild_id: int, day: int, owner: str, lease: timedelta) -> bool:
        """Take (or renew) the lease on a guild's post of ``day``: true if ``owner`` should send it now.

        False once the post is delivered, while another owner's lease runs, or before the back-off of a failed
        attempt is over. Exactly one of several processes racing for the same post gets true.
        """
        now_us = to_micros(self.now())
        until_us = to_micros(self.now() + lease)

        async def body(db):
            row = await _fetchone(db, "SELECT delivered_at, owner, lease_until, retry_at FROM daily_posts "
                                      "WHERE guild_id = ? AND day = ?", (guild_id, day))
            if row is None:
                await db.execute("INSERT INTO daily_posts (guild_id, day, claimed_at, owner, lease_until) "
                                 "VALUES (?,?,?,?,?)", (guild_id, day, now_us, owner, until_us))
                return True
            delivered_at, holder, lease_until, retry_at = row
            if delivered_at is not None:
                return False
            if holder is not None and holder != owner and lease_until is not None and lease_until > now_us:
                return False
            if retry_at is not None and retry_at > now_us:
                return False
            await db.execute("UPDATE daily_posts SET owner = ?, lease_until = ?, claimed_at = ? "
                             "WHERE guild_id = ? AND day = ?", (owner, until_us, now_us, guild_id, day))
            return True

        return await self._write(body)

    async def confirm_daily_post(self, guild_id: int, day: int, channel_id: int, message_id: int) -> None:
        """The post of ``day`` exists: it is never claimable again."""
        now_us = to_micros(self.now())

        async def body(db):
            await db.execute("UPDATE daily_posts SET channel_id = ?, message_id = ?, delivered_at = ?, owner = NULL, "
                             "lease_until = NULL, last_error = NULL, retry_at = NULL WHERE guild_id = ? AND day = ?",
                             (channel_id, message_id, now_us, guild_id, day))

        await self._write(body)

    async def release_daily_post(self, guild_id: int, day: int, owner: str, error: str,
                                 backoff: Callable[[int], timedelta]) -> timedelta | None:
        """A failed attempt by ``owner``: free the post for another attempt after ``backoff(failures so far)``.
        Returns that delay, or None if ``owner`` no longer held the post (its lease had passed to another)."""
        now = self.now()

        async def body(db):
            row = await _fetchone(db, "SELECT attempts FROM daily_posts WHERE guild_id = ? AND day = ? "
                                      "AND owner = ? AND delivered_at IS NULL", (guild_id, day, owner))
            if row is None:
                return None
            delay = backoff(row[0] + 1)
            await db.execute("UPDATE daily_posts SET owner = NULL, lease_until = NULL, attempts = attempts + 1, "
                             "last_error = ?, retry_at = ? WHERE guild_id = ? AND day = ?",
                             (error[:500], to_micros(now + delay), guild_id, day))
            return delay

        return await self._write(body)

    async def delivered_daily_posts(self, day: int) -> set[int]:
        """The guilds whose post of ``day`` has been delivered."""
        rows = await self._read("SELECT guild_id FROM daily_posts WHERE day = ? AND delivered_at IS NOT NULL",
                                (day,))
        return {r[0] for r in rows}

    async def undelivered_daily_posts(self, day: int) -> list[tuple[int, int, datetime | None]]:
        """(guild id, failed attempts, next attempt) of the posts of ``day`` claimed but not delivered yet."""
        rows = await self._read("SELECT guild_id, attempts, retry_at FROM daily_posts WHERE day = ? "
                                "AND delivered_at IS NULL ORDER BY guild_id", (day,))
        return [(r[0], r[1], from_micros(r[2])) for r in rows]

    async def daily_post_message(self, guild_id: int, day: int) -> tuple[int, int] | None:
        rows = await self._read("SELECT channel_id, message_id FROM daily_posts WHERE guild_id = ? AND day = ? "
                                "AND message_id IS NOT NULL", (guild_id, day))
        return (rows[0][0], rows[0][1]) if rows else None

    # --- par of arbitrary deals --------------------------------------------------------------------------
    async def get_par(self, rules_key: str, deck: str | tuple[Card, ...]) -> tuple[int, str] | None:
        """(best score, optimal line as action codes) of a deal already solved, or None."""
        codes = deck if isinstance(deck, str) else deck_codes(deck)
        rows = await self._read("SELECT best_score, line FROM par_cache WHERE rules_key = ? AND deck = ?",
                                (rules_key, codes))
        return (rows[0][0], rows[0][1]) if rows else None

    async def put_par(self, rules_key: str, deck: str | tuple[Card, ...], best_score: int, line: str) -> None:
        codes = deck if isinstance(deck, str) else deck_codes(deck)
        now_us = to_micros(self.now())

        async def body(db):
            await db.execute("INSERT OR REPLACE INTO par_cache (rules_key, deck, best_score, line, created_at) "
                             "VALUES (?,?,?,?,?)", (rules_key, codes, best_score, line, now_us))

        await self._write(body)

    # --- leaderboards and stats --------------------------------------------------------------------------
    async def leaderboard_daily(self, day: int, guild_id: int | None = None, limit: int = 10) -> list[DailyEntry]:
        """Counted results of ``day`` (won or dead), best score first, earlier finish first on ties.
        With ``guild_id``, only results played in that server."""
        guild_sql = "guild_id = ? AND " if guild_id is not None else ""
        params = ((guild_id,) if guild_id is not None else ()) + (day, limit)
        rows = await self._read(
            "SELECT user_id, id, score, status, ended_at, guild_id, ended_by FROM games "
            f"WHERE {guild_sql}day = ? AND kind = 'daily' AND score IS NOT NULL "
            "ORDER BY score DESC, (ended_by IS NOT NULL), ended_at, id LIMIT ?", params, board=True)
        return [DailyEntry(i, r[0], r[1], r[2], r[3], from_micros(r[4]), r[5], r[6]) for i, r in enumerate(rows, 1)]

    async def leaderboard_week(self, day: int, guild_id: int | None = None, limit: int = 10) -> list[WeekEntry]:
        """The 7 dailies ending at ``day`` (``day - 6`` … ``day``): each player's scores summed.

        Sum, not best-of: every day counts, as in a golf card, so playing every day (and well) is what wins the
        week; a death's negative score costs, as it does on the daily board, and so does a forfeit (``forfeits``
        counts those days). Ties: more days played first, then the earlier last finish. Read from the running week
        totals (kept in the transaction that scores a daily): a few rows of an index at any size.
        """
        rows = await self._read(
            "SELECT user_id, total, days, wins, best, forfeits FROM week_totals WHERE week_end = ? AND guild_id = ? "
            "ORDER BY total DESC, days DESC, last_at, user_id LIMIT ?",
            (day, ALL_GUILDS if guild_id is None else guild_id, limit), board=True)
        return [WeekEntry(i, r[0], r[1], r[2], r[3], r[4], r[5]) for i, r in enumerate(rows, 1)]

    async def leaderboard_all_time(self, guild_id: int | None = None, limit: int = 10,
                                   rules_key: str | None = None, *, dailies_only: bool = False) -> list[AllTimeEntry]:
        """Normal games and counted dailies ever ended (in ``guild_id`` if given; under ``rules_key`` if given,
        else every rule set; only counted dailies with ``dailies_only``): most wins first, then best score, then
        average score."""
        if dailies_only and rules_key is not None:
            raise ValueError("dailies_only already chooses the games; give no rules_key with it")
        key = DAILIES if dailies_only else rules_key or ALL_RULES
        params = (ALL_GUILDS if guild_id is None else guild_id, key, limit)
        rows = await self._read(
            "SELECT user_id, wins, games, best_score, average FROM player_totals "
            "WHERE guild_id = ? AND rules_key = ? "
            "ORDER BY wins DESC, best_score DESC, average DESC, user_id LIMIT ?", params, board=True)
        return [AllTimeEntry(i, r[0], r[1], r[2], r[3], r[4]) for i, r in enumerate(rows, 1)]

    async def leaderboard_rank(self, board: str, user_id: int, day: int | None = None,
                               guild_id: int | None = None) -> tuple[int, int] | None:
        """(the user's place, players on the board) on ``board`` — ``daily`` / ``week`` (ending at ``day``) /
        ``all-time`` (counted dailies) — ordered exactly as ``leaderboard_*``; None when the user is not on it."""
        guild_sql = "guild_id = ? AND " if guild_id is not None else ""
        guild = (guild_id,) if guild_id is not None else ()
        if board == "daily":
            order, rows = "score DESC, forfeit, ended_at, id", (
                f"SELECT user_id, score, (ended_by IS NOT NULL) AS forfeit, ended_at, id FROM games "
                f"WHERE {guild_sql}day = ? AND kind = 'daily' AND score IS NOT NULL")
            params = guild + (day,)
        elif board == "week":
            order, rows = "total DESC, days DESC, last_at, user_id", (
                "SELECT user_id, total, days, last_at FROM week_totals WHERE week_end = ? AND guild_id = ?")
            params = (day, ALL_GUILDS if guild_id is None else guild_id)
        elif board == "all-time":
            order, rows = "wins DESC, best_score DESC, average DESC, user_id", (
                "SELECT user_id, wins, best_score, average FROM player_totals WHERE guild_id = ? AND rules_key = ?")
            params = (ALL_GUILDS if guild_id is None else guild_id, DAILIES)
        else:
            raise ValueError(f"no board {board!r}")
        found = await self._read(
            f"SELECT place, players FROM (SELECT user_id, row_number() OVER (ORDER BY {order}) AS place, "
            f"count(*) OVER () AS players FROM ({rows}) AS entries) AS ranked WHERE user_id = ?", params + (user_id,),
            board=True)
        return (found[0][0], found[0][1]) if found else None

    async def user_stats(self, user_id: int, guild_id: int | None = None) -> UserStats:
        """The player's games that ended (in ``guild_id`` if given), overall and per rule set."""
        rows = await self._read(
            "SELECT rules_key, games, wins, scored, best_score, average FROM player_totals "
            "WHERE user_id = ? AND guild_id = ?", (user_id, ALL_GUILDS if guild_id is None else guild_id), board=True)
        overall = next((r for r in rows if r[0] == ALL_RULES), None)
        by_rules = sorted((RulesStats(r[0], rules_name(r[0]), r[1], r[2], r[4], r[5]) for r in rows
                           if r[0] not in (ALL_RULES, DAILIES)), key=lambda s: (-s.games, s.rules_key))
        dailies = next((RulesStats(DAILIES, "daily", r[1], r[2], r[4], r[5]) for r in rows if r[0] == DAILIES), None)
        if overall is None:
            return UserStats(user_id, guild_id)
        return UserStats(user_id, guild_id, games=overall[1], wins=overall[2], scored=overall[3], best=overall[4],
                         average=overall[5], by_rules=tuple(by_rules), dailies=dailies)

    async def daily_days(self, user_id: int) -> list[int]:
        """Sorted day numbers of the user's counted dailies that were finished (won or dead): for streaks."""
        rows = await self._read("SELECT DISTINCT day FROM games WHERE user_id = ? AND kind = 'daily' "
                                "AND score IS NOT NULL AND ended_by IS NULL ORDER BY day", (user_id,), board=True)
        return [row[0] for row in rows]

    async def rebuild_totals(self) -> None:
        """Recompute ``player_totals``, ``week_totals`` and ``month_totals`` from the games (an operator's repair;
        normally kept up to date)."""
        fills = [s for m in migrate.migrations() for s in m.statements()
                 if "INSERT INTO player_totals" in s or "INSERT INTO week_totals" in s
                 or "INSERT INTO month_totals" in s]

        async def body(db):
            await db.execute("DELETE FROM player_totals")
            await db.execute("DELETE FROM week_totals")
            await db.execute("DELETE FROM month_totals")
            for sql in fills:  # 0002: per rule set and overall; 0004: counted dailies only; 0009: weeks
                await db.execute(_without_hinted(sql))

        await self._write(body)

    # --- hints (0006): a hinted game is never counted in the totals ----------------------------------------
    async def mark_hinted(self, game_id: int, user_id: int) -> bool:
        """Mark the user's game in progress as hinted (never a counted daily); False if it is not such a game."""

        async def body(db):
            cursor = await db.execute("UPDATE games SET hinted = 1 WHERE id = ? AND user_id = ? "
                                      "AND status = 'playing' AND kind <> 'daily'", (game_id, user_id))
            return cursor.rowcount == 1

        return await self._write(body)

    async def is_hinted(self, game_id: int) -> bool:
        rows = await self._read("SELECT hinted FROM games WHERE id = ?", (game_id,))
        return bool(rows and rows[0][0])

    # --- operations --------------------------------------------------------------------------------------
    async def ping(self) -> bool:
        """True when the database answers a trivial read (the health check)."""
        return (await self._read("SELECT 1"))[0][0] == 1

    async def integrity_check(self) -> str:
        rows = await self._read("PRAGMA integrity_check")
        return "\n".join(str(row[0]) for row in rows)

    async def backup(self, target: str | os.PathLike, *, with_secret: bool = False) -> dict:
        """Copy the live database to ``target`` (storage/backup.py: VACUUM INTO, checked; writes go on meanwhile)."""
        return await asyncio.to_thread(copy_database, self.path, target, overwrite=True, with_secret=with_secret)


def _without_hinted(fill: str) -> str:
    """A totals fill from an earlier migration, leaving hinted games out (the column came later, in 0010)."""
    return fill.replace("status <> 'playing'", "status <> 'playing' AND hinted = 0")


# --- helpers ---------------------------------------------------------------------------------------------

async def _fetchall(db, sql: str, params: Iterable[Any] = ()) -> list:
    return list(await db.execute_fetchall(sql, tuple(params)))  # one trip to the connection's thread


async def _fetchone(db, sql: str, params: Iterable[Any] = ()):
    rows = await db.execute_fetchall(sql, tuple(params))
    return rows[0] if rows else None


async def _add_totals(db, user_id: int, guild_id: int | None, rules_key: str, status: str, score: int | None,
                      at_us: int, kind: str, day: int | None = None, forfeit: bool = False) -> None:
    await _add_totals_many(db, [(user_id, guild_id, rules_key, status, score, at_us, kind, day, forfeit)])


PLAYER_TOTALS_UPSERT = (
    "INSERT INTO player_totals (user_id, guild_id, rules_key, games, wins, scored, total_score, best_score, "
    "average, last_at) VALUES (?,?,?,?,?,?,?,?,?,?) "
    "ON CONFLICT (user_id, guild_id, rules_key) DO UPDATE SET "
    "games = games + excluded.games, wins = wins + excluded.wins, scored = scored + excluded.scored, "
    "total_score = total_score + excluded.total_score, "
    "best_score = CASE WHEN best_score IS NULL THEN excluded.best_score "
    "WHEN excluded.best_score IS NULL THEN best_score ELSE max(best_score, excluded.best_score) END, "
    "average = CASE WHEN scored + excluded.scored > 0 THEN "
    "(total_score + excluded.total_score) * 1.0 / (scored + excluded.scored) END, "
    "last_at = max(coalesce(last_at, 0), excluded.last_at)")
WEEK_TOTALS_UPSERT = (
    "INSERT INTO week_totals (week_end, guild_id, user_id, total, days, wins, forfeits, best, last_at) "
    "VALUES (?,?,?,?,1,?,?,?,?) ON CONFLICT (week_end, guild_id, user_id) DO UPDATE SET "
    "total = total + excluded.total, days = days + 1, wins = wins + excluded.wins, "
    "forfeits = forfeits + excluded.forfeits, best = max(best, excluded.best), "
    "last_at = max(coalesce(last_at, 0), excluded.last_at)")
NO_LIMIT = 1 << 62  # LIMIT for "all rows", in a form both SQLite and PostgreSQL take


async def _add_totals_many(db, games: list[tuple], *, new: bool = True) -> None:
    """Count ended games in their players' running totals (the game's guild and every server; its rules and all;
    and, for a counted daily, the dailies-only totals and the 7 week totals holding its day).

    ``games``: (user_id, guild_id, rules_key, status, score, at_us, kind, day, forfeit) each. ``new=False`` adds a
    score to a game already counted as played (an old forfeit scored late)."""
    rows, weeks, months = [], [], []
    for user_id, guild_id, rules_key, status, score, at_us, kind, day, forfeit in games:
        won = 1 if status == WON else 0
        scored = 1 if score is not None else 0
        average = float(score) if score is not None else None
        keys = (rules_key, ALL_RULES, DAILIES) if kind == DAILY else (rules_key, ALL_RULES)
        guilds = (ALL_GUILDS,) if guild_id is None else (ALL_GUILDS, guild_id)
        rows += [(user_id, g, k, 1 if new else 0, won, scored, score or 0, score, average, at_us)
                 for g in guilds for k in keys]
        if kind == DAILY and score is not None and day is not None:
            weeks += [(day + n, g, user_id, score, won, 1 if forfeit else 0, score, at_us)
                      for g in guilds for n in range(WEEK_DAYS)]
            months += month_rows(day, guilds, user_id, score, won, 1 if forfeit else 0, at_us)  # 0012
    if rows:
        await db.executemany(
            PLAYER_TOTALS_UPSERT, rows)
    if weeks:
        await db.executemany(
            WEEK_TOTALS_UPSERT, weeks)
    if months:
        await db.executemany(MONTH_TOTALS_UPSERT, months)


def _forfeit(record: GameRecord) -> tuple[int | None, tuple | None]:
    """(forfeit score, totals key) of a game about to be given up or expired: a counted daily is scored
    (unless its state is unreadable); the totals key is (user, guild, rules key, kind, day) for counted games."""
    if record.kind == PRACTICE:
        return None, None
    score = forfeit_score(record.state) if record.kind == DAILY and not record.damaged else None
    rules_key = record.rules.key if record.rules is not None else None
    return score, (record.user_id, record.guild_id, rules_key, record.kind, record.day)


async def _rules_key(db, game_id: int) -> str:
    row = await _fetchone(db, "SELECT rules_key FROM games WHERE id = ?", (game_id,))
    return row[0]


async def _close_expired(db, game_id: int, score: int | None, ended_us: int, totals: tuple | None) -> bool:
    """Inside a write transaction: end a still-running daily or practice game whose day is over."""
    cursor = await db.execute("UPDATE games SET status = 'abandoned', ended_by = 'expired', score = ?, ended_at = ? "
                              "WHERE id = ? AND status = 'playing'", (score, ended_us, game_id))
    if cursor.rowcount != 1:
        return False
    if totals is not None:
        user_id, guild_id, rules_key, kind, day = totals
        rules_key = rules_key or await _rules_key(db, game_id)
        await _add_totals(db, user_id, guild_id, rules_key, ABANDONED, score, ended_us, kind, day, forfeit=True)
    return True


@dataclass(slots=True, eq=False)
class _Move:
    """One move waiting for its group commit."""

    game_id: int
    expected: int  # the version the move was made on; it becomes expected + 1
    code: str
    snapshot: str
    status: str
    score: int | None
    at_us: int
    ended_us: int | None
    totals: tuple | None  # _add_totals arguments when the move ends a counted game
    expiry: tuple | None = None  # a daily's (deadline, day, forfeit score, totals if counted)
    future: asyncio.Future | None = None


async def _write_moves(db, group: list[_Move], now_us: int) -> list[Exception | None]:
    """Inside a write transaction: check each move against the games' versions, write those that fit.

    Returns, per move, None (written) or the exception its caller gets. The versions are read under the write
    lock, and the UPDATE still carries ``AND version = ?``: if it does not change exactly the rows expected, the
    whole group is rolled back (and retried move by move).
    """
    ids = sorted({m.game_id for m in group})
    rows = await _fetchall(db, "SELECT id, version, status, hinted FROM games "
                               f"WHERE id IN ({','.join('?' * len(ids))})", ids)
    current = {row[0]: (row[1], row[2]) for row in rows}
    hinted = {row[0] for row in rows if row[3]}  # a hint taken while the move waited: still never counted
    outcomes: list[Exception | None] = []
    accepted: list[_Move] = []
    for move in group:
        if move.game_id not in current:
            outcomes.append(GameNotFound(move.game_id))
            continue
        version, status = current[move.game_id]
        if status == PLAYING and move.expiry is not None and now_us >= move.expiry[0]:
            deadline_us, day, forfeit, totals = move.expiry
            await _close_expired(db, move.game_id, forfeit, deadline_us, totals)
            outcomes.append(DayOver(move.game_id, move.expected, day))
            current[move.game_id] = (version, ABANDONED)
        elif status != PLAYING:
            outcomes.append(GameOver(move.game_id, move.expected, version, status))
        elif version != move.expected:
            outcomes.append(StaleVersion(move.game_id, move.expected, version))
        else:
            outcomes.append(None)
            accepted.append(move)
            current[move.game_id] = (version + 1, move.status)
    if not accepted:
        return outcomes
    cursor = await db.executemany(
        "UPDATE games SET version = ?, snapshot = ?, status = ?, score = ?, ended_at = ? "
        "WHERE id = ? AND version = ? AND status = 'playing'",
        [(m.expected + 1, m.snapshot, m.status, m.score, m.ended_us, m.game_id, m.expected) for m in accepted])
    if cursor.rowcount != len(accepted):
        raise DatabaseError(f"conditional update changed {cursor.rowcount} of {len(accepted)} games")
    await db.executemany("INSERT INTO game_actions (game_id, seq, code, at) VALUES (?, ?, ?, ?)",
                         [(m.game_id, m.expected + 1, m.code, m.at_us) for m in accepted])
    finished = [m.totals for m in accepted if m.totals is not None and m.game_id not in hinted]
    if finished:
        await _add_totals_many(db, finished)
    return outcomes


class _ReadPool:
    """Read-only connections handed out one query at a time: a query waits only when all of them are busy."""

    def __init__(self, connections: list[aiosqlite.Connection]) -> None:
        self._all = list(connections)
        self._idle: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        for connection in self._all:
            self._idle.put_nowait(connection)

    async def fetchall(self, sql: str, params: Iterable[Any]) -> list:
        connection = await self._idle.get()
        try:
            return await _fetchall(connection, sql, params)
        finally:
            self._idle.put_nowait(connection)

    async def close(self) -> None:
        for connection in self._all:
            await connection.close()


def _move_error(move: _Move, exc: Exception) -> Exception:
    if isinstance(exc, sqlite3.IntegrityError):
        return CorruptGame(move.game_id, f"the action log already has a move {move.expected + 1} ({exc})")
    return exc


def _from_snapshot(snapshot: str | None, rules: Rules, deck: str, version: int) -> tuple[State | None, str | None]:
    if not snapshot:
        return None, "no snapshot"
    try:
        state = from_json(snapshot)
    except SnapshotError as exc:
        return None, str(exc)
    except Exception as exc:  # noqa: BLE001 - a damaged snapshot must never escape as a crash
        return None, repr(exc)
    if len(state.history) != version:
        return None, f"snapshot at version {len(state.history)}, game at {version}"
    if state.rules != rules or deck_codes(state.start_deck) != deck:
        return None, "snapshot of another deal"
    return state, None


def _daily(row) -> DailyChallenge:
    day, seed, rules_json, par, par_line, created_at = row
    return DailyChallenge(day, seed, Rules.from_dict(json.loads(rules_json)), par, par_line, from_micros(created_at))


def _guild(row) -> GuildSettings:
    guild_id, channel_id, daily_time, preset, role_id = row
    try:
        post_time = hhmm_to_time(daily_time)
    except ValueError:
        log.error("guild %s: unreadable daily time %r ignored", guild_id, daily_time)
        post_time = None
    return GuildSettings(guild_id, channel_id, post_time, preset, role_id)


def _prepare(path: str) -> None:
    """Before the async connection opens: check the file, switch to WAL, apply pending migrations."""
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as exc:
        raise DatabaseError(f"cannot open the database {path}: {exc}") from exc
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        migrate.check_version(version, path)  # before anything could change the file
        if version == 0:  # a new file: free pages can then go back to the file system (storage/maintenance.py)
            conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode.lower() != "wal":
            raise DatabaseError(f"{path}: cannot switch to WAL mode (journal mode stays {mode})")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        migrate.upgrade(conn, path)
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"{path} is not a usable SQLite database: {exc}") from exc
    finally:
        conn.close()


__all__ = ["ALL_GUILDS", "ALL_RULES", "DAILIES", "Store", "rules_name"]
