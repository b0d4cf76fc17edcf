"""A single-player game, whatever shows it: start one (or be offered the one in progress), find it, move, give up.

Plain async functions over the ``Store`` (``storage.Store``): they take ids and values and return
``GameRecord``s (or a ``Start``); a refusal is a coded error of ``app.errors``, never player text. The
Discord cogs, the terminal's ``play`` and the web Activity all play through these, so a game started in one can
be finished in another: one game, one version, the same durable commit (``Store.play``).

A move names the version the player saw (``GameRecord.version``, the number of moves made). A move on any other
version makes no move: it raises ``StaleVersion`` (``GameOver`` once the game has ended, ``DayOver`` when a
daily's day ended first) carrying the game as stored now, for the surface to show.
"""

from __future__ import annotations

import logging
from typing import NamedTuple

from app import events
from app.errors import DayOver, GameOver, NoGame, NotYourGame, StaleVersion
from games.engine import Action, Rules, deal, new_seed
from storage import errors as store_errors
from storage.models import DAILY, EXPIRED, NORMAL, PLAYING, GameRecord
from storage.store import Store

log = logging.getLogger(__name__)

# What ``start_game`` did (``Start.outcome``).
STARTED = "started"  # a new game
UNSHOWN = "unshown"  # made by an earlier request whose answer never reached the player: show it now
IN_PROGRESS = "in_progress"  # the player's game in progress, offered back (resume it or give it up)


class Start(NamedTuple):
    record: GameRecord
    outcome: str  # STARTED, UNSHOWN or IN_PROGRESS

    @property
    def to_show(self) -> bool:
        """The game is new to the player (started now, or never shown): show it as the game to play."""
        return self.outcome != IN_PROGRESS


async def start_game(store: Store, user_id: int, rules: Rules, seed: int | None = None, *,
                     guild_id: int | None = None, channel_id: int | None = None) -> Start:
    """Start a game of ``rules`` from ``seed`` (a new random deal when None), unless the player has one in
    progress: that one comes back instead (``IN_PROGRESS``), or as ``UNSHOWN`` when it was never shown."""
    seed = new_seed() if seed is None else seed
    try:
        record = await store.create_game(user_id, guild_id, channel_id, rules, seed, deal(rules, seed), NORMAL)
    except store_errors.ActiveGameExists as exists:
        game: GameRecord = exists.game  # type: ignore[assignment]  # (typed loosely in storage.errors)
        if game.message_id is None and game.version == 0 and not game.damaged:
            log.info("user %s gets game %s, made for an earlier request", user_id, game.id)
            return Start(game, UNSHOWN)
        return Start(game, IN_PROGRESS)
    log.info("user %s started game %s (%s)", user_id, record.id, rules.name)
    return Start(record, STARTED)


async def current_game(store: Store, user_id: int) -> GameRecord | None:
    """The player's game in progress (not a daily), or None. A damaged one comes back too, to be given up."""
    return await store.active_game(user_id, NORMAL)


async def game_in_progress(store: Store, user_id: int) -> GameRecord:
    """The player's game in progress (not a daily); ``NoGame`` when there is none."""
    record = await current_game(store, user_id)
    if record is None:
        raise NoGame(user_id)
    return record


async def own_game(store: Store, game_id: int, user_id: int, *, damaged: bool = False) -> GameRecord:
    """The game as stored now, if it is the player's (``NotYourGame`` if not; ``GameNotFound``). A damaged game
    raises ``CorruptGame`` unless ``damaged`` (a damaged game can still be given up)."""
    record = await (store.get_game(game_id) if damaged else store.load_game(game_id))
    if record.user_id != user_id:
        raise NotYourGame(record, user_id)
    return record


async def resumable_game(store: Store, game_id: int, user_id: int) -> GameRecord:
    """The player's game ``game_id`` if it is still being played (``GameOver`` if not), to show again."""
    record = await own_game(store, game_id, user_id)
    if record.status != PLAYING:
        raise GameOver(record, record.version)
    return record


def stale(record: GameRecord, seen: int) -> StaleVersion:
    """Why a move made on version ``seen`` cannot be made on ``record`` as stored (which is not at ``seen``, or
    not playing)."""
    if record.ended_by == EXPIRED and record.version == seen:  # closed at 00:00 under the player's eyes
        return DayOver(record, seen)
    if record.status != PLAYING:
        return GameOver(record, seen)
    return StaleVersion(record, seen)


def check_move(record: GameRecord, user_id: int, seen: int) -> None:
    """Raise what a move by ``user_id`` on version ``seen`` of ``record`` (as stored) would be refused for."""
    if record.user_id != user_id:
        raise NotYourGame(record, user_id)
    if record.version != seen or record.status != PLAYING:
        raise stale(record, seen)


class Moved(NamedTuple):
    """What a move led to: every surface follows it."""

    record: GameRecord  # the game after the move, committed
    ended: bool  # the move ended the game (won or died): what follows is its end, par and the offers under it
    daily_finished: bool  # it ended a counted daily: ``app.events.daily_finished`` has been raised


async def move(store: Store, game_id: int, user_id: int, seen: int, action: Action | str, *,
               loaded: GameRecord | None = None) -> Moved:
    """Play ``action`` (an ``Action`` or its code) on the player's game, made on version ``seen``: the one use case
    of a move, whichever surface asks. Returns what it led to (``Moved``); a move that ends a counted daily raises
    the event ``daily_finished`` here, and nowhere else.

    ``loaded``: the game as the caller has just read it (saves a read). Raises ``NotYourGame``, ``StaleVersion``
    / ``GameOver`` / ``DayOver`` with the game as stored (no move made), the engine's ``IllegalAction``,
    ``CorruptGame`` or ``GameNotFound``.
    """
    if loaded is not None:
        check_move(loaded, user_id, seen)
    # Without ``loaded`` nothing is read first: the store checks the owner, the status and the version as it moves
    # (from the game as this process last held it, else read), and a refusal is answered with the game as stored.
    try:
        record = await store.play(game_id, user_id, seen, action)
    except store_errors.MoveRefused as refused:  # the store's refusal, as this layer's coded error
        stored = await store.load_game(game_id)
        if refused.why == refused.NOT_YOURS:
            raise NotYourGame(stored, user_id) from None
        if refused.why == refused.DAY_OVER:  # the day ended before this move: the store closed the game instead
            raise DayOver(stored, seen) from None
        log.info("stale move on game %s at version %s", game_id, seen)  # a double click, or another device
        raise stale(stored, seen) from None
    ended = record.over
    counted = ended and record.kind == DAILY
    if counted:  # its server's daily post counts it, whoever made the move
        events.daily_finished(store, record)
    if record.challenge_id is not None:  # its standings follow, in their turn (never on this move's answer)
        events.challenge_moved(store, record)
    events.moved(store, record)  # whoever follows the game (the table's strip) hears of it, whatever surface moved
    return Moved(record, ended, counted)


async def game(store: Store, game_id: int) -> GameRecord:
    """A game as stored, whoever asks (a finished game's Replay is anyone's to ask for): ``GameNotFound``,
    ``CorruptGame``."""
    return await store.load_game(game_id)


async def recent_games(store: Store, user_id: int, limit: int = 10) -> list[GameRecord]:
    """The player's latest games, newest first (any kind and status): what a command suggests."""
    return await store.recent_games(user_id, limit)


async def posted(store: Store, game_id: int, channel_id: int, message_id: int) -> None:
    """The game is shown in message ``message_id`` of ``channel_id`` from now on: its current message, the one
    whose buttons play it (an older copy points there) and which a move made elsewhere redraws."""
    await store.set_message(game_id, channel_id, message_id)


async def game_to_give_up(store: Store, game_id: int, user_id: int) -> GameRecord:
    """The player's game ``game_id`` if it can be given up (still being played; a damaged one too): to ask
    first. ``NotYourGame``, ``GameOver``."""
    record = await own_game(store, game_id, user_id, damaged=True)
    if record.status != PLAYING:
        raise GameOver(record, record.version)
    return record


async def abandon(store: Store, game_id: int, user_id: int) -> GameRecord:
    """Give up the player's game in progress (a damaged one too); the game as it ended. ``NotYourGame``, or
    ``GameOver`` if it had ended already. A counted daily is scored as a forfeit (``games.engine.tally``)."""
    await game_to_give_up(store, game_id, user_id)
    await store.abandon(game_id, user_id)
    log.info("user %s abandoned game %s", user_id, game_id)
    record = await store.get_game(game_id)
    events.moved(store, record)
    return record


async def start_again(store: Store, finished_game_id: int, user_id: int, default: Rules, *,
                      guild_id: int | None = None, channel_id: int | None = None) -> Start:
    """A New game from a finished one's message, for whoever asks: the same rules (``default`` when the finished
    game's rules cannot be read), a new deal."""
    finished = await store.get_game(finished_game_id)  # a damaged record may still have its rules
    return await start_game(store, user_id, finished.rules or default, guild_id=guild_id, channel_id=channel_id)


__all__ = ["IN_PROGRESS", "STARTED", "UNSHOWN", "Moved", "Start", "abandon", "check_move", "current_game", "game",
           "game_in_progress", "game_to_give_up", "move", "own_game", "posted", "recent_games", "resumable_game",
           "stale", "start_again", "start_game"]
