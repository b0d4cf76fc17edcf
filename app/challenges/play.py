"""A challenge's life: started by one player, joined by many, closed once (by its starter, or when its time is up).

Plain async functions over the ``Store``, like ``app.play.solo``: ids and values in, records out, refusals as
``ChallengeRefused`` with one of the codes below. Each joiner's game is an ordinary game of the deal (played
through ``app.play.solo`` in chat or at the table) tied to the challenge; it sits beside the player's normal game
and their daily, and counts on no daily board. A player is in one running challenge at a time per server (per
channel outside servers): joining another is refused, naming the running one; its games end with the challenge.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import NamedTuple

from app import events
from app.errors import ChallengeRefused
from games.engine import Rules, new_seed
from storage.challenges import ChallengeBusy, ChallengeClosed, ChallengeRecord
from storage.models import PLAYING, GameRecord
from storage.store import Store

log = logging.getLogger(__name__)

# How long a challenge runs: a classic game takes a few minutes, so ten lets a channel gather and play one; two is
# the least that leaves time to join and play, an hour the most a channel keeps one deal in mind.
DEFAULT_MINUTES, MIN_MINUTES, MAX_MINUTES = 10, 2, 60

CLOSED = "closed"  # a join after the close, or after its time ran out
BUSY = "busy"  # the player is in (or started) another running challenge here: ``other``
NOT_STARTER = "not_starter"  # only the starter closes a challenge early
OUT_OF_BOUNDS = "minutes"  # a length outside MIN_MINUTES..MAX_MINUTES


class Joined(NamedTuple):
    challenge: ChallengeRecord
    game: GameRecord
    new: bool  # False: the player had joined already (a double click): their game, as it is


def place_of(guild_id: int | None, channel_id: int | None) -> int:
    """Where the one-running-challenge rule holds: the server, or the channel outside servers."""
    return guild_id if guild_id is not None else channel_id or 0


async def start(store: Store, starter_id: int, rules: Rules, *, guild_id: int | None, channel_id: int | None,
                locale: str, minutes: int | None = None, seed: int | None = None) -> ChallengeRecord:
    """A new running challenge of ``rules`` on ``seed`` (a new deal when None), open for ``minutes``."""
    minutes = DEFAULT_MINUTES if minutes is None else minutes
    if not MIN_MINUTES <= minutes <= MAX_MINUTES:
        raise ChallengeRefused(OUT_OF_BOUNDS, 0)
    try:
        challenge = await store.challenges.create(
            place=place_of(guild_id, channel_id), guild_id=guild_id, channel_id=channel_id, starter_id=starter_id,
            rules=rules, seed=new_seed() if seed is None else seed, locale=locale, lasts=timedelta(minutes=minutes))
    except ChallengeBusy as busy:
        raise ChallengeRefused(BUSY, busy.other, other=busy.other) from None
    log.info("user %s started challenge %s (%s, %s min)", starter_id, challenge.id, rules.name, minutes)
    return challenge


async def posted(store: Store, challenge_id: int, channel_id: int | None, message_id: int | None) -> None:
    """The challenge's invite (which carries its standings) is message ``message_id``."""
    await store.challenges.set_message(challenge_id, channel_id, message_id)


async def challenge(store: Store, challenge_id: int) -> ChallengeRecord:
    return await store.challenges.get(challenge_id)


async def join(store: Store, challenge_id: int, user_id: int, name: str) -> Joined:
    """The player's game of the challenge: made now, or the one they have (a second click joins once)."""
    try:
        game, new = await store.challenges.join(challenge_id, user_id, name)
    except ChallengeClosed:
        raise ChallengeRefused(CLOSED, challenge_id) from None
    except ChallengeBusy as busy:
        raise ChallengeRefused(BUSY, challenge_id, other=busy.other) from None
    if new:
        log.info("user %s joined challenge %s (game %s)", user_id, challenge_id, game.id)
    return Joined(await store.challenges.get(challenge_id), game, new)


async def game_here(store: Store, channel_id: int | None, user_id: int) -> GameRecord | None:
    """The player's game of a running challenge they joined in ``channel_id``, as stored (None: there is none):
    where the table opens in that channel, so that the players of one challenge open it together on its deal."""
    if channel_id is None:
        return None
    return await store.challenges.game_here(channel_id, user_id)


async def close(store: Store, challenge_id: int, by: int | None = None) -> ChallengeRecord | None:
    """Close the challenge: ``by`` its starter (``NOT_STARTER`` for anyone else), or by time (None). The games
    still being played end as given up. The challenge as closed, or None when it was closed already."""
    record = await store.challenges.get(challenge_id)
    if by is not None and by != record.starter_id:
        raise ChallengeRefused(NOT_STARTER, challenge_id)
    still = await store.challenges.begin_close(challenge_id)
    if still is None:
        return None
    for game_id, user_id in still:
        events.moved(store, await store.abandon(game_id, user_id))
    log.info("challenge %s closed (%s)", challenge_id, "by its starter" if by is not None else "its time is up")
    return await store.challenges.get(challenge_id)


async def to_settle(store: Store, challenge_id: int) -> ChallengeRecord:
    """A challenge whose close was taken but not settled (a restart in between): its games still being played
    are ended now, as the close would have; the challenge, ready for its final standings."""
    for entrant in await store.challenges.entrants(challenge_id):
        if entrant.game.status == PLAYING:
            events.moved(store, await store.abandon(entrant.game.id, entrant.user_id))
    return await store.challenges.get(challenge_id)


async def settled(store: Store, challenge_id: int) -> bool:
    """The final standings are written: the challenge is closed for good (False: it was already)."""
    return await store.challenges.finish_close(challenge_id)


async def open_challenges(store: Store) -> list[ChallengeRecord]:
    """Every challenge not closed for good, soonest to close first: what a starting process resumes."""
    return await store.challenges.open_challenges()


def due(record: ChallengeRecord, now: datetime) -> bool:
    """Its time is up (a running challenge) or its close was taken (a closing one): close it, or settle it."""
    return not record.running or record.closes_at <= now


async def member_gone(store: Store, guild_id: int, user_id: int) -> int:
    """A member left the server: shown as gone in its challenges still open; how many."""
    return await store.challenges.mark_gone(guild_id, user_id)


async def played(store: Store, user_id: int) -> tuple[int, int]:
    """(challenges the player took part in, closed, of which they placed first): for their stats."""
    return await store.challenges.played(user_id)
