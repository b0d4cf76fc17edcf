"""The table's requests as the application layer's use cases (``app.play.solo``, ``app.daily.attempt``),
the same ones the chat's commands and buttons call: one game behind both, the same rows, the same version, the
same counted daily attempt, the same boards. Nothing is kept in memory, so several processes can serve the table
from one database. A refusal is a ``PlayError`` with an HTTP status and an English message id for the player;
a move on a version the game has left is the application's ``StaleVersion``, answered by the routes.
"""

from __future__ import annotations

from app.challenges import play as challenges
from app.daily import attempt as daily_attempt
from app.errors import CorruptGame, GameNotFound, NotYourGame
from app.play import solo
from app.records import DAILY, NORMAL
from app.shown import Shown, shown_to
from games.engine import Action, ActionParseError, IllegalAction, preset
from games.i18n import N_

KINDS = (NORMAL, DAILY)
NOT_FOUND = N_("There is no such game.")
NO_DAILY = N_("The daily challenge is turned off on this bot.")
DAMAGED = N_("its saved data is damaged")


class PlayError(Exception):
    """A request the game refuses: ``status`` (HTTP) and ``message`` (English, a catalogue id)."""

    def __init__(self, status: int, message: str, **fields) -> None:
        super().__init__(message)
        self.status, self.message, self.fields = status, message, fields


async def own_game(store, player_id: int, game_id: int):
    """The player's game ``game_id``; someone else's is answered exactly as a game that does not exist."""
    try:
        return await solo.own_game(store, game_id, player_id)
    except (GameNotFound, NotYourGame):
        raise PlayError(404, NOT_FOUND) from None
    except CorruptGame:
        raise PlayError(409, DAMAGED) from None


def today(store) -> int:
    return daily_attempt.today(store)


async def current(store, player_id: int, kind: str):
    """The player's game of ``kind`` in progress; for the daily, today's counted attempt even when finished (so
    the table shows its result), or None. (Reading starts and closes nothing: ``start`` does.)"""
    if kind == NORMAL:
        record = await solo.current_game(store, player_id)
        return None if record is None or record.damaged else record
    return await daily_attempt.todays_game(store, player_id)


async def challenge_here(store, player_id: int, channel_id: int | None):
    """The player's game of a running challenge they joined in ``channel_id`` (where Discord says the table was
    opened), finished or not, while the challenge runs; None when there is none."""
    record = await challenges.game_here(store, channel_id, player_id)
    return None if record is None or record.damaged else record


async def start(store, player_id: int, name: str, kind: str, preset_name: str = "classic", *,
                daily_enabled: bool = True, guild_id: int | None = None, channel_id: int | None = None):
    """Start a game of ``kind`` (``normal`` with ``preset_name``, or today's counted ``daily``) or hand back the
    one in progress (for the daily, the attempt already played): one game per slot, as in chat. ``guild_id``: the
    server the table was opened in, as Discord says (a daily counts on its board). A daily whose par is not
    known yet has it solved in the background (``app.events.par_wanted``)."""
    if kind == NORMAL:
        record = (await solo.start_game(store, player_id, preset(preset_name), guild_id=guild_id,
                                        channel_id=channel_id)).record
    elif not daily_enabled:
        raise PlayError(403, NO_DAILY)
    else:
        turn = await daily_attempt.open_daily(store, player_id, lambda: daily_attempt.now(store), name=name,
                                              guild_id=guild_id, channel_id=channel_id)
        if turn.outcome == daily_attempt.DAMAGED:
            raise PlayError(409, DAMAGED)
        if turn.record is None:  # the attempt was used, and cannot be read
            raise PlayError(409, DAMAGED)
        record = turn.record
    if record.damaged:
        raise PlayError(409, DAMAGED)
    return record


async def move(store, player_id: int, game_id: int, version: int, code: str) -> solo.Moved:
    """Apply the action ``code`` if the game is still at ``version``: what it led to (``app.play.solo.Moved``). A
    stale version moves nothing: ``StaleVersion`` (``GameOver``, ``DayOver``) carries the game as it stands."""
    try:
        action = Action.parse(code)
    except ActionParseError:
        raise PlayError(400, N_("That is not a move of this game.")) from None
    try:
        return await solo.move(store, game_id, player_id, version, action)
    except (GameNotFound, NotYourGame):
        raise PlayError(404, NOT_FOUND) from None
    except CorruptGame:
        raise PlayError(409, DAMAGED) from None
    except IllegalAction as illegal:
        raise PlayError(422, str(illegal), engine=True) from None


async def shown(store, record, player_id: int) -> Shown:
    """What the player may see of their game at the table and be offered under it: the answer chat draws too
    (``app.shown``)."""
    return await shown_to(store, record, player_id, daily_attempt.now(store))
