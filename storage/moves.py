"""Moves and the ends of games: ``play`` with its group commit, giving up, and dailies whose day ended.

A move is optimistic: load the game, let the engine apply the action, then write it only if the game is still at
the version the move was made on (``UPDATE … WHERE id = ? AND version = ? AND status = 'playing'``, and the action
log's primary key ``(game_id, seq)``). If another click (in this process or any other) got there first, the move is
refused (``MoveRefused``, ``STALE``) with the version that won. Acknowledged = committed. Moves arriving while a
commit is on its way are committed together in the next one (each still checked and written on its own version),
so under load the commits are shared instead of queued; the backend decides how a group is written
(``Db.commit_moves``). What a game that ends adds to the boards comes from ``games.engine.tally``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from datetime import datetime

from games.engine import Action, apply, to_json
from games.engine.calendar import day_end
from games.engine.tally import NOTHING, EndedGame, Tally, forfeit, tally, tally_all
from storage.backends.base import ConstraintViolation, Db, Move, Outcomes, Sql, Tx
from storage.errors import (
    CorruptGame,
    DatabaseError,
    DatabaseFull,
    DatabaseUnavailable,
    GameNotFound,
    MoveRefused,
)
from storage.games import Games
from storage.models import ABANDONED, DAILY, GAME_COLUMNS, NORMAL, PLAYING, GameRecord, from_micros, to_micros
from storage.totals import add_tally

log = logging.getLogger(__name__)

# The games of a group of moves, given as a JSON array of ids.
VERSIONS = Sql(
    sqlite="SELECT id, version, status, hinted FROM games WHERE id IN (SELECT value FROM json_each($1))",
    postgres="SELECT id, version, status, hinted FROM games "
    "WHERE id = ANY(ARRAY(SELECT json_array_elements_text($1::json)::bigint))")
RULES_KEY = "SELECT rules_key FROM games WHERE id = $1"
APPLY_MOVE = ("UPDATE games SET version = $1, snapshot = $2, status = $3, score = $4, ended_at = $5 "
              "WHERE id = $6 AND version = $7 AND status = 'playing'")
APPEND_ACTION = "INSERT INTO game_actions (game_id, seq, code, at) VALUES ($1, $2, $3, $4)"
EXPIRE = ("UPDATE games SET status = 'abandoned', ended_by = 'expired', score = $1, ended_at = $2 "
          "WHERE id = $3 AND status = 'playing'")
GIVE_UP = ("UPDATE games SET status = 'abandoned', ended_by = 'abandoned', score = $1, ended_at = $2 "
           "WHERE id = $3 AND status = 'playing' AND version = $4 RETURNING hinted")
STILL_PLAYING_BEFORE = "SELECT id FROM games WHERE status = 'playing' AND kind <> 'normal' AND day < $1"
UNSCORED_FORFEITS = (f"SELECT {GAME_COLUMNS} FROM games "
                     "WHERE kind = 'daily' AND status = 'abandoned' AND score IS NULL")
SCORE_FORFEIT = "UPDATE games SET score = $1 WHERE id = $2 AND score IS NULL"


def _ended(record: GameRecord, status: str, score: int | None, at_us: int, *, forfeit: bool,
           rules_key: str | None = None) -> EndedGame:
    rules_key = record.rules.key if record.rules is not None else rules_key or ""
    return EndedGame(record.user_id, record.guild_id, rules_key, record.kind, record.day, status, score, at_us,
                     forfeit)


def _forfeit_score(record: GameRecord) -> int | None:
    return forfeit(record.kind, None if record.damaged else record.state)


async def _given_up(tx: Tx, record: GameRecord, score: int | None, at_us: int) -> Tally:
    """Inside a write transaction: what a game given up or expired at ``at_us`` adds to the boards (the rules key
    of a game whose rules are unreadable is read from its row)."""
    rules_key = None
    if record.rules is None:
        row = await tx.fetchone(RULES_KEY, (record.id,))
        rules_key = row[0] if row is not None else None
    return tally(_ended(record, ABANDONED, score, at_us, forfeit=True, rules_key=rules_key))


class Moves:
    """Moves on ``games``, committed in groups on ``db``."""

    def __init__(self, db: Db, games: Games, now: Callable[[], datetime]) -> None:
        self.db = db
        self.games = games
        self.now = now
        self._pending: list[Move] = []  # moves waiting for the next group commit
        self._flushers: set[asyncio.Task] = set()  # group commits on their way

    async def play(self, game_id: int, user_id: int, expected_version: int, action: Action | str) -> GameRecord:
        if isinstance(action, str):
            action = Action.parse(action)
        record = await self.games.game_to_move(game_id, expected_version)
        if record.user_id != user_id:
            raise MoveRefused(game_id, MoveRefused.NOT_YOURS, expected=expected_version)
        if record.status != PLAYING:
            raise MoveRefused(game_id, MoveRefused.OVER, expected=expected_version, current=record.version,
                              status=record.status)
        if record.version != expected_version:
            raise MoveRefused(game_id, MoveRefused.STALE, expected=expected_version, current=record.version)
        day = record.day if record.kind != NORMAL else None  # a daily or practice game ends with its day
        deadline_us = to_micros(day_end(day)) if day is not None else None
        if day is not None and deadline_us is not None and to_micros(self.now()) >= deadline_us:
            await self._expire([record])
            raise MoveRefused(game_id, MoveRefused.DAY_OVER, expected=expected_version, day=day)
        state = apply(record.state, action)  # CorruptGame / IllegalAction propagate
        version = expected_version + 1
        status = state.status if state.over else PLAYING
        score = state.score if state.over else None
        now_us = to_micros(self.now())
        ended_us = now_us if state.over else None
        snapshot = to_json(state)
        # A hinted game is left out by the commit, which reads the flag.
        adds = tally(_ended(record, status, score, now_us, forfeit=False)) if state.over else NOTHING
        expiry = None
        if deadline_us is not None:  # checked again at commit time: the day may end while the move queues
            score_then = _forfeit_score(record)
            expiry = (deadline_us, record.day, score_then,
                      tally(_ended(record, ABANDONED, score_then, deadline_us, forfeit=True)))
        move = Move(game_id, expected_version, action.code, snapshot, status, score, now_us, ended_us, adds, expiry)
        await self._commit(move)
        self.games.remember(game_id, version, snapshot, state)
        return self.games.known(GameRecord(
            id=game_id, user_id=user_id, guild_id=record.guild_id, channel_id=record.channel_id,
            message_id=record.message_id, kind=record.kind, day=record.day, rules=record.rules, seed=record.seed,
            version=version, status=status, score=score, started_at=record.started_at,
            ended_at=from_micros(ended_us), deck=record.deck, hinted=move.hinted,
            challenge_id=record.challenge_id, _state=state))

    # --- the group commit ----------------------------------------------------------------------------------
    async def _commit(self, move: Move) -> None:
        """Queue a move for the next group commit and wait until it is committed (or refused). Up to
        ``db.move_flushers`` groups are on their way at once."""
        loop = asyncio.get_running_loop()
        move.future = loop.create_future()
        self._pending.append(move)
        self._flushers = {task for task in self._flushers if not task.done()}
        if len(self._flushers) < self.db.move_flushers:
            self._flushers.add(loop.create_task(self._flush()))
        if not self.db.remembers_games:  # nothing to forget: a cancelled caller leaves at once, the move goes on
            await move.future
            return
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
            self.games.forget(move.game_id, move.expected)  # refused or its caller gone: read again next time
        if cancelled:
            raise asyncio.CancelledError
        move.future.result()

    async def _flush(self) -> None:
        while self._pending:
            group, self._pending = self._pending, []
            try:
                outcomes = await self.db.commit_moves(group, to_micros(self.now()), self._checked)
            except Exception as exc:  # noqa: BLE001 - one bad move must not sink the others: retry one by one
                if len(group) == 1:
                    outcomes = [_move_error(group[0], exc)]
                else:
                    # A full or unreachable database fails every move alike: each caller hears of it, once.
                    quiet = isinstance(exc, DatabaseFull | DatabaseUnavailable)
                    (log.debug if quiet else log.warning)(
                        "a group of %d moves failed (%r); writing them one by one", len(group), exc)
                    outcomes = []
                    for move in group:
                        async def alone(tx: Tx, move: Move = move) -> Outcomes:
                            return await self._checked(tx, [move], to_micros(self.now()))

                        try:
                            outcomes += await self.db.transaction(alone)
                        except Exception as single:  # noqa: BLE001
                            outcomes.append(_move_error(move, single))
            except BaseException as exc:  # cancelled (the store is closing): nothing of the group was committed
                for move in group:
                    if move.future is not None and not move.future.done():
                        move.future.set_exception(exc if isinstance(exc, Exception) else DatabaseError("closing"))
                raise
            for move, outcome in zip(group, outcomes, strict=True):
                if move.future is None or move.future.done():  # the caller went away; the outcome stands
                    continue
                if outcome is None:
                    move.future.set_result(None)
                else:
                    move.future.set_exception(outcome)

    async def _checked(self, tx: Tx, group: list[Move], now_us: int) -> Outcomes:
        """Inside a write transaction: check each move against the games' versions, write those that fit.

        The versions are read under the write lock, and the UPDATE still carries ``AND version = ?``: if it does
        not change exactly the rows expected, the whole group is rolled back (and retried move by move).
        """
        rows = await tx.fetch(VERSIONS, (json.dumps(sorted({m.game_id for m in group})),))
        current = {row[0]: (row[1], row[2]) for row in rows}
        hinted = {row[0] for row in rows if row[3]}  # a hint taken while the move waited: still never counted
        outcomes: Outcomes = []
        accepted: list[Move] = []
        for move in group:
            if move.game_id not in current:
                outcomes.append(GameNotFound(move.game_id))
                continue
            version, status = current[move.game_id]
            if status == PLAYING and move.expiry is not None and now_us >= move.expiry[0]:
                deadline_us, day, score, adds = move.expiry
                await _close_expired(tx, move.game_id, score, deadline_us, adds)
                outcomes.append(MoveRefused(move.game_id, MoveRefused.DAY_OVER, expected=move.expected, day=day))
                current[move.game_id] = (version, ABANDONED)
            elif status != PLAYING:
                outcomes.append(MoveRefused(move.game_id, MoveRefused.OVER, expected=move.expected, current=version,
                                            status=status))
            elif version != move.expected:
                outcomes.append(MoveRefused(move.game_id, MoveRefused.STALE, expected=move.expected, current=version))
            else:
                outcomes.append(None)
                accepted.append(move)
                move.hinted = move.game_id in hinted
                current[move.game_id] = (version + 1, move.status)
        if not accepted:
            return outcomes
        changed = await tx.execute_each(APPLY_MOVE, [(m.expected + 1, m.snapshot, m.status, m.score, m.ended_us,
                                                      m.game_id, m.expected) for m in accepted])
        if changed != len(accepted):
            raise DatabaseError(f"conditional update changed {changed} of {len(accepted)} games")
        await tx.executemany(APPEND_ACTION, [(m.game_id, m.expected + 1, m.code, m.at_us) for m in accepted])
        ending = [m.tally for m in accepted if m.tally and m.game_id not in hinted]
        if ending:
            await add_tally(tx, sum(ending, NOTHING))
        return outcomes

    # --- giving up and expiring ----------------------------------------------------------------------------
    async def abandon(self, game_id: int, user_id: int) -> GameRecord:
        self.games.forget(game_id)
        for _ in range(5):  # a move landing between the read and the write changes the forfeit: read again
            record = await self.games.get_game(game_id)
            if record.user_id != user_id:
                raise MoveRefused(game_id, MoveRefused.NOT_YOURS)
            if record.status != PLAYING:
                return record
            now_us = to_micros(self.now())
            score = _forfeit_score(record)

            async def body(tx: Tx, record: GameRecord = record, score: int | None = score,
                           now_us: int = now_us) -> bool:
                row = await tx.fetchone(GIVE_UP, (score, now_us, game_id, record.version))
                if row is None:
                    return False
                if not row[0]:  # a hinted game never counts
                    await add_tally(tx, await _given_up(tx, record, score, now_us))
                return True

            if await self.db.write(body):
                break
        return await self.games.get_game(game_id)

    async def expire_dailies(self, today: int) -> list[GameRecord]:
        rows = await self.db.read(STILL_PLAYING_BEFORE, (today,))
        records = [await self.games.get_game(row[0]) for row in rows]
        closed = await self._expire(records)
        return [await self.games.get_game(game_id) for game_id in closed]

    async def _expire(self, records: list[GameRecord]) -> list[int]:
        """Close these daily/practice games as expired at the end of their day; the ids actually closed."""
        for record in records:
            self.games.forget(record.id)
        plans = [(r, _forfeit_score(r), to_micros(day_end(r.day))) for r in records if r.day is not None]

        async def body(tx: Tx) -> list[int]:
            done = []
            for record, score, deadline_us in plans:
                adds = await _given_up(tx, record, score, deadline_us)
                if await _close_expired(tx, record.id, score, deadline_us, adds):
                    done.append(record.id)
            return done

        return await self.db.write(body) if plans else []

    async def score_old_forfeits(self) -> None:
        """Counted dailies given up before forfeits were scored (schema < 7) get their forfeit score and join the
        totals and boards. Runs when the store opens; finds nothing once done (``games_forfeit_unscored``)."""
        rows = await self.db.read(UNSCORED_FORFEITS)
        records = [record for record in [await self.games.record(row) for row in rows] if not record.damaged]
        if not records:
            return

        async def body(tx: Tx) -> int:
            scored = []
            for record in records:
                score = forfeit(DAILY, record.state)
                if await tx.execute(SCORE_FORFEIT, (score, record.id)) == 1:
                    at_us = to_micros(record.ended_at or record.started_at)
                    scored.append(_ended(record, ABANDONED, score, at_us, forfeit=True))
            await add_tally(tx, tally_all(scored, new=False))
            return len(scored)

        log.info("scored %d counted dailies given up before forfeits were scored", await self.db.write(body))

    async def wait_for_moves(self) -> None:
        """Until the moves already submitted are committed (before closing)."""
        while any(not task.done() for task in self._flushers):
            await asyncio.shield(asyncio.gather(*self._flushers, return_exceptions=True))


async def _close_expired(tx: Tx, game_id: int, score: int | None, ended_us: int, adds: Tally) -> bool:
    """Inside a write transaction: end a still-running daily or practice game whose day is over."""
    if await tx.execute(EXPIRE, (score, ended_us, game_id)) != 1:
        return False
    await add_tally(tx, adds)
    return True


def _move_error(move: Move, exc: Exception) -> Exception:
    if isinstance(exc, ConstraintViolation):
        return CorruptGame(move.game_id, f"the action log already has a move {move.expected + 1} ({exc})")
    return exc


__all__ = ["Moves"]
