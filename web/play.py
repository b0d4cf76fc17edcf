"""The game's use cases the table needs, over the store, exactly as the chat's commands and buttons use it.

One game behind both: the same rows, the same version, the same counted daily attempt (the store's UNIQUE
user + day), the same boards. Nothing is kept in memory, so several processes can serve the table from one
database. Errors are ``PlayError`` with an HTTP status and an English message id for the player.
"""

from __future__ import annotations

from games.engine import Action, ActionParseError, IllegalAction, deal, new_seed, preset
from games.engine.calendar import day_of
from games.i18n import N_
from scoundrel.daily import DAILY_RULES, daily_seed
from storage.errors import (
    ActiveGameExists,
    AttemptAlreadyUsed,
    CorruptGame,
    GameNotFound,
    NotYourGame,
    StaleVersion,
)
from storage.models import DAILY, NORMAL, PRACTICE

KINDS = (NORMAL, DAILY)


class PlayError(Exception):
    """A request the game refuses: ``status`` (HTTP) and ``message`` (English, a catalogue id)."""

    def __init__(self, status: int, message: str, **fields) -> None:
        super().__init__(message)
        self.status, self.message, self.fields = status, message, fields


NOT_FOUND = N_("There is no such game.")
NO_DAILY = N_("The daily challenge is turned off on this bot.")


async def own_game(store, player_id: int, game_id: int):
    """The player's game ``game_id``; someone else's is answered exactly as a game that does not exist."""
    try:
        record = await store.get_game(game_id)
    except GameNotFound:
        raise PlayError(404, NOT_FOUND) from None
    if record.user_id != player_id:
        raise PlayError(404, NOT_FOUND)
    if record.damaged:
        raise PlayError(409, N_("its saved data is damaged"))
    return record


def today(store) -> int:
    return day_of(store.now())


async def todays_challenge(store, day: int):
    """The day's challenge, recorded on first use (the seed comes from the bot's secret), as the chat does."""
    challenge = await store.get_daily(day)
    if challenge is None:
        challenge = await store.put_daily(day, daily_seed(await store.daily_secret(), day), DAILY_RULES)
    return challenge


async def current(store, player_id: int, kind: str):
    """The player's game of ``kind`` in progress; for the daily, today's counted attempt even when finished
    (so the table shows its result), or None."""
    record = await store.active_game(player_id, kind)
    if record is not None and kind == DAILY and record.day is not None and record.day != today(store):
        await store.expire_dailies(today(store))  # an attempt left running when its day ended is closed
        record = None
    if record is None and kind == DAILY:
        record = await store.daily_attempt(player_id, today(store))
    return None if record is None or record.damaged else record


async def start(store, player_id: int, name: str, kind: str, preset_name: str = "classic", *,
                daily_enabled: bool = True):
    """Start a game of ``kind`` (``normal`` with ``preset_name``, or today's counted ``daily``) or hand back the
    one in progress: one game per slot, as in chat."""
    if kind == NORMAL:
        rules = preset(preset_name)
        seed = new_seed()
        try:
            return await store.create_game(player_id, None, None, rules, seed, deal(rules, seed), NORMAL)
        except ActiveGameExists as exists:
            return exists.game
    if not daily_enabled:
        raise PlayError(403, NO_DAILY)
    existing = await current(store, player_id, DAILY)
    if existing is not None:
        return existing
    day = today(store)
    challenge = await todays_challenge(store, day)
    try:
        record = await store.create_game(player_id, None, None, challenge.rules, None,
                                         deal(challenge.rules, challenge.seed), DAILY, day=day)
    except AttemptAlreadyUsed as used:
        return await store.get_game(used.game_id)
    except ActiveGameExists as exists:  # a practice replay of the day, or a racing request
        return exists.game
    await store.keep_name(record.id, name)  # for the boards of every server, as the chat keeps it
    return record


async def move(store, player_id: int, game_id: int, version: int, code: str):
    """Apply the action ``code`` if the game is still at ``version``: (the record, whether it moved). A stale
    version moves nothing and gets the game as it stands. The store checks whose game it is and its version in
    the move's own transaction: no read before it."""
    try:
        action = Action.parse(code)
    except ActionParseError:
        raise PlayError(400, N_("That is not a move of this game.")) from None
    try:
        return await store.play(game_id, player_id, version, action), True
    except (GameNotFound, NotYourGame):
        raise PlayError(404, NOT_FOUND) from None
    except CorruptGame:
        raise PlayError(409, N_("its saved data is damaged")) from None
    except StaleVersion:  # (DayOver too: the day ended first and the store closed the attempt)
        return await own_game(store, player_id, game_id), False
    except IllegalAction as illegal:
        raise PlayError(422, str(illegal), engine=True) from None


def day_running(store, record) -> bool:
    """A daily (or its practice) whose day is not over: its deal, par and line are still secret."""
    return record.kind in (DAILY, PRACTICE) and record.day is not None and record.day >= today(store)


async def known_par(store, record) -> int | None:
    """Par of a finished game's deal when it was solved, never while its daily's day runs."""
    if not record.state.over and record.status != "abandoned":
        return None
    if record.kind in (DAILY, PRACTICE) and record.day is not None:
        if day_running(store, record):
            return None
        daily = await store.get_daily(record.day)
        return daily.par if daily is not None else None
    found = await store.get_par(record.state.rules.key, record.state.start_deck)
    return found[0] if found else None
