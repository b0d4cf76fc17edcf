"""Par for the bot: the exact solver run in a worker process, so no interaction ever waits on the event loop.

``await solve_par(rules, deck, requester=user_id)`` → ``ParResult``; rule sets with chance in them raise
``SolverRefused`` at once (no worker is started), a solve that takes longer than the timeout raises ``ParTimeout``
and its worker is stopped. One worker process is created on first use and ended by ``await close_par()``.

The worker does one job at a time, taken from a bounded, fair queue: urgent jobs (the daily par) go before every
player's, each player has at most one job queued or running, and the time limit starts when the job starts (time
spent waiting never counts). A request that finds the queue full, or whose player already waits for an answer,
raises ``SolverBusy`` with a message for the player. ``par_line_text`` tells an optimal line room by room.

A job may be watched (``watch=``): it is told where the job waits in the queue, then how far the worker is with it
(``app.solver.progress``). A worker left idle for ``IDLE_END`` seconds while it holds more than ``HEAVY_IDLE``
bytes is ended, and its memory goes back to the system (a solver's searches leave the interpreter's memory
fragmented, so freeing them inside the worker gives little back); the next job starts a fresh one.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NamedTuple

from app.solver import progress
from app.solver.progress import Progress, Watch
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
DEFAULT_CAPACITY = 64  # player jobs waiting behind the running one (each player has one); more are told it is busy
URGENT, NORMAL = 0, 1  # queue priorities: the daily par before any player's request
_REMEMBERED = 256  # solved deals kept in memory (the store keeps them for good)
WATCH_EVERY = 0.25  # seconds between two looks at a watched job's progress
IDLE_END = 20.0  # seconds without a job after which a heavy worker is ended
HEAVY_IDLE = 100 * 2**20  # bytes resident above which an idle worker is ended


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


def _start_worker(shared) -> None:
    """In the worker, as it starts: it ends with the bot, and its jobs report their progress into ``shared``."""
    _leave_with_the_bot()
    progress.attach(shared)


def resident(pid: int) -> int | None:
    """Bytes of ``pid`` resident in memory (None where ``/proc`` cannot tell)."""
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


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


def _tell(watch: Watch, progress: Progress) -> None:
    try:
        watch(progress)
    except Exception:  # a watcher's failure never stops the job
        log.exception("a solver job's watcher failed")


class ParService:
    """One lazily started worker process, fed one job at a time from a bounded, fair queue; a small memory of
    recent pars."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, capacity: int = DEFAULT_CAPACITY,
                 idle_end: float = IDLE_END, heavy_idle: int = HEAVY_IDLE) -> None:
        self.timeout = timeout
        self.capacity = capacity
        self.idle_end, self.heavy_idle = idle_end, heavy_idle
        self._pool: ProcessPoolExecutor | None = None
        self._shared: Any = None  # the running job's (done, total), written by the worker (app.solver.progress)
        self._known: dict[tuple[str, str], ParResult] = {}
        self._running: tuple[int, int] | None = None  # the ticket of the job that holds the worker
        self._waiting: list[tuple[int, int, asyncio.Future]] = []  # heap of (priority, arrival, wake-up)
        self._arrivals = itertools.count()
        self._players: set[int] = set()  # players with a job queued or running
        self._idle: asyncio.TimerHandle | None = None  # ends a heavy worker once it has been idle a while
        self._watched: dict[tuple[int, int], tuple[Watch, contextvars.Context]] = {}  # the jobs watched, by ticket
        self._loop: asyncio.AbstractEventLoop | None = None  # where the watched jobs wait
        self._wanted = threading.Event()  # set while a job is watched
        self._beat: threading.Thread | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fresh interpreter, never a fork of the bot's threads (aiosqlite, discord.py).
            context = multiprocessing.get_context("spawn")
            self._shared = context.Array("q", 2)
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_start_worker,
                                             initargs=(self._shared,))
        return self._pool

    @property
    def queued(self) -> int:
        """Jobs waiting for the worker (not counting the one running)."""
        return sum(1 for _, _, wake in self._waiting if not wake.done())

    @property
    def busy(self) -> bool:
        """A job holds the worker."""
        return self._running is not None

    async def run(self, fn, *args, requester: int | None = None, urgent: bool = False,
                  time_limit: float | None = None, watch: Watch | None = None):
        """``fn(*args)`` in the worker (``fn`` a module-level function, plain data in and out), queued fairly;
        ``watch`` is told its ``Progress`` as it changes.

        Raises ``SolverBusy`` at once when ``requester`` already has a job here or the queue is full (urgent jobs
        are always queued), ``ParTimeout`` when the job itself runs longer than ``time_limit``.
        """
        if requester is not None and requester in self._players:
            raise SolverBusy(BUSY_YOURS)
        if not urgent and self.queued >= self.capacity:
            raise SolverBusy(BUSY_FULL)
        if requester is not None:
            self._players.add(requester)
        ticket = (URGENT if urgent else NORMAL, next(self._arrivals))
        if watch is not None:
            self._watch(ticket, watch)
        try:
            await self._acquire(ticket)
            try:
                result = await self._submit(fn, args, time_limit or self.timeout)
                if watch is not None:
                    _tell(watch, self.progress(ticket))  # its last steps, even those of a job quicker than a look
                return result
            finally:
                self._release()
        finally:
            self._players.discard(requester)
            self._watched.pop(ticket, None)

    def progress(self, ticket: tuple[int, int]) -> Progress:
        """Where the job with ``ticket`` is: jobs ahead of it, or the worker's steps once it runs."""
        if self._running == ticket:
            shared = self._shared
            if shared is None:
                return Progress(0)
            with shared.get_lock():
                return Progress(0, shared[0], shared[1])
        ahead = sum(1 for priority, arrival, wake in self._waiting if (priority, arrival) < ticket and not wake.done())
        return Progress(ahead + (self._running is not None))

    def _watch(self, ticket: tuple[int, int], watch: Watch) -> None:
        """``watch`` told the job's progress now, then every ``WATCH_EVERY`` seconds until it ends. The beat is a
        thread's, in real time, handed to the event loop: the looks cost nothing while nobody watches."""
        self._watched[ticket] = (watch, contextvars.copy_context())  # told in its asker's context, as if by it
        self._loop = asyncio.get_running_loop()
        _tell(watch, self.progress(ticket))
        self._wanted.set()
        if self._beat is None:
            self._beat = threading.Thread(target=self._beating, name="solver-progress", daemon=True)
            self._beat.start()

    def _beating(self) -> None:
        while True:
            self._wanted.wait()
            time.sleep(WATCH_EVERY)
            loop = self._loop
            if loop is None or loop.is_closed():
                self._wanted.clear()
                continue
            try:
                loop.call_soon_threadsafe(self._look)
            except RuntimeError:  # the loop closed meanwhile
                self._wanted.clear()

    def _look(self) -> None:
        if not self._watched:
            self._wanted.clear()
        for ticket, (watch, context) in list(self._watched.items()):
            context.run(_tell, watch, self.progress(ticket))

    async def _acquire(self, ticket: tuple[int, int]) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        if self._running is None and not self.queued:
            self._running = ticket
            return
        wake = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (*ticket, wake))
        try:
            await wake
        except asyncio.CancelledError:
            if wake.done() and not wake.cancelled():  # woken and cancelled at once: pass the turn on
                self._release()
            raise
        self._running = ticket

    def _release(self) -> None:
        while self._waiting:
            priority, arrival, wake = heapq.heappop(self._waiting)
            if not wake.done():
                self._running = (priority, arrival)  # the worker passes straight to the next job
                wake.set_result(None)
                return
        self._running = None
        if self._pool is not None and self.idle_end >= 0:
            self._idle = asyncio.get_running_loop().call_later(self.idle_end, self._end_if_heavy)

    def _end_if_heavy(self) -> None:
        """Idle for ``idle_end`` seconds: a worker holding more than ``heavy_idle`` bytes is ended (its memory
        back to the system); the next job starts a fresh one."""
        self._idle = None
        pool = self._pool
        if pool is None or self._running is not None or self.queued:
            return
        sizes = [resident(process.pid) for process in self.worker_processes()]
        if any(size is None or size > self.heavy_idle for size in sizes):
            self._stop_worker()  # stopped, not asked to exit: exiting would free its millions of objects one by one
            log.info("the solver's idle worker held %s MB: ended", ", ".join(
                "?" if size is None else str(size >> 20) for size in sizes))

    def worker_processes(self, pool: ProcessPoolExecutor | None = None) -> list:
        """The worker's processes (none before the first job; the executor has no public list of them)."""
        pool = pool or self._pool
        return [] if pool is None else list((getattr(pool, "_processes", None) or {}).values())

    async def _submit(self, fn, args: tuple, limit: float):
        with _ctrl_c_ignored():  # (the submission that starts the worker process)
            executor = self._executor()
            if self._shared is not None:
                with self._shared.get_lock():
                    self._shared[0] = self._shared[1] = 0
            future = executor.submit(fn, *args)
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
        pool, self._pool, self._shared = self._pool, None, None
        if pool is None:
            return
        for process in self.worker_processes(pool):  # no public way to stop a busy worker
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)

    async def close(self, *, at_once: bool = False) -> None:
        """End the worker once its job is done; ``at_once``: now, mid-job (a terminal command stopped with Ctrl-C)."""
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
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
                        time_limit: float | None = None, watch: Watch | None = None):
    """Any solver job (review, hint) in the shared worker, under the same queue as par; ``watch`` sees its
    progress."""
    return await _service.run(fn, *args, requester=requester, urgent=urgent, time_limit=time_limit, watch=watch)


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
    return _service.queued + _service.busy


async def close_par(*, at_once: bool = False) -> None:
    await _service.close(at_once=at_once)


def par_line_text(rules: Rules, deck: Sequence[Card], line: str | Sequence[Action], tr: Messages = ENGLISH
                  ) -> list[str]:
    """The optimal line replayed through the engine, one text per room (``line``: codes or actions), in ``tr``'s
    language (English without it)."""
    actions = decode(line) if isinstance(line, str) else tuple(line)
    return line_text(rules, deck, actions, tr=tr)


__all__ = ["DEFAULT_TIMEOUT", "ParResult", "ParService", "ParTimeout", "Progress", "SolverBusy", "SolverRefused",
           "close_par", "coach_score", "par_line_text", "run_in_solver", "solve_par"]
