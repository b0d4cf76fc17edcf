"""Asking the coach: who may have a hint or a review of which game, and when.

The answers themselves come from the solver's worker process (``app.coach.advice``: ``hint_for``,
``review_game``), passed in as ``hinter`` / ``reviewer`` (None on a bot without a solver). Each request is two
steps, so that a surface can tell the player to wait in between: ``check_*`` refuses at once (``CoachRefused``
with one of the codes below, or ``HintNeedsConsent``) and returns the game; ``hint`` (and
``app.coach.reviews.review``, kept once worked out) ask the solver (its ``SolverBusy`` and ``ParTimeout`` come
through unchanged).

Only a game's own player may ask. A hint is never given in a counted daily, and the first hint of a normal game
needs the player's yes: the game then no longer counts (``Store.mark_hinted``, done before the hint is shown). A
daily's review waits until the player's counted attempt at that day is over.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from app.errors import CoachRefused, HintNeedsConsent
from app.solver.progress import Watch
from games.solver import refusal
from storage.models import DAILY, DEAD, NORMAL, PLAYING, PRACTICE, WON, GameRecord
from storage.store import Store

# Why a hint or a review was refused (``CoachRefused.code``).
NOT_YOURS = "not_yours"
UNAVAILABLE = "unavailable"  # this bot has no solver
RULES = "rules"  # the solver cannot play the game's rules (``CoachRefused.reason`` says why)
STILL_PLAYING = "still_playing"  # a review: the game is not over
DAILY_RUNNING = "daily_running"  # a review of a daily: the player's counted attempt at that day is still on
COUNTED_DAILY = "counted_daily"  # a hint: never in a counted daily
IN_CHALLENGE = "in_challenge"  # a hint: never in a challenge's game (everyone plays the deal on their own)
OVER = "over"  # a hint: the game is over
MOVED_ON = "moved_on"  # a hint: the game moved on while it was being found

HINT_KINDS = (NORMAL, PRACTICE)
DAILY_KINDS = (DAILY, PRACTICE)
REVIEWABLE = (WON, DEAD)

Solver = Callable[..., Awaitable[Any]]  # (rules, deck, moves, *, requester) -> the answer


class Reviewed(NamedTuple):
    text: Any  # app.coach.advice.ReviewText
    hinted: bool  # the game took a hint: its verdict says so


def _rules_refusal(record: GameRecord) -> None:
    reason = refusal(record.rules) if record.rules is not None else None
    if reason:
        raise CoachRefused(RULES, record, reason=reason)


async def check_review(store: Store, game_id: int, user_id: int, *, reviewer: Solver | None) -> GameRecord:
    """The game to review, or ``CoachRefused`` (NOT_YOURS, STILL_PLAYING, DAILY_RUNNING, RULES, UNAVAILABLE)."""
    record = await store.load_game(game_id)
    if user_id != record.user_id:
        raise CoachRefused(NOT_YOURS, record)
    if record.status not in REVIEWABLE:
        raise CoachRefused(STILL_PLAYING, record)
    if record.kind in DAILY_KINDS and record.day is not None:
        attempt = await store.daily_attempt(user_id, record.day)
        if attempt is not None and attempt.status == PLAYING:
            raise CoachRefused(DAILY_RUNNING, record)
    _rules_refusal(record)
    if reviewer is None:
        raise CoachRefused(UNAVAILABLE, record)
    return record


async def check_hint(store: Store, game_id: int, user_id: int, *, hinter: Solver | None,
                     confirmed: bool = False) -> GameRecord:
    """The game to find a hint in, or ``CoachRefused`` (NOT_YOURS, COUNTED_DAILY, OVER, UNAVAILABLE, RULES), or
    ``HintNeedsConsent`` before a normal game's first hint unless ``confirmed``."""
    record = await store.load_game(game_id)
    if user_id != record.user_id:
        raise CoachRefused(NOT_YOURS, record)
    if record.kind not in HINT_KINDS:
        raise CoachRefused(COUNTED_DAILY, record)
    if record.challenge_id is not None:
        raise CoachRefused(IN_CHALLENGE, record)
    if record.status != PLAYING:
        raise CoachRefused(OVER, record)
    if hinter is None:
        raise CoachRefused(UNAVAILABLE, record)
    _rules_refusal(record)
    if not confirmed and record.kind == NORMAL and not await store.is_hinted(game_id):
        raise HintNeedsConsent(record)  # never silent: the first hint of a counted game says what it costs
    return record


async def hint(store: Store, record: GameRecord, user_id: int, hinter: Solver, *, watch: Watch | None = None
               ) -> Any:
    """The best move now in a game ``check_hint`` allowed (a ``app.coach.advice.Hint``), the game marked hinted
    before it is returned: a hint seen is a hinted game. ``CoachRefused(MOVED_ON)`` when the game moved on
    meanwhile: no stale hint. ``watch`` sees the request's place in the solver's queue."""
    state = record.state
    found = await hinter(record.rules, state.start_deck, state.history, requester=user_id, watch=watch)
    now = await store.load_game(record.id)
    if now.version != record.version or not await store.mark_hinted(record.id, user_id):
        raise CoachRefused(MOVED_ON, now)
    return found


__all__ = ["COUNTED_DAILY", "DAILY_RUNNING", "IN_CHALLENGE", "MOVED_ON", "NOT_YOURS", "OVER", "RULES", "STILL_PLAYING",
           "UNAVAILABLE", "Reviewed", "check_hint", "check_review", "hint"]
