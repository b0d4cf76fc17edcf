"""Games: creating them, reading them back as records, their messages and hints.

The action log is the truth; ``games.snapshot`` is a cache (and parsed states are cached in memory, keyed by the
row's version and exact snapshot text, so a changed or damaged snapshot is simply a miss). A game whose snapshot is
unreadable is rebuilt from rules + deck + seed + log; if that fails too the game alone is ``CorruptGame`` (its
record can still be abandoned) and every other game plays on.

On a backend that ``remembers_games`` (both do: a read saved is a round trip, or a thread hand-off), the games in
play are also kept as this process last read or wrote them: a move on one of them at the version held here is made
without reading the game first. Memory may be stale (another process may have moved or ended the game), but the
write is conditional on the version all the same, so the move is then refused with the version found, and the game
is read again next time. A version names one state (the action log is only appended to), so a stale memory can
never apply a move to an old state.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from typing import Any

from games.engine import (
    Card,
    Rules,
    SnapshotError,
    State,
    deck_codes,
    decode,
    from_json,
    new_game,
    new_seed,
    parse_deck,
    replay,
    to_json,
)
from storage.backends.base import ConstraintViolation, Db, Row, Tx
from storage.errors import ActiveGameExists, AttemptAlreadyUsed, GameNotFound
from storage.models import DAILY, GAME_COLUMNS, NORMAL, PLAYING, SLOTS, GameRecord, from_micros, slot_of, to_micros

log = logging.getLogger(__name__)

STATE_CACHE_SIZE = 2048  # parsed game states (and games in play) kept in memory: a cache; the database is the truth

GAME_BY_ID = f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1"
# A challenge's game is played beside the slot's game: never the one a slot holds (storage/challenges.py).
ACTIVE_GAME = (f"SELECT {GAME_COLUMNS} FROM games WHERE user_id = $1 AND slot = $2 AND status = 'playing' "
               "AND challenge_id IS NULL")
ACTIVE_GAMES = f"SELECT {GAME_COLUMNS} FROM games WHERE user_id = $1 AND status = 'playing' ORDER BY slot"
RECENT_GAMES = f"SELECT {GAME_COLUMNS} FROM games WHERE user_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2"
USED_ATTEMPT = "SELECT game_id FROM daily_attempts WHERE user_id = $1 AND day = $2"
INSERT_GAME = ("INSERT INTO games (user_id, guild_id, channel_id, kind, slot, day, rules_json, rules_key, rules_name, "
               "seed, deck, status, version, snapshot, started_at) "
               "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'playing', 0, $12, $13) RETURNING id")
INSERT_ATTEMPT = "INSERT INTO daily_attempts (user_id, day, game_id, created_at) VALUES ($1, $2, $3, $4)"
GAME_ACTIONS = "SELECT code FROM game_actions WHERE game_id = $1 ORDER BY seq"
LOG_UP_TO = "SELECT seq, code FROM game_actions WHERE game_id = $1 AND seq <= $2 ORDER BY seq"
SET_MESSAGE = "UPDATE games SET channel_id = $1, message_id = $2 WHERE id = $3"
MARK_HINTED = ("UPDATE games SET hinted = 1 WHERE id = $1 AND user_id = $2 AND status = 'playing' "
               "AND kind <> 'daily'")
IS_HINTED = "SELECT hinted FROM games WHERE id = $1"


def rules_json(rules: Rules) -> str:
    return json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"))


class Games:
    """Games and their records, on ``db``; ``now`` is the store's clock."""

    def __init__(self, db: Db, now: Callable[[], datetime]) -> None:
        self.db = db
        self.now = now
        self._states: OrderedDict[int, tuple[int, str, State]] = OrderedDict()
        self._playing: OrderedDict[int, GameRecord] = OrderedDict()

    # --- creating ----------------------------------------------------------------------------------------
    async def create_game(self, user_id: int, guild_id: int | None, channel_id: int | None,
                          rules: Rules | None = None, seed: int | None = None,
                          deck: tuple[Card, ...] | str | None = None, kind: str = NORMAL, *,
                          day: int | None = None) -> GameRecord:
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
        snapshot = to_json(state)
        now_us = to_micros(self.now())
        values = (user_id, guild_id, channel_id, kind, slot, day, rules_json(rules), rules.key, rules.name, seed,
                  codes, snapshot, now_us)

        async def checked(tx: Tx) -> tuple[str, Any]:  # under the write lock, so nobody slips in between
            active = await tx.fetchone(ACTIVE_GAME, (user_id, slot))
            if active is not None:
                return ("active", active)
            if kind == DAILY:
                used = await tx.fetchone(USED_ATTEMPT, (user_id, day))
                if used is not None:
                    return ("used", used[0])
            game_id = (await tx.fetch(INSERT_GAME, values))[0][0]
            if kind == DAILY:
                await tx.execute(INSERT_ATTEMPT, (user_id, day, game_id, now_us))
            return ("new", game_id)

        try:
            outcome, value = await self.db.start_game(values, checked)
        except ConstraintViolation:
            # A game created at the same instant in another process: report as the checks do.
            active = await self.active_game(user_id, slot)
            if active is not None:
                raise ActiveGameExists(active) from None
            raise AttemptAlreadyUsed(user_id, day) from None
        if outcome == "active":
            raise ActiveGameExists(await self.record(value))
        if outcome == "used":
            raise AttemptAlreadyUsed(user_id, day, value)
        self.remember(value, 0, snapshot, state)
        return self.known(GameRecord(id=value, user_id=user_id, guild_id=guild_id, channel_id=channel_id,
                                     message_id=None, kind=kind, day=day, rules=rules, seed=seed, version=0,
                                     status=PLAYING, score=None, started_at=from_micros(now_us), ended_at=None,
                                     deck=codes, hinted=False, _state=state))  # no hint taken yet

    # --- reading -----------------------------------------------------------------------------------------
    async def active_game(self, user_id: int, slot: str = NORMAL) -> GameRecord | None:
        slot = slot_of(slot) if slot not in SLOTS else slot
        rows = await self.db.read(ACTIVE_GAME, (user_id, slot))
        return await self.record(rows[0]) if rows else None

    async def active_games(self, user_id: int) -> list[GameRecord]:
        return [await self.record(row) for row in await self.db.read(ACTIVE_GAMES, (user_id,))]

    async def get_game(self, game_id: int) -> GameRecord:
        rows = await self.db.read(GAME_BY_ID, (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        return await self.record(rows[0])

    async def game_to_move(self, game_id: int, expected_version: int) -> GameRecord:
        """The game a move is about to be made on: from memory when held at that version (see the module)."""
        record = self._playing.get(game_id)
        if record is not None and record.version == expected_version:
            self._playing.move_to_end(game_id)
            return record
        return await self.get_game(game_id)

    async def game_actions(self, game_id: int) -> list[str]:
        return [row[0] for row in await self.db.read(GAME_ACTIONS, (game_id,))]

    async def recent_games(self, user_id: int, limit: int = 10) -> list[GameRecord]:
        rows = await self.db.read(RECENT_GAMES, (user_id, limit), board=True)
        return [await self.record(row) for row in rows]

    async def record(self, row: Row) -> GameRecord:
        """A record from a games row: state from the snapshot, else replayed from the log, else damaged."""
        (game_id, user_id, guild_id, channel_id, message_id, kind, day, rules_text, seed, deck, version, status,
         score, started_at, ended_at, snapshot, ended_by, hinted, challenge_id) = row
        rules = state = None
        damage = None
        try:
            rules = Rules.from_dict(json.loads(rules_text))
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
                self.remember(game_id, version, snapshot, state)
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
        return self.known(GameRecord(id=game_id, user_id=user_id, guild_id=guild_id, channel_id=channel_id,
                                     message_id=message_id, kind=kind, day=day, rules=rules, seed=seed,
                                     version=version, status=status, score=score, started_at=started,
                                     ended_at=ended, deck=deck or "", damage=damage, ended_by=ended_by,
                                     hinted=bool(hinted), challenge_id=challenge_id, _state=state))

    async def _replay(self, game_id: int, rules: Rules, deck: str, seed: int | None,
                      version: int) -> tuple[State | None, str | None]:
        rows = await self.db.read(LOG_UP_TO, (game_id, version))
        try:
            if [r[0] for r in rows] != list(range(1, version + 1)):
                return None, f"the action log has {len(rows)} of {version} moves"
            cards = parse_deck(deck, rules.full_deck())
            state = replay(rules, cards, decode(" ".join(r[1] for r in rows)), seed=seed)
        except Exception as exc:  # noqa: BLE001 - IllegalAction, CardParseError, ActionParseError, TypeError, ...
            return None, f"snapshot damaged and the action log does not replay: {exc!r}"
        return state, None

    # --- memory ------------------------------------------------------------------------------------------
    def remember(self, game_id: int, version: int, snapshot: str, state: State) -> None:
        self._states[game_id] = (version, snapshot, state)
        self._states.move_to_end(game_id)
        while len(self._states) > STATE_CACHE_SIZE:
            self._states.popitem(last=False)

    def known(self, record: GameRecord) -> GameRecord:
        """Every record read or written passes here: the games in play are kept (where the backend wants it)."""
        if not self.db.remembers_games:
            return record
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

    def forget(self, game_id: int, version: int | None = None) -> None:
        """Drop the game from memory (only if held at ``version`` or older, when given)."""
        held = self._playing.get(game_id)
        if held is not None and (version is None or held.version <= version):
            del self._playing[game_id]

    # --- messages and hints ------------------------------------------------------------------------------
    async def set_message(self, game_id: int, channel_id: int | None, message_id: int | None) -> None:
        self.forget(game_id)

        async def body(tx: Tx) -> None:
            if await tx.execute(SET_MESSAGE, (channel_id, message_id, game_id)) != 1:
                raise GameNotFound(game_id)

        await self.db.write(body)

    async def mark_hinted(self, game_id: int, user_id: int) -> bool:
        async def body(tx: Tx) -> bool:
            return await tx.execute(MARK_HINTED, (game_id, user_id)) == 1

        return await self.db.write(body)

    async def is_hinted(self, game_id: int) -> bool:
        rows = await self.db.read(IS_HINTED, (game_id,))
        return bool(rows and rows[0][0])


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


__all__ = ["Games", "STATE_CACHE_SIZE", "rules_json"]
