"""Best possible: a finished game's par (the best score its deal allowed) and one line to it, seen in hindsight.

Unlike the coach's hint and review, par sees every card, so the line gives the deal away: it is shown only once
the game is over, and a daily's (or its practice's) only to its own player. A deal solved once is kept in the
store's par cache; otherwise the solver's worker solves it, queued as the asking player's one job (its
``SolverBusy`` and ``ParTimeout`` come through unchanged). Refusals are ``CoachRefused`` with a code of
``app.coach.access``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from app.coach.access import NOT_YOURS, RULES, STILL_PLAYING, UNAVAILABLE
from app.errors import CoachRefused
from games.solver import refusal
from storage.models import DAILY, PLAYING, PRACTICE, GameRecord
from storage.store import Store

PRIVATE_KINDS = (DAILY, PRACTICE)  # the deal is the day's challenge: only its player may see the line

Solver = Callable[..., Awaitable[Any]]  # (rules, deck, *, requester) -> a ParResult


class Best(NamedTuple):
    best: int  # the best score the deal allowed
    line: str  # one line to it, as engine action codes
    score: int | None  # the game's own score
    hinted: bool  # the game took a hint: never called perfect


async def check_best(store: Store, game_id: int, user_id: int, *, solver: Solver | None) -> GameRecord:
    """The game whose par may be shown to ``user_id``, or ``CoachRefused`` (STILL_PLAYING, NOT_YOURS for another's
    daily, RULES, UNAVAILABLE)."""
    record = await store.load_game(game_id)
    if record.status == PLAYING:  # the line of a game still on would play it for you
        raise CoachRefused(STILL_PLAYING, record)
    if record.kind in PRIVATE_KINDS and user_id != record.user_id:
        raise CoachRefused(NOT_YOURS, record)
    reason = refusal(record.rules) if record.rules is not None else None
    if reason:
        raise CoachRefused(RULES, record, reason=reason)
    if solver is None:
        raise CoachRefused(UNAVAILABLE, record)
    return record


async def best_possible(store: Store, record: GameRecord, user_id: int, solver: Solver) -> Best:
    """Par and its line for a game ``check_best`` allowed: from the par cache, else solved and kept there."""
    rules, deck = record.rules, record.state.start_deck
    assert rules is not None  # a record with a state has its rules
    known = await store.get_par(rules.key, deck)
    if known is None:
        result = await solver(rules, deck, requester=user_id)
        known = (result.best_score, result.line_codes)
        await store.put_par(rules.key, deck, *known)
    return Best(known[0], known[1], record.score, await store.is_hinted(record.id))
