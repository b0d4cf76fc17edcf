"""Duels (``games.duel``) in the database: challenges, moves with an optimistic version check.

Written against the store's database interface (``store.db``: ``read`` and the shielded ``write`` transaction), so
duels share the bot's durability rules on either backend: a move is acknowledged only after the COMMIT that holds
it, and of two racing clicks on the same version exactly one lands (``UPDATE … WHERE version = $7``; the log's
primary key is the second guard). Refusals are ``DuelError``s with a ``code``; the cogs word them. The bot reaches
them through ``store.duels`` (``Duels``), within the store's time limit like every store call.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from games.duel import DuelAction, DuelSnapshotError, DuelState, IllegalDuelAction, apply, new_duel, replay, resign
from games.duel import from_json as duel_from_json
from games.duel import to_json as duel_to_json
from games.engine.seeds import new_seed
from storage.backends.base import Db, Tx
from storage.errors import CorruptGame, StorageError
from storage.models import from_micros, to_micros
from storage.names import NAME_LENGTH
from storage.time_limit import time_limited


class Store(Protocol):
    """What duels need of ``storage.Store``: its database and its clock."""

    @property
    def db(self) -> Db: ...

    def now(self) -> datetime: ...


CHALLENGED, DECLINED, PLAYING, WON, ABANDONED = "challenged", "declined", "playing", "won", "abandoned"
OPEN = (CHALLENGED, PLAYING)
_COLUMNS = ("id, guild_id, channel_id, message_id, player0, player1, seed, status, winner, version, snapshot, "
            "created_at, started_at, ended_at, name0, name1")
DUEL = f"SELECT {_COLUMNS} FROM duels WHERE id = $1"
USERS_OPEN_DUEL = (f"SELECT {_COLUMNS} FROM duels WHERE (player0 = $1 OR player1 = $1) "
                   "AND status IN ('challenged', 'playing') ORDER BY id DESC LIMIT 1")
OPEN_DUEL_OF = ("SELECT id FROM duels WHERE (player0 = $1 OR player1 = $1) AND status IN ('challenged', 'playing') "
                "LIMIT 1")
NEW_CHALLENGE = ("INSERT INTO duels (guild_id, channel_id, player0, player1, seed, status, version, snapshot, "
                 "created_at, name0, name1) VALUES ($1, $2, $3, $4, $5, 'challenged', 0, $6, $7, $8, $9) "
                 "RETURNING id")
ANSWER = "UPDATE duels SET status = $1, started_at = $2, ended_at = $3 WHERE id = $4 AND status = 'challenged'"
MOVE = ("UPDATE duels SET version = $1, snapshot = $2, status = $3, winner = $4, ended_at = $5 "
        "WHERE id = $6 AND version = $7 AND status = 'playing'")
APPEND_ACTION = "INSERT INTO duel_actions (duel_id, seq, code, user_id, at) VALUES ($1, $2, $3, $4, $5)"
SET_MESSAGE = "UPDATE duels SET channel_id = $1, message_id = $2 WHERE id = $3"
DUEL_LOG = "SELECT code FROM duel_actions WHERE duel_id = $1 ORDER BY seq"


# Why a duel request was refused (``DuelError.code``); the cogs word each in the player's language.
NOT_FOUND, NOT_IN_DUEL, NOT_YOUR_TURN, BUSY = "not_found", "not_in_duel", "not_your_turn", "busy"
OVER, STALE = "over", "stale"
SELF_DUEL, ONLY_CHALLENGED_ACCEPTS, RESIGN_FOR_OTHER = "self", "only_challenged_accepts", "resign_for_other"


class DuelError(StorageError):
    """A refused duel request; ``code`` says why (one of the codes above)."""

    code = "refused"

    def __init__(self, code: str | None = None) -> None:
        if code is not None:
            self.code = code
        super().__init__(f"duel request refused: {self.code}")


class DuelNotFound(DuelError):
    code = NOT_FOUND

    def __init__(self, duel_id: int) -> None:
        super().__init__()
        self.duel_id = duel_id


class NotInDuel(DuelError):
    code = NOT_IN_DUEL


class NotYourTurn(DuelError):
    code = NOT_YOUR_TURN


class DuelBusy(DuelError):
    """Someone involved already has an open duel (a challenge waiting for an answer, or a duel in play)."""

    code = BUSY

    def __init__(self, user_id: int, duel_id: int) -> None:
        super().__init__()
        self.user_id = user_id
        self.duel_id = duel_id


class DuelStale(DuelError):
    """The click was made on an older board: another move landed first (``STALE``), or the duel has ended
    (``OVER``)."""

    def __init__(self, duel_id: int, expected: int, current: int, status: str) -> None:
        super().__init__(OVER if status not in OPEN else STALE)
        self.duel_id, self.expected, self.current, self.status = duel_id, expected, current, status


@dataclass(frozen=True)
class DuelRecord:
    id: int
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    players: tuple[int, int]  # (challenger = player 0, challenged = player 1)
    seed: int
    status: str
    winner: int | None
    version: int
    state: DuelState
    created_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    # The players' names when the challenge was made (migration 0016); None for older duels.
    names: tuple[str | None, str | None] = (None, None)

    def seat(self, user_id: int) -> int | None:
        return self.players.index(user_id) if user_id in self.players else None

    @property
    def open(self) -> bool:
        return self.status in OPEN


async def create_challenge(store: Store, challenger: int, opponent: int, guild_id: int | None,
                           channel_id: int | None, seed: int | None = None,
                           names: tuple[str | None, str | None] = (None, None)) -> DuelRecord:
    """A new challenge from ``challenger`` to ``opponent``; ``DuelBusy`` if either has an open duel already.
    ``names``: the two players' names now, kept with the duel (at most ``NAME_LENGTH`` characters each)."""
    if challenger == opponent:
        raise DuelError(SELF_DUEL)
    seed = new_seed() if seed is None else seed
    snapshot = duel_to_json(new_duel(seed))
    now_us = to_micros(store.now())

    async def body(tx: Tx):
        for user in (challenger, opponent):
            busy = await tx.fetchone(OPEN_DUEL_OF, (user,))
            if busy is not None:
                raise DuelBusy(user, busy[0])
        rows = await tx.fetch(NEW_CHALLENGE, (guild_id, channel_id, challenger, opponent, seed, snapshot, now_us,
                                              *(name[:NAME_LENGTH] if name else None for name in names)))
        return rows[0][0]

    duel_id = await store.db.write(body)
    return await load_duel(store, duel_id)


async def load_duel(store: Store, duel_id: int) -> DuelRecord:
    rows = await store.db.read(DUEL, (duel_id,))
    if not rows:
        raise DuelNotFound(duel_id)
    return await _record(store, rows[0])


async def open_duel(store: Store, user_id: int) -> DuelRecord | None:
    """The user's open duel (a challenge either way, or a duel in play), if any."""
    rows = await store.db.read(USERS_OPEN_DUEL, (user_id,))
    return await _record(store, rows[0]) if rows else None


async def answer_challenge(store: Store, duel_id: int, user_id: int, accept: bool) -> DuelRecord:
    """The challenged player accepts or declines; the challenger may withdraw (decline) their own challenge."""
    record = await load_duel(store, duel_id)
    seat = record.seat(user_id)
    if seat is None:
        raise NotInDuel()
    if record.status != CHALLENGED:
        raise DuelStale(duel_id, 0, record.version, record.status)
    if accept and seat != 1:
        raise DuelError(ONLY_CHALLENGED_ACCEPTS)
    now_us = to_micros(store.now())
    status = PLAYING if accept else DECLINED

    async def body(tx: Tx):
        return await tx.execute(ANSWER, (status, now_us if accept else None, None if accept else now_us, duel_id))

    if not await store.db.write(body):
        current = await load_duel(store, duel_id)
        raise DuelStale(duel_id, 0, current.version, current.status)
    return await load_duel(store, duel_id)


async def play_duel(store: Store, duel_id: int, user_id: int, expected_version: int,
                    action: DuelAction | str) -> DuelRecord:
    """Apply ``action`` for ``user_id`` if the duel is still at ``expected_version``.

    Raises ``DuelNotFound``, ``NotInDuel``, ``NotYourTurn``, ``DuelStale`` or the engine's ``IllegalDuelAction``.
    A resignation (``R<seat>``) is taken from the resigning player at any time, whoever's turn it is.
    """
    if isinstance(action, str):
        action = DuelAction.parse(action)
    record = await load_duel(store, duel_id)
    seat = record.seat(user_id)
    if seat is None:
        raise NotInDuel()
    if record.status != PLAYING or record.version != expected_version:
        raise DuelStale(duel_id, expected_version, record.version, record.status)
    if action.kind == "R":
        if action.player != seat:
            raise DuelError(RESIGN_FOR_OTHER)
    elif record.state.actor != seat:
        raise NotYourTurn()
    state = apply(record.state, action)
    now_us = to_micros(store.now())
    status = (ABANDONED if action.kind == "R" else WON) if state.over else PLAYING
    snapshot = duel_to_json(state)

    async def body(tx: Tx):
        if await tx.execute(MOVE, (expected_version + 1, snapshot, status, state.winner,
                                   now_us if state.over else None, duel_id, expected_version)) != 1:
            return False
        await tx.execute(APPEND_ACTION, (duel_id, expected_version + 1, action.code, user_id, now_us))
        return True

    if not await store.db.write(body):
        current = await load_duel(store, duel_id)
        raise DuelStale(duel_id, expected_version, current.version, current.status)
    return await load_duel(store, duel_id)


@time_limited
class Duels:
    """The duels of a store (``store.duels``): the functions above on it, each within the store's time limit
    (``storage.time_limit``) like every other store call."""

    def __init__(self, store: Store) -> None:
        self._store = store

    @property
    def wait(self) -> float | None:
        return getattr(self._store, "wait", None)

    async def create_challenge(self, challenger: int, opponent: int, guild_id: int | None, channel_id: int | None,
                               seed: int | None = None,
                               names: tuple[str | None, str | None] = (None, None)) -> DuelRecord:
        return await create_challenge(self._store, challenger, opponent, guild_id, channel_id, seed, names)

    async def load_duel(self, duel_id: int) -> DuelRecord:
        return await load_duel(self._store, duel_id)

    async def open_duel(self, user_id: int) -> DuelRecord | None:
        return await open_duel(self._store, user_id)

    async def answer_challenge(self, duel_id: int, user_id: int, accept: bool) -> DuelRecord:
        return await answer_challenge(self._store, duel_id, user_id, accept)

    async def play_duel(self, duel_id: int, user_id: int, expected_version: int,
                        action: DuelAction | str) -> DuelRecord:
        return await play_duel(self._store, duel_id, user_id, expected_version, action)

    async def set_duel_message(self, duel_id: int, channel_id: int | None, message_id: int | None) -> None:
        await set_duel_message(self._store, duel_id, channel_id, message_id)


def resign_action(record: DuelRecord, user_id: int) -> DuelAction:
    seat = record.seat(user_id)
    if seat is None:
        raise NotInDuel()
    return resign(seat)


async def set_duel_message(store: Store, duel_id: int, channel_id: int | None, message_id: int | None) -> None:
    async def body(tx: Tx):
        await tx.execute(SET_MESSAGE, (channel_id, message_id, duel_id))
    await store.db.write(body)


async def _record(store: Store, row) -> DuelRecord:
    (duel_id, guild_id, channel_id, message_id, player0, player1, seed, status, winner, version, snapshot,
     created_at, started_at, ended_at, name0, name1) = row
    state = await _state(store, duel_id, seed, version, snapshot)
    return DuelRecord(id=duel_id, guild_id=guild_id, channel_id=channel_id, message_id=message_id,
                      players=(player0, player1), seed=seed, status=status, winner=winner, version=version,
                      state=state, created_at=from_micros(created_at), started_at=from_micros(started_at),
                      ended_at=from_micros(ended_at), names=(name0, name1))


async def _state(store: Store, duel_id: int, seed: int, version: int, snapshot: str) -> DuelState:
    """The snapshot when it is sound and current; otherwise the state rebuilt from the seed and the action log."""
    try:
        state = duel_from_json(snapshot)
        if state.version == version and state.seed == seed:
            return state
    except DuelSnapshotError:
        pass
    rows = await store.db.read(DUEL_LOG, (duel_id,))
    try:
        state = replay(seed, [code for (code,) in rows])
    except IllegalDuelAction as exc:
        raise CorruptGame(duel_id, f"duel log does not replay: {exc}") from exc
    if state.version != version:
        raise CorruptGame(duel_id, f"duel log holds {state.version} moves, the duel says {version}")
    return state
