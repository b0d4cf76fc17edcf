"""Who may replay what, and how it is shown: the application layer's half of a replay (the drawing is
``app.replays.gifs``'s).

A finished solo game (normal, daily, practice; won, died or given up) has a replay; a game still being played has
none yet. A daily's deal is the day's challenge: while its day runs only its player may see the replay, privately,
and par's line joins it ("you against par") only once the day is over. A duel played to its end (won or resigned)
has a replay anyone who sees its board may watch; asked for by its number, only its own players get it (a duel
played in another server is not shown by its number). A refusal is a ``ReplayRefused`` with one of the codes below.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from app.errors import ReplayRefused
from app.play import duels
from games.engine import Action, decode, whole_number
from games.engine.calendar import day_of
from storage import errors as store_errors
from storage.challenges import ChallengeNotFound
from storage.duels import DECLINED, DuelRecord
from storage.models import GameRecord

FINISHED = ("won", "dead", "abandoned")
DAILY_KINDS = ("daily", "practice")  # storage's kinds whose deal is a day's challenge

# Why a replay was refused (``ReplayRefused.code``).
NOT_OVER = "not_over"  # the game is still being played
DAY_RUNNING = "day_running"  # someone else's daily whose day still runs: it would give the deal away
NOT_YOURS = "not_yours"  # the game asked for by its id is not the player's
NO_ATTEMPT = "no_attempt"  # the player has no attempt at the daily asked for (``number``)
NOTHING_YET = "nothing_yet"  # the player has no finished game to replay
DUEL_NOT_OVER = "duel_not_over"  # the duel is still being played
NEVER_PLAYED = "never_played"  # a declined challenge: no duel was played
NOT_YOUR_DUEL = "not_your_duel"  # no duel of that number that the player played (``number``)
CHALLENGE_RUNNING = "challenge_running"  # a game of a challenge still running: its deal is everyone's race


def replayable(record: GameRecord) -> bool:
    """A finished game whose moves can be read: its message offers a Replay."""
    return record.status in FINISHED and record.rules is not None and not record.damaged


def day_running(record: GameRecord, now: datetime) -> bool:
    """A daily (or practice) game whose day is not over at ``now``: its deal is still the day's challenge."""
    return record.kind in DAILY_KINDS and record.day is not None and record.day >= day_of(now)


async def check_game(store, record: GameRecord, user_id: int, now: datetime) -> bool:
    """``check_solo``, and ``CHALLENGE_RUNNING`` for a game of a challenge not closed yet, whoever asks (a replay
    button written by hand reaches here too): its deal is everyone's race until the challenge closes."""
    private = check_solo(record, user_id, now)
    if record.challenge_id is not None:
        try:
            challenge = await store.challenges.get(record.challenge_id)
        except ChallengeNotFound:  # forgotten with its players' data: nothing left to race
            return private
        if challenge.running:
            raise ReplayRefused(CHALLENGE_RUNNING)
    return private


async def pars_line(store, record: GameRecord, now: datetime) -> tuple[Action, ...] | None:
    """Par's line of a daily's deal once its day is over (never before), when it was solved; else None."""
    if record.kind not in DAILY_KINDS or record.day is None or day_running(record, now):
        return None
    challenge = await store.get_daily(record.day)
    if challenge is None or not challenge.par_line:
        return None
    return tuple(decode(challenge.par_line))


def check_solo(record: GameRecord, user_id: int, now: datetime) -> bool:
    """Whether ``user_id`` may watch ``record``'s replay now, and privately (True) or not; raises ``NOT_OVER``
    or ``DAY_RUNNING``. Asked before the request is answered, so a refusal can be private."""
    if record.status not in FINISHED:
        raise ReplayRefused(NOT_OVER)
    private = day_running(record, now)
    if private and user_id != record.user_id:
        raise ReplayRefused(DAY_RUNNING)
    return private


async def asked_game(store, user_id: int, *, game: str | None = None, daily: int | None = None) -> GameRecord:
    """The game ``/replay`` asks for: the player's attempt at ``daily``, the game a typed or suggested id names
    (``game``), or else their latest finished game. ``NO_ATTEMPT``, ``NOT_YOURS``, ``NOTHING_YET``."""
    if daily is not None:
        record = await store.daily_attempt(user_id, daily)
        if record is None:
            raise ReplayRefused(NO_ATTEMPT, number=daily)
        return record
    if game is not None:
        record = await _named_game(store, game)
        if record is None or record.user_id != user_id:
            raise ReplayRefused(NOT_YOURS)
        return record
    latest = next((r for r in await store.recent_games(user_id, SUGGESTED) if r.status in FINISHED and not r.damaged),
                  None)
    if latest is None:
        raise ReplayRefused(NOTHING_YET)
    return latest


SUGGESTED = 25  # the recent games looked through (and offered: Discord shows at most 25 choices)


async def _named_game(store, typed: str) -> GameRecord | None:
    """The game a typed or suggested id names, or None when it names none."""
    game_id = whole_number(typed.strip())
    if game_id is None or game_id >= 2**63:  # (0-9 only, and an id the database can hold)
        return None
    try:
        return await store.load_game(game_id)
    except store_errors.GameNotFound:
        return None


def suggested(records: Iterable[GameRecord]) -> list[GameRecord]:
    """The games worth offering to replay, in the order given: finished and readable."""
    return [r for r in records if replayable(r)]


def check_duel(record: DuelRecord) -> DuelRecord:
    """``record`` if it has a replay: ``DUEL_NOT_OVER``, or ``NEVER_PLAYED`` for a declined challenge."""
    if not duels.finished(record):
        raise ReplayRefused(NEVER_PLAYED if record.status == DECLINED else DUEL_NOT_OVER)
    return record


async def duel_replay(store, duel_id: int) -> DuelRecord:
    """The duel of a Replay button (anyone who sees its board), if it has a replay; the store's ``DuelError``
    when it no longer exists."""
    return check_duel(await store.duels.load_duel(duel_id))


async def own_duel_replay(store, duel_id: int, user_id: int) -> DuelRecord:
    """One of the player's own duels by its number: ``NOT_YOUR_DUEL`` for any other (or none)."""
    record = await duels.own_duel(store, duel_id, user_id)
    if record is None:
        raise ReplayRefused(NOT_YOUR_DUEL, number=duel_id)
    return check_duel(record)


async def kept_name(store, user_id: int) -> str | None:
    """The name kept with the player's games, for a replay's first frame; None for games from before names were
    kept."""
    return (await store.names_for([user_id])).get(user_id)


__all__ = ["DAILY_KINDS", "DAY_RUNNING", "DUEL_NOT_OVER", "FINISHED", "NEVER_PLAYED", "NOTHING_YET", "NOT_OVER",
           "NOT_YOURS", "NOT_YOUR_DUEL", "NO_ATTEMPT", "SUGGESTED", "asked_game", "check_duel",
           "check_solo", "day_running", "duel_replay", "kept_name", "own_duel_replay", "pars_line", "replayable",
           "suggested"]
