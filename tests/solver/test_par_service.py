"""``app.solver.worker``: the solver in a worker process, refusals, timeouts, and the line in words."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from app.solver.worker import ParResult, ParService, ParTimeout, par_line_text
from games.engine import PRESETS, deal, decode, replay
from games.solver import SolverRefused

CLASSIC = PRESETS["classic"]


async def test_par_is_solved_in_the_worker_and_remembered():
    service = ParService()
    deck = deal(CLASSIC, 7)
    try:
        result = await service.solve(CLASSIC, deck)
        assert isinstance(result, ParResult) and result.best_score == 30 and result.winnable
        assert replay(CLASSIC, deck, decode(result.line_codes)).score == 30
        assert await service.solve(CLASSIC, deck) is result  # answered from memory, no second solve
    finally:
        await service.close()


async def test_refused_rules_raise_without_a_worker():
    service = ParService()
    rules = PRESETS["shuffled-avoid"]
    with pytest.raises(SolverRefused, match="shuffled"):
        await service.solve(rules, deal(rules, 1))
    assert service._pool is None


async def test_a_solve_over_time_raises_and_the_next_one_gets_a_fresh_worker():
    service = ParService()
    try:
        with pytest.raises(ParTimeout):
            await service.solve(CLASSIC, deal(CLASSIC, 11), time_limit=0.01)
        assert service._pool is None
        assert (await service.solve(CLASSIC, deal(CLASSIC, 7))).best_score == 30
    finally:
        await service.close()


KILLED_BOT = """
import asyncio, time
from games.engine import PRESETS, deal
from app.solver.worker import ParService

async def main():
    service = ParService()
    await service.solve(PRESETS["classic"], deal(PRESETS["classic"], 7))
    print(*[process.pid for process in service._pool._processes.values()], flush=True)
    time.sleep(60)  # killed before this ends

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is gone, only not yet reaped by whoever adopted it
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_a_killed_bot_leaves_no_solver_worker_behind():
    bot = subprocess.Popen([sys.executable, "-c", KILLED_BOT], stdout=subprocess.PIPE, text=True)
    try:
        worker = int(bot.stdout.readline())  # type: ignore[union-attr]
        assert _alive(worker)
    finally:
        bot.send_signal(signal.SIGKILL)  # no chance to stop its worker
        bot.wait()
    deadline = time.monotonic() + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(worker)


def test_par_line_text_reads_codes():
    deck = deal(CLASSIC, 7)
    lines = par_line_text(CLASSIC, deck, "T3 W1 W0")
    assert lines == ["Room 1: ♠6 ♠8 ♥10 ♦8. Equipped ♦8. Fought ♠8 with ♦8: took 0. Fought ♠6 with ♦8: took 0. "
                     "Health: 20.", "Room 2: ♥10 ♦7 ♦2 ♦5. Health: 20."]
