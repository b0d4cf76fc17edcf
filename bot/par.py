"""Par for the bot: the exact solver run in a worker process, so no interaction ever waits on the event loop.

``await solve_par(rules, deck)`` → ``ParResult``; rule sets with chance in them raise ``SolverRefused`` at once
(no worker is started), a solve that takes longer than the timeout raises ``ParTimeout`` and its worker is
stopped. One worker process is created on first use and ended by ``await close_par()`` (at bot shutdown).
``par_line_text`` tells an optimal line room by room.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from bot.engine import Action, Rules, decode, encode, parse_deck
from bot.engine.cards import Card
from bot.solver import SolverRefused, refusal, solve
from bot.solver.explain import line_text

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 120.0  # seconds; the benchmark's slowest classic deal is well under this
_REMEMBERED = 256  # solved deals kept in memory (the store keeps them for good)


class ParResult(NamedTuple):
    best_score: int
    winnable: bool
    line_codes: str  # the optimal line as engine action codes, e.g. "T3 W1 W0 A ..."
    states: int  # situations the search visited


class ParTimeout(TimeoutError):
    """The solve took longer than allowed; the worker was stopped."""


def _solve_in_worker(rules_data: dict, deck_codes: str) -> tuple[int, str, int]:
    """Runs in the worker: plain data in and out, so nothing but text crosses the process boundary."""
    rules = Rules.from_dict(rules_data)
    solution = solve(rules, parse_deck(deck_codes, rules.full_deck()))
    return solution.best_score, encode(solution.actions), solution.states


class ParService:
    """One lazily started worker process that solves deals, with a small memory of recent answers."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.timeout = timeout
        self._pool: ProcessPoolExecutor | None = None
        self._known: dict[tuple[str, str], ParResult] = {}

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fresh interpreter, never a fork of the bot's threads (aiosqlite, discord.py).
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def solve(self, rules: Rules, deck: Sequence[Card], time_limit: float | None = None) -> ParResult:
        reason = refusal(rules)
        if reason:
            raise SolverRefused(reason)
        codes = " ".join(c.code for c in deck)
        key = (rules.key, codes)
        if key in self._known:
            return self._known[key]
        future = self._executor().submit(_solve_in_worker, rules.to_dict(), codes)
        try:
            best, line, states = await asyncio.wait_for(asyncio.wrap_future(future), time_limit or self.timeout)
        except TimeoutError:
            self._stop_worker()
            raise ParTimeout(f"par was not found within {time_limit or self.timeout:g} s") from None
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

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)


_service = ParService()


async def solve_par(rules: Rules, deck: Sequence[Card], time_limit: float | None = None) -> ParResult:
    """The par of ``deck`` under ``rules``, solved in the shared worker process."""
    return await _service.solve(rules, deck, time_limit)


async def close_par() -> None:
    await _service.close()


def par_line_text(rules: Rules, deck: Sequence[Card], line: str | Sequence[Action]) -> list[str]:
    """The optimal line replayed through the engine, one text per room (``line``: codes or actions)."""
    actions = decode(line) if isinstance(line, str) else tuple(line)
    return line_text(rules, deck, actions)


__all__ = ["DEFAULT_TIMEOUT", "ParResult", "ParService", "ParTimeout", "SolverRefused", "close_par",
           "par_line_text", "solve_par"]
