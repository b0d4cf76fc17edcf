"""Par for the bot: the exact solver run in a worker process, so no interaction ever waits on the event loop.

``await solve_par(rules, deck, requester=user_id)`` → ``ParResult``; rule sets with chance in them raise
``SolverRefused`` at once (no worker is started), a solve that takes longer than the timeout raises ``ParTimeout``
and its worker is stopped. One worker process is created on first use and ended by ``await close_par()``.

The worker does one job at a time, taken from a bounded, fair queue: urgent jobs (the daily par) go before every
player's, each player has at most one job queued or running, and the time limit starts when the job starts (time
spent waiting never counts). A request that finds the queue full, or whose player already waits for an answer,
raises ``SolverBusy`` with a message for the player. ``par_line_text`` tells an optimal line room by room.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from app.solver.tidying import TIDIER
from games.engine import Action, Rules, decode, encode, parse_deck
from games.engine.cards import Card
from games.i18n import N_
from games.i18n.messages import ENGLISH, Messages
from games.solver import SolverRefused, refusal, solve
from games.solver.explain import line_text
from games.solver.fair import coach_play

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 120.0  # seconds of solving; the benchmark's slowest classic deal is well under this
DEFAULT_CAPACITY = 6  # player jobs waiting behind the running one; more are told the solver is busy
URGENT, NORMAL = 0, 1  # queue priorities: the daily par before any player's request
_REMEMBERED = 256  # solved deals kept in memory (the store keeps them for good)


class ParResult(NamedTuple):
    best_score: int
    winnable: bool
    line_codes: str  # the optimal line as engine action codes, e.g. "T3 W1 W0 A ..."
    states: int  # situations the search visited


class ParTimeout(TimeoutError):
    """The solve took longer than allowed; the worker was stopped."""


class SolverBusy(RuntimeError):
    """The request was not queued; ``str()`` is a plain message for the player."""


BUSY_FULL = N_("The solver is busy with other players' requests right now; please try again in a minute.")
BUSY_YOURS = N_("The solver is still working on your previous request; it will be answered first.")


def _solve_in_worker(rules_data: dict, deck_codes: str) -> tuple[int, str, int]:
    """Runs in the worker: plain data in and out, so nothing but text crosses the process boundary."""
    with TIDIER.request():  # the searches let go of wait for the worker's spare time (app.solver.tidying)
        rules = Rules.from_dict(rules_data)
        solution = solve(rules, parse_deck(deck_codes, rules.full_deck()))
        return solution.best_score, encode(solution.actions), solution.states


def _leave_with_the_bot() -> None:
    """In the worker, as it starts: end it as soon as the bot's process is gone, however that ended. A bot stopped
    cleanly ends its worker (``close``), but a killed one cannot, and the worker (which holds its own end of the job
    queue, so never reads the end of it) would wait for jobs for good, one more after every kill."""
    parent = multiprocessing.parent_process()
    if parent is None:  # pragma: no cover - always set in a spawned worker
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])  # readable once the bot's process has ended
        os._exit(0)

    threading.Thread(target=watch, name="watch-the-bot", daemon=True).start()


@contextlib.contextmanager
def _ctrl_c_ignored():
    """SIGINT ignored in this process meanwhile, so that a worker process started meanwhile ignores it for good
    (an ignored signal stays ignored in the new interpreter). Ctrl-C at a terminal reaches the whole process group:
    the bot decides when its worker ends, and a KeyboardInterrupt in the worker would only print a traceback."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class ParService:
    """One lazily started worker process, fed one job at a time from a bounded, fair queue; a small memory of
    recent pars."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, capacity: int = DEFAULT_CAPACITY) -> None:
        self.timeout = timeout
        self.capacity = capacity
        self._pool: ProcessPoolExecutor | None = None
        self._known: dict[tuple[str, str], ParResult] = {}
        self._running = False  # a job holds the worker
        self._waiting: list[tuple[int, int, asyncio.Future]] = []  # heap of (priority, arrival, wake-up)
        self._arrivals = itertools.count()
        self._players: set[int] = set()  # players with a job queued or running

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fresh interpreter, never a fork of the bot's threads (aiosqlite, discord.py).
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_leave_with_the_bot)
        return self._pool

    @property
    def queued(self) -> int:
        """Jobs waiting for the worker (not counting the one running)."""
        return sum(1 for _, _, wake in self._waiting if not wake.done())

    async def run(self, fn, *args, requester: int | None = None, urgent: bool = False,
                  time_limit: float | None = None):
        """``fn(*args)`` in the worker (``fn`` a module-level function, plain data in and out), queued fairly.

        Raises ``SolverBusy`` at once when ``requester`` already has a job here or the queue is full (urgent jobs
        are always queued), ``ParTimeout`` when the job itself runs longer than ``time_limit``.
        """
        if requester is not None and requester in self._players:
            raise SolverBusy(BUSY_YOURS)
        if not urgent and self.queued >= self.capacity:
            raise SolverBusy(BUSY_FULL)
        if requester is not None:
            self._players.add(requester)
        try:
            await self._acquire(URGENT if urgent else NORMAL)
            try:
                return await self._submit(fn, args, time_limit or self.timeout)
            finally:
                self._release()
        finally:
            self._players.discard(requester)

    async def _acquire(self, priority: int) -> None:
        if not self._running and not self.queued:
            self._running = True
            return
        wake = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._arrivals), wake))
        try:
            await wake
        except asyncio.CancelledError:
            if wake.done() and not wake.cancelled():  # woken and cancelled at once: pass the turn on
                self._release()
            raise

    def _release(self) -> None:
        while self._waiting:
            _, _, wake = heapq.heappop(self._waiting)
            if not wake.done():
                wake.set_result(None)  # the worker passes straight to the next job
                return
        self._running = False

    async def _submit(self, fn, args: tuple, limit: float):
        with _ctrl_c_ignored():  # (the submission that starts the worker process)
            future = self._executor().submit(fn, *args)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), limit)
        except TimeoutError:
            self._stop_worker()
            raise ParTimeout(f"the solver did not finish within {limit:g} s") from None

    async def solve(self, rules: Rules, deck: Sequence[Card], time_limit: float | None = None, *,
                    requester: int | None = None, urgent: bool = False) -> ParResult:
        reason = refusal(rules)
        if reason:
            raise SolverRefused(reason)
        codes = " ".join(c.code for c in deck)
        key = (rules.key, codes)
        if key in self._known:
            return self._known[key]
        best, line, states = await self.run(_solve_in_worker, rules.to_dict(), codes, requester=requester,
                                            urgent=urgent, time_limit=time_limit)
        result = ParResult(best, best > 0, line, states)
        if len(self._known) >= _REMEMBERED:
            self._known.pop(next(iter(self._known)))
        self._known[key] = result
        return result

    def _stop_worker(self) -> None:
        """End a worker stuck in a long solve (the executor cannot cancel a running call)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for process in list(getattr(pool, "_processes", {}).values()):  # no public way to stop a busy worker
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)

    async def close(self, *, at_once: bool = False) -> None:
        """End the worker once its job is done; ``at_once``: now, mid-job (a terminal command stopped with Ctrl-C)."""
        if at_once:
            self._stop_worker()
            return
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)


_service = ParService()


async def solve_par(rules: Rules, deck: Sequence[Card], time_limit: float | None = None, *,
                    requester: int | None = None, urgent: bool = False) -> ParResult:
    """The par of ``deck`` under ``rules``, solved in the shared worker process (see ``ParService.run``)."""
    return await _service.solve(rules, deck, time_limit, requester=requester, urgent=urgent)


async def run_in_solver(fn, *args, requester: int | None = None, urgent: bool = False,
                        time_limit: float | None = None):
    """Any solver job (review, hint) in the shared worker, under the same queue as par."""
    return await _service.run(fn, *args, requester=requester, urgent=urgent, time_limit=time_limit)


def _coach_in_worker(rules_data: dict, deck_codes: str) -> int:
    """Runs in the worker: the coach plays the whole deal seeing only what a player sees; its final score."""
    with TIDIER.request():
        rules = Rules.from_dict(rules_data)
        return coach_play(rules, parse_deck(deck_codes, rules.full_deck())).score


async def coach_score(rules: Rules, deck: Sequence[Card], time_limit: float | None = None, *,
                      requester: int | None = None, urgent: bool = False) -> int:
    """The coach's score on ``deck``: it plays move by move seeing only what a player sees, in the shared worker
    under the same queue as par. Raises ``SolverRefused`` for rules with chance, ``ParTimeout`` past the limit."""
    reason = refusal(rules)
    if reason:
        raise SolverRefused(reason)
    codes = " ".join(c.code for c in deck)
    return await _service.run(_coach_in_worker, rules.to_dict(), codes, requester=requester, urgent=urgent,
                              time_limit=time_limit)


def solver_jobs() -> int:
    """Solver jobs waiting or running in this process (the operator's ``scoundrel_solver_queue_length``)."""
    return _service.queued + (1 if _service._running else 0)


async def close_par(*, at_once: bool = False) -> None:
    await _service.close(at_once=at_once)


def par_line_text(rules: Rules, deck: Sequence[Card], line: str | Sequence[Action], tr: Messages = ENGLISH
                  ) -> list[str]:
    """The optimal line replayed through the engine, one text per room (``line``: codes or actions), in ``tr``'s
    language (English without it)."""
    actions = decode(line) if isinstance(line, str) else tuple(line)
    return line_text(rules, deck, actions, tr=tr)


__all__ = ["DEFAULT_TIMEOUT", "ParResult", "ParService", "ParTimeout", "SolverBusy", "SolverRefused", "close_par",
           "coach_score",
           "par_line_text", "run_in_solver", "solve_par"]
