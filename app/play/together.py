"""Friends at the same table: who is in one Activity instance, and what each may see of the others.

The table keeps, per instance, the players there now and the game each is showing (``Tables``: in this process's
memory; a seat not seen for ``SEAT_LIFE`` is gone). What a player sees of another is decided here, one view per
viewer, from the games as stored: their name always; their room and health while they play today's daily or a
game of the same challenge as the viewer's, and their score once that game is over. Never a card, never a move:
a strip carries no more than the standings of a challenge do, so nothing in it gives a deal away before its end.

A change (a seat taken or left, a move in a seated player's game) wakes whoever follows the instance
(``Tables.wait``), so the table pushes the new strip within moments.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from app.daily.days import day_of
from storage.errors import GameNotFound
from storage.models import DAILY, DEAD, PLAYING, WON, GameRecord
from storage.store import Store

SEAT_LIFE = 30.0  # seconds a seat is kept without a sign of its player (a stream open, a poll, a move)
INSTANCES = 10_000  # instances kept at most (the least recently changed go first)
SEATS = 100  # players shown of one instance at most


@dataclass
class Seat:
    name: str
    game_id: int | None
    seen: float  # on the monotonic clock


@dataclass(frozen=True)
class Friend:
    """What one viewer may see of another player at the table."""

    player_id: int
    name: str
    playing: str | None  # "daily" or "challenge" when shown beside the viewer's, else None (name only)
    room: int | None = None
    health: int | None = None
    status: str | None = None  # playing, won, dead, abandoned
    score: int | None = None  # once the game is over


class Instance:
    def __init__(self) -> None:
        self.seats: dict[int, Seat] = {}
        self.version = 0
        self.changed = asyncio.Event()
        # The seated games as read at one version, shared by every viewer's strip: each change costs one read
        # of each game, however many players follow the table.
        self.games: tuple[int, dict[int, GameRecord | None]] = (-1, {})

    def bump(self) -> None:
        self.version += 1
        self.changed.set()
        self.changed = asyncio.Event()


class Tables:
    """Every instance this process serves; ``clock``: monotonic seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.instances: OrderedDict[str, Instance] = OrderedDict()

    def _instance(self, instance_id: str) -> Instance:
        found = self.instances.get(instance_id)
        if found is None:
            found = self.instances[instance_id] = Instance()
            while len(self.instances) > INSTANCES:
                self.instances.popitem(last=False)
        self.instances.move_to_end(instance_id)
        return found

    def sit(self, instance_id: str, player_id: int, name: str, game_id: int | None) -> Instance:
        """The player is at the table of ``instance_id``, showing ``game_id`` (None: no game yet)."""
        instance = self._instance(instance_id)
        seat = instance.seats.get(player_id)
        if seat is None or seat.game_id != game_id:
            instance.seats[player_id] = Seat(name, game_id, self.clock())
            instance.bump()
        else:
            seat.seen = self.clock()
        self._tidy(instance)
        return instance

    def leave(self, instance_id: str, player_id: int) -> None:
        instance = self.instances.get(instance_id)
        if instance is not None and instance.seats.pop(player_id, None) is not None:
            instance.bump()

    def moved(self, record: GameRecord) -> None:
        """A move in ``record``: every instance where its player sits with it hears of it."""
        for instance in self.instances.values():
            seat = instance.seats.get(record.user_id)
            if seat is not None and seat.game_id == record.id:
                instance.bump()

    async def wait(self, instance_id: str, version: int, at_most: float) -> int:
        """Until the instance changes from ``version`` (or ``at_most`` seconds pass): its version then."""
        instance = self._instance(instance_id)
        if instance.version == version:
            try:
                await asyncio.wait_for(instance.changed.wait(), at_most)
            except TimeoutError:
                pass
        return instance.version

    def _tidy(self, instance: Instance) -> None:
        gone = [player for player, seat in instance.seats.items() if self.clock() - seat.seen > SEAT_LIFE]
        for player in gone:
            del instance.seats[player]
        if gone:
            instance.bump()

    async def strip(self, store: Store, instance_id: str, viewer_id: int, now: datetime) -> list[Friend]:
        """Everyone else at the table, as ``viewer_id`` may see them at ``now``."""
        instance = self._instance(instance_id)
        self._tidy(instance)
        seats = list(instance.seats.items())[:SEATS]
        version, games = instance.games
        if version != instance.version:
            version = instance.version
            games = {seat.game_id: await _game(store, seat.game_id) for _, seat in seats if seat.game_id is not None}
            instance.games = (version, games)
        mine = instance.seats.get(viewer_id)
        own = games.get(mine.game_id) if mine is not None and mine.game_id is not None else None
        return [shown(player_id, seat.name, own, games.get(seat.game_id) if seat.game_id is not None else None, now)
                for player_id, seat in seats if player_id != viewer_id]


async def _game(store: Store, game_id: int | None) -> GameRecord | None:
    if game_id is None:
        return None
    try:
        record = await store.get_game(game_id)
    except GameNotFound:
        return None
    return None if record.damaged else record


def together(own: GameRecord | None, theirs: GameRecord, now: datetime) -> str | None:
    """Why ``theirs`` is shown beside the viewer's game: today's daily (anyone's), or the same challenge."""
    if theirs.kind == DAILY and theirs.day == day_of(now):
        return "daily"
    if theirs.challenge_id is not None and own is not None and own.challenge_id == theirs.challenge_id:
        return "challenge"
    return None


def shown(player_id: int, name: str, own: GameRecord | None, theirs: GameRecord | None, now: datetime) -> Friend:
    """The rule: a name, and for a game played together its room and health, its score once over; no card."""
    why = together(own, theirs, now) if theirs is not None else None
    if theirs is None or why is None:
        return Friend(player_id, name, None)
    state = theirs.state
    over = theirs.status != PLAYING
    return Friend(player_id, name, why, room=state.turn, health=max(0, state.health), status=theirs.status,
                  score=theirs.score if over and theirs.status in (WON, DEAD) else None)


__all__ = ["Friend", "SEAT_LIFE", "Tables", "shown", "together"]
