"""The values ``Store`` hands out: frozen dataclasses with aware UTC datetimes.

The database keeps times as integer microseconds since the Unix epoch (UTC); ``to_micros`` and
``from_micros`` are the only conversions, so a naive datetime never gets in or out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from typing import overload

from games.engine import Rules, State, whole_number
from games.engine.tally import DAILY, NORMAL, PRACTICE
from storage.errors import CorruptGame

# Game kinds and slots (what each adds to the boards: games.engine.tally).
KINDS = (NORMAL, DAILY, PRACTICE)
SLOTS = (NORMAL, DAILY)  # daily and practice games share the 'daily' slot

# Game statuses (the engine's three plus abandoned).
PLAYING = "playing"
WON = "won"
DEAD = "dead"
ABANDONED = "abandoned"
# Why a game stopped before the engine ended it (GameRecord.ended_by): given up, or its daily's day ended first.
GAVE_UP = "abandoned"
EXPIRED = "expired"

# The columns of ``games`` a ``GameRecord`` is read from, in the order the store unpacks them.
GAME_COLUMNS = ("id, user_id, guild_id, channel_id, message_id, kind, day, rules_json, seed, deck, version, status, "
                "score, started_at, ended_at, snapshot, ended_by, hinted, challenge_id")

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICRO = timedelta(microseconds=1)


def slot_of(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    return NORMAL if kind == NORMAL else DAILY


def to_micros(moment: datetime) -> int:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("a naive datetime has no place here: pass a timezone-aware time")
    return (moment - _EPOCH) // _MICRO


@overload
def from_micros(value: int) -> datetime: ...
@overload
def from_micros(value: None) -> None: ...
@overload
def from_micros(value: int | None) -> datetime | None: ...


def from_micros(value: int | None) -> datetime | None:
    if value is None:
        return None
    return _EPOCH + timedelta(microseconds=value)


def hhmm_to_time(text: str | None) -> time | None:
    if text is None:
        return None
    hour, minute = text.split(":")
    return time(int(hour), int(minute), tzinfo=UTC)


def time_to_hhmm(value: time | str | None) -> str | None:
    """A post time as stored: ``'HH:MM'`` (UTC). Accepts a ``datetime.time`` or ``'H:MM'`` text."""
    if value is None:
        return None
    if isinstance(value, str):
        hour_text, _, minute_text = value.strip().partition(":")
        hour, minute = whole_number(hour_text, digits=2), whole_number(minute_text, digits=2)
        if hour is None or minute is None:
            raise ValueError(f"{value[:12]!r} is not a time: use HH:MM (UTC)")
        value = time(hour, minute)
    if value.tzinfo is not None and value.utcoffset() not in (None, timedelta(0)):
        raise ValueError("daily post times are UTC")
    return f"{value.hour:02d}:{value.minute:02d}"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One stored game.

    ``state`` is the engine state after ``version`` actions. For a game whose stored data is damaged
    (``damage`` is the reason) reading ``state`` raises ``CorruptGame`` — the record is still returned by
    ``Store.active_game`` so the player can abandon it — and ``rules`` may be None.
    ``status`` is the store's: ``playing``, ``won``, ``dead`` or ``abandoned`` (an abandoned game's engine
    state is still ``playing``).
    """

    id: int
    user_id: int
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    kind: str
    day: int | None
    rules: Rules | None
    seed: int | None
    version: int
    status: str
    score: int | None
    started_at: datetime
    ended_at: datetime | None
    deck: str = ""  # card codes, top first
    damage: str | None = None
    ended_by: str | None = None  # GAVE_UP or EXPIRED for an abandoned game (a counted daily is then scored)
    # A coach hint was taken, as read with the row or at the move's commit; None where not known (ask the store's
    # ``is_hinted``). A click shows the game it just read or moved without a read of its own for the flag.
    hinted: bool | None = field(default=None, compare=False)
    challenge_id: int | None = None  # a challenge's game (storage/challenges.py): a normal game beside the slot's
    _state: State | None = field(default=None, repr=False, compare=False)

    @property
    def state(self) -> State:
        if self._state is None:
            raise CorruptGame(self.id, self.damage or "no state")
        return self._state

    @property
    def damaged(self) -> bool:
        return self._state is None

    @property
    def slot(self) -> str:
        return slot_of(self.kind)

    @property
    def playing(self) -> bool:
        return self.status == PLAYING

    @property
    def over(self) -> bool:
        return self.status != PLAYING

    @property
    def counted(self) -> bool:
        """On the boards and in the stats: normal games and counted dailies, not practice."""
        return self.kind != PRACTICE


@dataclass(frozen=True, slots=True)
class DailyChallenge:
    day: int
    seed: int
    rules: Rules
    par: int | None
    par_line: str | None
    created_at: datetime
    coach_score: int | None = None  # the coach's score, seeing only what a player sees (par sees every card)


@dataclass(frozen=True, slots=True)
class GuildSettings:
    guild_id: int
    daily_channel_id: int | None = None
    daily_time: time | None = None  # aware, UTC
    preset: str | None = None  # /scoundrel play's default here; None = the bot's configured default
    daily_role_id: int | None = None  # a role pinged by the daily post

    @property
    def daily_time_text(self) -> str | None:
        return None if self.daily_time is None else f"{self.daily_time.hour:02d}:{self.daily_time.minute:02d}"

    @property
    def daily_scheduled(self) -> bool:
        return self.daily_channel_id is not None and self.daily_time is not None


@dataclass(frozen=True, slots=True)
class DailyEntry:
    """One counted daily result. Boards hold the scored ones: won, dead, and forfeits (``ended_by`` set)."""

    rank: int
    user_id: int
    game_id: int
    score: int | None
    status: str
    ended_at: datetime | None
    guild_id: int | None
    ended_by: str | None = None  # GAVE_UP / EXPIRED: a forfeit, scored as no better than a death


@dataclass(frozen=True, slots=True)
class WeekEntry:
    """A player's week (the 7 days ending at the board's day) or month: the sum of their counted dailies' points
    (``games.engine.tally.day_points``); ``best`` is the best score."""

    rank: int
    user_id: int
    points: int
    days: int  # counted dailies with a score in those days (won, dead, or forfeited)
    wins: int
    best: int
    forfeits: int = 0  # of those days, how many were given up or ran out of time


@dataclass(frozen=True, slots=True)
class AllTimeEntry:
    rank: int
    user_id: int
    wins: int
    games: int
    best: int | None
    average: float | None
    points: int = 0  # of the counted dailies among these games: what the all-time daily board ranks by


@dataclass(frozen=True, slots=True)
class RulesStats:
    rules_key: str
    rules_name: str  # the preset name or 'custom'
    games: int
    wins: int
    best: int | None
    average: float | None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class UserStats:
    """Normal games and counted dailies that ended (won, dead or abandoned); practice games never count.

    ``games`` includes abandoned games (played and lost); ``best``/``average`` are over won/dead games only.
    """

    user_id: int
    guild_id: int | None
    games: int = 0
    wins: int = 0
    scored: int = 0
    best: int | None = None
    average: float | None = None
    by_rules: tuple[RulesStats, ...] = ()
    dailies: RulesStats | None = None  # counted dailies only (any rules)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def losses(self) -> int:
        return self.games - self.wins
