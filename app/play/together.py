"""Friends at the same table: who is in one Activity instance, and what each may see of the others.

The table keeps, per instance, the players there now and the game each is showing (``Tables``: in this process's
memory; a seat not seen for ``SEAT_LIFE`` is gone). What a player sees of another is decided here, one view per
viewer, from the games as stored: their name always; their room and health while they play today's daily or a
game of the same challenge as the viewer's, and their score once that game is over. Never a card, never a move:
a strip carries no more than the standings of a challenge do, so nothing in it gives a deal away before its end.

A change (a seat taken or left, a move in a seated player's game) wakes whoever follows the instance
(``Tables.wait``), so the table pushes the new strip within moments. Moves are heard through the application's
event (``app.events.listen_moves``: a move from chat, the table or a challenge's close alike), which carries the
game as committed; a move made by another process raises no event here, so the games of an instance someone
follows are read again every second or so (``Tables.recheck``). The strip is built once per change for each kind
of viewer (``View``), not once per viewer.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
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


@dataclass(frozen=True)
class View:
    """What every viewer of one kind (those in the same challenge, or in none) may see at one version of an
    instance: each seat as ``shown``, built once however many follow the table. ``drawn``: a surface's drawing of
    it, kept with it (the table's JSON of each friend), so each viewer's strip is only a join."""

    version: int
    friends: tuple[Friend, ...]  # every seat, the viewer's own too: each viewer leaves themselves out
    drawn: dict = field(default_factory=dict, compare=False)

    def without(self, viewer_id: int) -> list[Friend]:
        return [friend for friend in self.friends if friend.player_id != viewer_id]


class Instance:
    def __init__(self) -> None:
        self.seats: dict[int, Seat] = {}
        self.version = 0
        self.changed = asyncio.Event()
        # The seated games as last known, shared by every viewer: a move heard (``Tables.moved``) replaces its game
        # here, so a change costs no read; a game not known yet is read once (under ``reading``).
        self.games: dict[int, GameRecord | None] = {}
        self.reading = asyncio.Lock()
        self.views: dict[tuple, View] = {}  # this version's, by the kind of viewer
        self.checked = 0.0  # when the seated games were last read again (``Tables.recheck``)

    def bump(self) -> None:
        self.version += 1
        self.views = {}
        self.changed.set()
        self.changed = asyncio.Event()


class Tables:
    """Every instance this process serves; ``clock``: monotonic seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.instances: OrderedDict[str, Instance] = OrderedDict()
        self.sitting: dict[int, set[str]] = {}  # player → the instances where they sit (a move finds them at once)

    def _instance(self, instance_id: str) -> Instance:
        found = self.instances.get(instance_id)
        if found is None:
            found = self.instances[instance_id] = Instance()
            while len(self.instances) > INSTANCES:
                dropped, old = self.instances.popitem(last=False)
                for player in old.seats:
                    self._stand(player, dropped)
        self.instances.move_to_end(instance_id)
        return found

    def _stand(self, player_id: int, instance_id: str) -> None:
        places = self.sitting.get(player_id)
        if places is not None:
            places.discard(instance_id)
            if not places:
                del self.sitting[player_id]

    def sit(self, instance_id: str, player_id: int, name: str, game_id: int | None) -> Instance:
        """The player is at the table of ``instance_id``, showing ``game_id`` (None: no game yet)."""
        instance = self._instance(instance_id)
        seat = instance.seats.get(player_id)
        if seat is None or seat.game_id != game_id:
            instance.seats[player_id] = Seat(name, game_id, self.clock())
            self.sitting.setdefault(player_id, set()).add(instance_id)
            instance.bump()
        else:
            seat.seen = self.clock()
        self._tidy(instance_id, instance)
        return instance

    def leave(self, instance_id: str, player_id: int) -> None:
        instance = self.instances.get(instance_id)
        if instance is not None and instance.seats.pop(player_id, None) is not None:
            self._stand(player_id, instance_id)
            instance.bump()

    def moved(self, record: GameRecord) -> None:
        """A move in ``record`` (as committed): every instance where its player sits with it hears of it, and
        keeps the game as it now stands (no read)."""
        for instance_id in list(self.sitting.get(record.user_id, ())):
            instance = self.instances.get(instance_id)
            seat = instance.seats.get(record.user_id) if instance is not None else None
            if instance is None or seat is None or seat.game_id != record.id:
                continue
            known = instance.games.get(record.id)
            if known is None or known.version <= record.version:
                instance.games[record.id] = record
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

    async def recheck(self, store: Store, instance_id: str, every: float) -> None:
        """Read the seated games again, once every ``every`` seconds per instance however many ask: a move made by
        another process (a shard's chat, another server behind the proxy) raises no event here, so it is found
        this way, and the instance changes if any game did."""
        instance = self.instances.get(instance_id)
        if instance is None or instance.reading.locked() or self.clock() - instance.checked < every:
            return
        instance.checked = self.clock()
        async with instance.reading:
            changed = False
            for game_id, known in list(instance.games.items()):
                now = await _game(store, game_id)
                if now is not None and (known is None or _newer(now, known)):
                    instance.games[game_id] = now
                    changed = True
            if changed:
                instance.bump()

    def _tidy(self, instance_id: str, instance: Instance) -> None:
        gone = [player for player, seat in instance.seats.items() if self.clock() - seat.seen > SEAT_LIFE]
        for player in gone:
            del instance.seats[player]
            self._stand(player, instance_id)
        if gone:
            instance.bump()

    async def view(self, store: Store, instance_id: str, viewer_id: int, now: datetime) -> View:
        """The table as ``viewer_id`` may see it at ``now`` (their own seat included): shared by every viewer of
        the same kind until the instance changes."""
        instance = self._instance(instance_id)
        self._tidy(instance_id, instance)
        seats = list(instance.seats.items())[:SEATS]
        wanted = [seat.game_id for _, seat in seats if seat.game_id is not None and seat.game_id not in instance.games]
        if wanted:
            async with instance.reading:  # one reader: the others find the games read
                for game_id in wanted:
                    if game_id not in instance.games:
                        instance.games[game_id] = await _game(store, game_id)
                seated = {seat.game_id for seat in instance.seats.values()}
                for game_id in [known for known in instance.games if known not in seated]:
                    del instance.games[game_id]
        mine = instance.seats.get(viewer_id)
        own = instance.games.get(mine.game_id) if mine is not None and mine.game_id is not None else None
        key = (own.challenge_id if own is not None else None, day_of(now))
        found = instance.views.get(key)
        if found is None or found.version != instance.version:
            games = instance.games
            friends = tuple(shown(player_id, seat.name, own,
                                  games.get(seat.game_id) if seat.game_id is not None else None, now)
                            for player_id, seat in seats)
            found = instance.views[key] = View(instance.version, friends)
        return found

    async def strip(self, store: Store, instance_id: str, viewer_id: int, now: datetime) -> list[Friend]:
        """Everyone else at the table, as ``viewer_id`` may see them at ``now``."""
        return (await self.view(store, instance_id, viewer_id, now)).without(viewer_id)


def _newer(now: GameRecord, known: GameRecord) -> bool:
    """``now`` is a later state of the game than ``known``: moved on, or given up (which ends a game at the version
    it had: only its status says so)."""
    return now.version > known.version or (now.version == known.version and now.status != known.status)


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


__all__ = ["Friend", "SEAT_LIFE", "Tables", "View", "shown", "together"]
