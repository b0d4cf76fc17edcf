"""The daily, whatever shows it: the counted attempt and its day, and the practice replays after it.

Each player has one counted attempt per UTC day (``Store.create_game`` with kind ``daily``: a second one is
refused) and, once it is over, may replay the same deal as practice, which never reaches a board. A daily has its
day: an attempt (or practice) left unfinished when its day ended is closed, not carried over, and scored as if the
player had died there. ``open_daily`` decides what a request to play the daily gets: the game in progress resumed,
the counted attempt started, or a refusal with the attempt already used; ``open_practice`` the same for practice.
Both take the clock (a callable returning aware UTC time) and return a ``DailyTurn``; the surfaces word it. A daily
started while its par is not known yet (the first day, a bot that was down) raises ``app.events.par_wanted``: the
process has it solved in the background, whichever surface started the game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from app import events
from app.daily.days import day_of
from app.daily.deal import daily_deck, todays_challenge
from app.errors import NOT_OPEN, PAST_DAY, PracticeRefused
from storage import errors as store_errors
from storage.models import DAILY, PRACTICE, GameRecord
from storage.store import Store

log = logging.getLogger(__name__)

# What a request to play got (``DailyTurn.outcome``).
STARTED = "started"  # the counted attempt (or a practice replay) was started: ``record``
RESUMED = "resumed"  # the daily game in progress goes on: ``record``
USED = "used"  # the day's counted attempt was used already: ``record`` is it (None if it cannot be found)
DAMAGED = "damaged"  # the daily game in progress was damaged beyond playing: closed, and logged


@dataclass(frozen=True)
class Closed:
    """A daily game left unfinished when its day ended, closed now: its kind (``daily`` or ``practice``), day and
    forfeit score (None when it has none, as a practice replay)."""

    kind: str
    day: int
    score: int | None


@dataclass(frozen=True)
class DailyTurn:
    outcome: str  # STARTED, RESUMED, USED or DAMAGED
    day: int  # today's daily
    record: GameRecord | None
    closed: Closed | None = None  # an earlier day's game, closed on the way


async def open_daily(store: Store, user_id: int, clock: Callable[[], datetime], *, guild_id: int | None = None,
                     channel_id: int | None = None, name: str | None = None) -> DailyTurn:
    """Play today's daily: resume the daily game in progress, or start the counted attempt (``name``, the
    player's name now, is kept with it for the boards), or say the attempt was used (``USED``)."""
    today = day_of(clock())
    closed = None
    active = await store.active_game(user_id, DAILY)
    if active is not None and active.day is not None and active.day != today:
        # Day boundaries are UTC: an attempt left unfinished when its day ended is closed, not carried over (the
        # midnight sweep usually got there first), and scored as if the player had died there.
        ended = {game.id: game for game in await store.expire_dailies(today)}.get(active.id) \
            or await store.get_game(active.id)
        closed = Closed(active.kind, active.day, ended.score)
        active = None
    if active is not None:
        if active.damaged:
            log.error("daily game %s of user %s is damaged (%s); closing it", active.id, user_id, active.damage)
            await store.abandon(active.id, user_id)
            return DailyTurn(DAMAGED, today, active, closed)
        return DailyTurn(RESUMED, today, active, closed)
    challenge = await todays_challenge(store, today)
    if challenge.par is None:
        events.par_wanted(store, today)
    try:
        record = await store.create_game(user_id, guild_id, channel_id, challenge.rules, None,
                                         daily_deck(challenge), DAILY, day=today)
    except store_errors.AttemptAlreadyUsed as used:
        counted = await store.get_game(used.game_id) if used.game_id is not None else None
        return DailyTurn(USED, today, counted, closed)
    except store_errors.ActiveGameExists as exists:  # a second request that raced this one started it first
        return DailyTurn(RESUMED, today, exists.game, closed)  # type: ignore[arg-type]
    log.info("user %s started daily %s (game %s)", user_id, today, record.id)
    if name:  # kept with the result for the boards of every server
        await store.keep_name(record.id, name)
    return DailyTurn(STARTED, today, record, closed)


async def open_practice(store: Store, user_id: int, day: int, counted_game_id: int,
                        clock: Callable[[], datetime], *, guild_id: int | None = None,
                        channel_id: int | None = None) -> DailyTurn:
    """Replay daily ``day`` as practice, after the player's counted attempt ``counted_game_id`` at it: started,
    or the practice in progress resumed; while the counted attempt is still on, that attempt (``open_daily``).
    Raises ``PracticeRefused``."""
    today = day_of(clock())
    if day != today:
        raise PracticeRefused(PAST_DAY, day, today)
    counted = await store.get_game(counted_game_id)
    if counted.user_id != user_id or counted.kind != DAILY or counted.day != day:
        raise PracticeRefused(NOT_OPEN, day, today)
    if counted.status == "playing":  # finish the counted attempt first: this resumes it
        return await open_daily(store, user_id, clock, guild_id=guild_id, channel_id=channel_id)
    challenge = await todays_challenge(store, day)
    try:
        record = await store.create_game(user_id, guild_id, channel_id, challenge.rules, None,
                                         daily_deck(challenge), PRACTICE, day=day)
    except store_errors.ActiveGameExists as exists:
        return DailyTurn(RESUMED, today, exists.game)  # type: ignore[arg-type]
    return DailyTurn(STARTED, today, record)


def now(store: Store) -> datetime:
    """The time by the store's clock (a surface without a clock of its own, the table, asks it)."""
    return store.now()


def today(store: Store) -> int:
    """Today's daily number by the store's clock."""
    return day_of(now(store))


async def todays_game(store: Store, user_id: int) -> GameRecord | None:
    """The player's daily game of today: the one being played (the counted attempt or a practice), else the
    counted attempt even when finished (to show its result); None when there is neither, or it is damaged.
    Reading starts and closes nothing (``open_daily`` does): a game left from an earlier day is not today's."""
    day = today(store)
    record = await store.active_game(user_id, DAILY)
    if record is not None and record.day != day:
        record = None
    record = record or await store.daily_attempt(user_id, day)
    return None if record is None or record.damaged else record


__all__ = ["DAMAGED", "RESUMED", "STARTED", "USED", "Closed", "DailyTurn", "now", "open_daily", "open_practice",
           "today", "todays_game"]
