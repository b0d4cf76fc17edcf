"""A challenge's par and the coach's score on its deal, worked out while it runs, for its final standings.

Par comes from the store's par cache, else the solver's worker solves it (and the cache keeps it); the coach
then plays the deal seeing only what a player sees. Both go with the challenge (``Store.challenges.set_par``),
so a restart does not work them out again. Nothing waits for them: the final standings show what is known.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.solver.worker import DEFAULT_TIMEOUT
from games.engine import deal
from storage.challenges import ChallengeRecord
from storage.store import Store

log = logging.getLogger(__name__)

Solver = Callable[..., Awaitable[Any]]


async def work_out(store: Store, challenge: ChallengeRecord, solver: Solver | None,
                   coach: Solver | None) -> tuple[int | None, int | None]:
    """(par, the coach's score) of the challenge's deal, kept with it; None for what cannot be had."""
    if challenge.par is not None:
        return challenge.par, challenge.coach_score
    rules, deck = challenge.rules, deal(challenge.rules, challenge.seed)
    par = coach_score = None
    known = await store.get_par(rules.key, deck)
    try:
        if known is not None:
            par = known[0]
        elif solver is not None:
            result = await solver(rules, deck)
            await store.put_par(rules.key, deck, result.best_score, result.line_codes)
            par = result.best_score
        if coach is not None:
            coach_score = await coach(rules, deck, DEFAULT_TIMEOUT)
    except Exception as error:  # noqa: BLE001 - the standings show what is known
        log.warning("challenge %s: no par or coach's score: %r", challenge.id, error)
    if par is not None or coach_score is not None:
        await store.challenges.set_par(challenge.id, par, coach_score)
    return par, coach_score
