"""Request limits: a token bucket each, kept in memory (a limit per process is enough to stop a runaway client;
the game itself holds no state here). Each player has a budget of API requests; signing in (the code exchange,
a call to Discord each) has tighter ones, per client address and per player."""

from __future__ import annotations

import ipaddress
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


# Signing in (``POST /api/token``): each is a call to Discord, so fewer are allowed than other requests.
ADDRESS_RATE, ADDRESS_BURST = 2.0, 30  # a client address (one of Discord's proxies carries many players)
USER_RATE, USER_BURST = 1 / 6, 10  # a player: ten openings of the table in a row, then one every 6 s


class SignIns:
    """The code exchange's budgets: per client address before Discord is asked, per player after."""

    def __init__(self, clock=time.monotonic) -> None:
        self.by_address = RateLimit(ADDRESS_RATE, ADDRESS_BURST, clock)
        self.by_player = RateLimit(USER_RATE, USER_BURST, clock)


def client_address(peer: str | None, forwarded_for: str | None) -> str:
    """Who is asking, for a limit: the peer's address, or, when the peer is a proxy on this machine or a private
    network, the address that proxy saw (the last of ``X-Forwarded-For``: the one it added, which a client cannot
    forge)."""
    address = peer or ""
    if forwarded_for and _private(address):
        last = forwarded_for.rsplit(",", 1)[-1].strip()
        if last:
            return last[:64]
    return address


def _private(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_private
