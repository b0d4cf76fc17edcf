"""The par of the day: solved ahead of time in the solver's worker process, so no interaction waits for it.

Each day's par is solved the day before: right after a day's midnight posts, the poster has the next day's solved
in the background (cogs/daily/post.py), so the next midnight's posts and the first games of the day find it
there; the posts never wait for a solve. A daily started without it (the first day, or a bot that was down) asks
for it in the background. Several processes sharing one database solve it once: the one holding the par's lease
in the database solves, the others wait and read the answer; a lease left by a process that died mid-solve runs
out and a waiting process takes the solve over.
Right after par, in what is left of par's time limit and under the same lease, the coach plays the deal seeing only
what a player sees (``app.solver.worker.coach_score``); its score is stored with par in one write and shown beside it.
The answer is kept in the database (``daily_challenges.par``, ``coach_score``) and, for the game-over buttons, which
are built without I/O, in ``app.daily.deal.KNOWN_PAR``. A keeper without a solver (tests that are not
about par) never starts a solve.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from datetime import timedelta

from app.daily.deal import daily_deck, remember_par, todays_challenge
from app.solver.worker import DEFAULT_TIMEOUT, ParTimeout, SolverRefused, close_par
from storage.store import Store

log = logging.getLogger(__name__)


class ParKeeper:
    """One per bot: solves each day's deal at most once at a time, and once across every process sharing the
    database: the process that takes the par's lease (``Store.claim_daily_par``) solves and stores it; the others
    read it from the database when it is there. A lease left by a process that died mid-solve runs out after
    ``lease`` and a waiting process takes the solve over."""

    # The night's job (par, then the coach's play in what is left of par's time limit) and some margin.
    lease = timedelta(seconds=DEFAULT_TIMEOUT) + timedelta(minutes=1)
    poll = 5.0  # seconds between looks at the database while another process solves

    def __init__(self, store: Callable[[], Store], solver, coach=None, owner: str | None = None) -> None:
        self._store = store  # the store as it is when asked (a bot opens its store after making its cogs)
        self.solver = solver  # app.solver.worker.solve_par, or None: no par (tests that are not about it)
        self.coach = coach  # app.solver.worker.coach_score, or None: no coach's score
        self.owner = owner or process_name()
        self.running: dict[int, asyncio.Task] = {}
        self.background: set[asyncio.Task] = set()  # solves started by ``soon``
        self.used_worker = False
        self.solves = 0  # solves this process started (another process's solve is read, not counted)

    async def ensure(self, day: int) -> int | None:
        """The day's par, solving it now if needed (in the worker process); None if it can't be had."""
        challenge = await todays_challenge(self._store(), day)
        if challenge.par is not None:
            return challenge.par
        if self.solver is None:
            return None
        task = self.running.get(day)
        if task is None or task.done():
            task = self.running[day] = asyncio.get_running_loop().create_task(self._solve_once(day))
        return await asyncio.shield(task)

    def soon(self, day: int, failed: Callable[[], None] | None = None) -> None:
        """Start solving in the background (nothing waits for it); ``failed`` is called if it raises."""
        task = self.running.get(day)
        if self.solver is not None and (task is None or task.done()):
            started = asyncio.get_running_loop().create_task(self._ensure_logged(day, failed))
            self.background.add(started)  # kept until it ends: the loop holds only a weak reference
            started.add_done_callback(self.background.discard)

    async def _ensure_logged(self, day: int, failed: Callable[[], None] | None) -> None:
        try:
            await self.ensure(day)
        except Exception:  # the scheduler's retries solve it (cogs/daily/post.py's retry loop)
            log.exception("solving daily %s failed", day)
            if failed is not None:
                failed()

    async def close(self) -> None:
        """Stop solving; a par this process was solving is released, so another process takes it at once."""
        solving = [day for day, task in self.running.items() if not task.done()]
        for task in [*self.running.values(), *self.background]:
            task.cancel()
        for day in solving:
            await self._release(day)
        if self.used_worker:
            await close_par()

    async def _solve_once(self, day: int) -> int | None:
        """Solve under the lease, or wait for the process that holds it (taking over if its lease runs out)."""
        store = self._store()
        while True:
            if await store.claim_daily_par(day, self.owner, self.lease):
                challenge = await todays_challenge(store, day)
                if challenge.par is not None:
                    return challenge.par
                return await self._solve(day, challenge)
            challenge = await todays_challenge(store, day)
            if challenge.par is not None:  # solved by another process
                return challenge.par
            await asyncio.sleep(self.poll)

    async def _solve(self, day: int, challenge) -> int | None:
        self.used_worker = True
        self.solves += 1
        started = time.monotonic()
        try:
            result = await self.solver(challenge.rules, daily_deck(challenge), urgent=True)  # before players' jobs
        except (SolverRefused, ParTimeout) as error:
            log.warning("no par for daily %s: %s", day, error)
            await self._release(day)
            return None
        except Exception:  # the worker crashed, say: released so that this or another process tries again
            await self._release(day)
            raise
        coach = await self._coach(day, challenge, DEFAULT_TIMEOUT - (time.monotonic() - started))
        await self._store().set_daily_par(day, result.best_score, result.line_codes, coach)
        remember_par(challenge, result.best_score)
        log.info("daily %s: par %s, coach %s", day, result.best_score, coach)
        return result.best_score

    async def _coach(self, day: int, challenge, time_left: float) -> int | None:
        """The coach's score of the day's deal, played in the worker within what is left of par's time limit (so
        the lease covers both); None when there is no coach, or it fails or runs out of time (par is kept)."""
        if self.coach is None:
            return None
        started = time.monotonic()
        try:
            score = await self.coach(challenge.rules, daily_deck(challenge), max(time_left, 1.0), urgent=True)
        except Exception as error:  # noqa: BLE001 - par is stored all the same, without the coach's score
            log.warning("no coach's score for daily %s: %r", day, error)
            return None
        log.info("daily %s: the coach played it in %.1f s", day, time.monotonic() - started)
        return score

    async def _release(self, day: int) -> None:
        try:
            await self._store().release_daily_par(day, self.owner)
        except Exception:  # the lease runs out by itself
            log.exception("could not release the par lease of daily %s", day)


def process_name() -> str:
    """This process, as it signs the leases it takes in the database (host, pid and a random part)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
