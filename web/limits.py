"""Per-player request limits: a token bucket each, kept in memory (a limit per process is enough to stop a
runaway client; the game itself holds no state here)."""

from __future__ import annotations

import time
from collections import OrderedDict

RATE = 10.0  # requests a second a player may keep up
BURST = 30  # and make at once after a pause
KEPT = 50_000  # buckets remembered at most (the least recently used are forgotten: they were full anyway)


class RateLimit:
    def __init__(self, rate: float = RATE, burst: int = BURST, clock=time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: OrderedDict[object, tuple[float, float]] = OrderedDict()

    def allow(self, key: object) -> float:
        """0.0 when ``key`` may make a request now (and it is counted), else the seconds to wait."""
        now = self.clock()
        tokens, at = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens - 1.0, now)
        self._buckets.move_to_end(key)
        while len(self._buckets) > KEPT:
            self._buckets.popitem(last=False)
        return 0.0
