"""The two-player duel, whatever shows it: challenge, answer, move on the version seen, resign; who sees which hand.

Plain async functions over the store's duels (``store.duels``, storage/duels.py): they take ids and values and
return ``DuelRecord``s (or a ``Hand`` / ``Move``). A refusal decided here is a ``DuelRefused`` (app.errors)
with one of the codes below; the store's own refusals (``DuelError``: not your turn, a race lost, a duel gone)
and the engine's (``IllegalDuelAction``) come through as they are. None carries player text: the surfaces word
them.

A move names the version of the hand it was made on. A move on any other version makes no move: it is refused
as ``STALE_HAND`` with the duel as stored now, to show the hand as it is. Resigning stands whatever has happened
meanwhile.
"""

from __future__ import annotations

import logging
import re
from typing import NamedTuple

from app.errors import DuelRefused, OpponentBusy, StaleHand
from games.duel import DuelAction
from storage import duels as stored
from storage.duels import (
    ABANDONED,
    CHALLENGED,
    DECLINED,
    PLAYING,
    WON,
    DuelBusy,
    DuelError,
    DuelNotFound,
    DuelRecord,
    resign_action,
)
from storage.forget import FORGOTTEN
from storage.store import Store

log = logging.getLogger(__name__)

# Why a duel request was refused here (``DuelRefused.code``).
SELF_DUEL = "self_duel"  # a challenge to oneself
BOT_OPPONENT = "bot_opponent"  # a challenge to a bot account
BUSY = OpponentBusy.code  # a player already has an open duel (``record``; ``user_id`` says whose)
OUTSIDER = "outsider"  # only the duel's two players may do that (``record``)
WAITING = "waiting"  # the challenger pressed Accept: only the challenged player accepts (``record``)
OVER = "over"  # the duel has ended (``record``)
STALE_HAND = StaleHand.code  # the move was made on an older hand: nothing was played (``record`` as stored)
NOT_A_PLAY = "not_a_play"  # a card-play choice that is not a card play's code

# Why the store refused (``DuelError.code``): the duel is gone, a player acted out of turn or lost a race...
NOT_FOUND, NOT_IN_DUEL, NOT_YOUR_TURN, STALE = stored.NOT_FOUND, stored.NOT_IN_DUEL, stored.NOT_YOUR_TURN, stored.STALE
ONLY_CHALLENGED_ACCEPTS, RESIGN_FOR_OTHER = stored.ONLY_CHALLENGED_ACCEPTS, stored.RESIGN_FOR_OTHER
STORE_SELF_DUEL, STORE_OVER = stored.SELF_DUEL, stored.OVER
FORGOTTEN_PLAYER = FORGOTTEN  # the seat of a player who had their data deleted (``DuelRecord.players``)

FINISHED = (WON, ABANDONED)  # a duel played to its end (won, or resigned): not a declined challenge
RESIGN = "R"  # the code of a resignation, whoever's seat it is
CARD_PLAY = re.compile(r"[BS][0-9][CDHS][0-9]{1,2}")  # a build or a steal: B/S, the pair, the card


class Hand(NamedTuple):
    """A player's view of a duel: the duel and the seat whose hand they may see."""

    record: DuelRecord
    seat: int


class Move(NamedTuple):
    """A move made: the duel after it, the mover's seat, and whether the move was resigning."""

    record: DuelRecord
    seat: int
    resigned: bool


def check_opponent(challenger_id: int, opponent_id: int, *, opponent_is_bot: bool = False) -> None:
    """Raise why ``challenger_id`` may not challenge ``opponent_id`` (``SELF_DUEL``, ``BOT_OPPONENT``)."""
    if opponent_id == challenger_id:
        raise DuelRefused(SELF_DUEL)
    if opponent_is_bot:
        raise DuelRefused(BOT_OPPONENT)


async def challenge(store: Store, challenger_id: int, opponent_id: int, *, opponent_is_bot: bool = False,
                    guild_id: int | None = None, channel_id: int | None = None, seed: int | None = None,
                    names: tuple[str | None, str | None] = (None, None)) -> DuelRecord:
    """Challenge ``opponent_id`` to a duel of ``seed`` (a new deal when None); ``names`` are the two players' names
    kept with the duel. ``SELF_DUEL``, ``BOT_OPPONENT``; ``OpponentBusy`` with the open duel in the way."""
    check_opponent(challenger_id, opponent_id, opponent_is_bot=opponent_is_bot)
    try:
        record = await store.duels.create_challenge(challenger_id, opponent_id, guild_id, channel_id, seed=seed,
                                                    names=names)
    except DuelBusy as busy:
        raise OpponentBusy(await store.duels.load_duel(busy.duel_id), busy.user_id) from None
    log.info("user %s challenged user %s (duel %s)", challenger_id, opponent_id, record.id)
    return record


async def open_duel(store: Store, user_id: int) -> DuelRecord | None:
    """The player's open duel (a challenge or a game), to show again; None when there is none."""
    return await store.duels.open_duel(user_id)


async def own_duel(store: Store, duel_id: int, user_id: int) -> DuelRecord | None:
    """Duel ``duel_id`` if ``user_id`` played in it; None otherwise, or when it no longer exists (someone else's
    duel is not shown by its number)."""
    try:
        record = await store.duels.load_duel(duel_id)
    except DuelNotFound:
        return None
    return record if record.seat(user_id) is not None else None


async def answer(store: Store, duel_id: int, user_id: int, accept: bool) -> DuelRecord:
    """Accept or decline (the challenger: withdraw) a challenge; the duel after it. ``OUTSIDER``, ``WAITING``
    (only the challenged player accepts); the store's ``DuelError`` when it is no longer a challenge."""
    record = await store.duels.load_duel(duel_id)
    seat = record.seat(user_id)
    if seat is None:
        raise DuelRefused(OUTSIDER, record, user_id=user_id)
    if accept and seat != 1:
        raise DuelRefused(WAITING, record, user_id=user_id)
    return await store.duels.answer_challenge(duel_id, user_id, accept)


async def hand(store: Store, duel_id: int, user_id: int) -> Hand:
    """The hand ``user_id`` may see: their own seat's, never the other's. ``OUTSIDER`` for anyone else."""
    record = await store.duels.load_duel(duel_id)
    seat = record.seat(user_id)
    if seat is None:
        raise DuelRefused(OUTSIDER, record, user_id=user_id)
    return Hand(record, seat)


async def open_hand(store: Store, duel_id: int, user_id: int) -> Hand:
    """The player's hand in a duel still being played (to move, or to resign from). ``OUTSIDER``, ``OVER``."""
    seen = await hand(store, duel_id, user_id)
    if not seen.record.open:
        raise DuelRefused(OVER, seen.record, user_id=user_id)
    return seen


async def move(store: Store, duel_id: int, user_id: int, seen: int, code: str) -> Move:
    """Play ``code`` (an action's code, or ``RESIGN``) made on version ``seen`` of the player's hand; the duel
    after it, committed. ``OUTSIDER``, ``OVER``, ``StaleHand`` (nothing played; the duel as stored); the
    engine's ``IllegalDuelAction``; the store's ``DuelError`` (not your turn, a race lost)."""
    record, seat = await open_hand(store, duel_id, user_id)
    resigned = code == RESIGN
    if resigned:
        seen = record.version  # resigning stands whatever has happened meanwhile
    if record.version != seen:
        raise StaleHand(record, seat, user_id)
    action = resign_action(record, user_id) if resigned else DuelAction.parse(code)
    return Move(await store.duels.play_duel(duel_id, user_id, seen, action), seat, resigned)


async def board_posted(store: Store, duel_id: int, channel_id: int, message_id: int) -> None:
    """The duel's board was posted as ``message_id``: moves keep that copy up to date from now on."""
    await store.duels.set_duel_message(duel_id, channel_id, message_id)


def card_play(code: str) -> str:
    """``code`` if it is a card play's (a build or a steal), as a choice from a list of plays must be;
    ``NOT_A_PLAY`` if not."""
    if not CARD_PLAY.fullmatch(code):
        raise DuelRefused(NOT_A_PLAY)
    return code


def finished(record: DuelRecord) -> bool:
    """Played to its end (won, or resigned): it has a replay."""
    return record.status in FINISHED


def has_picture(record: DuelRecord) -> bool:
    """A started duel's board is a picture; a challenge is only words."""
    return record.status not in (CHALLENGED, DECLINED)


__all__ = ["ABANDONED", "BOT_OPPONENT", "BUSY", "CARD_PLAY", "CHALLENGED", "DECLINED", "FINISHED", "FORGOTTEN_PLAYER",
           "NOT_A_PLAY", "NOT_FOUND", "NOT_IN_DUEL", "NOT_YOUR_TURN", "ONLY_CHALLENGED_ACCEPTS", "OUTSIDER", "OVER",
           "PLAYING", "RESIGN", "RESIGN_FOR_OTHER", "SELF_DUEL", "STALE", "STALE_HAND", "STORE_OVER",
           "STORE_SELF_DUEL", "WAITING", "WON", "DuelError", "DuelRecord", "DuelRefused", "Hand", "Move",
           "OpponentBusy", "StaleHand", "answer", "board_posted", "card_play", "challenge", "check_opponent",
           "finished", "has_picture", "hand", "move", "open_duel", "open_hand", "own_duel"]
