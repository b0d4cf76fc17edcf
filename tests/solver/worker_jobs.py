"""Jobs for the solver's real worker process in tests: module-level, so a spawned worker can import them."""

from __future__ import annotations

import time


def timed_nap(seconds: float, tag: str) -> tuple[str, float, float]:
    """Sleep in the worker; (tag, start, end) as wall-clock times, to see the order jobs ran in."""
    start = time.time()
    time.sleep(seconds)
    return tag, start, time.time()


def counted_steps(steps: int, pause: float) -> int:
    """Report ``steps`` steps of progress, ``pause`` seconds apart, as a review does; how many."""
    from app.solver import progress

    for done in range(1, steps + 1):
        time.sleep(pause)
        progress.report(done, steps)
    time.sleep(pause)
    return steps


_held: list[bytearray] = []


def hold_memory(megabytes: int) -> int:
    """Keep ``megabytes`` of memory (touched, so resident) in the worker after the job ends, as a job that caches
    much would; how many bytes the worker now keeps this way."""
    _held.append(bytearray(b"\1" * (megabytes * 2**20)))
    return sum(len(block) for block in _held)
