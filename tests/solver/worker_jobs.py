"""Jobs for the solver's real worker process in tests: module-level, so a spawned worker can import them."""

from __future__ import annotations

import time


def timed_nap(seconds: float, tag: str) -> tuple[str, float, float]:
    """Sleep in the worker; (tag, start, end) as wall-clock times, to see the order jobs ran in."""
    start = time.time()
    time.sleep(seconds)
    return tag, start, time.time()
