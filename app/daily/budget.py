"""The bot's share of Discord's global rate limit, paced in the process before a request is made.

Discord lets one bot token make ``limit`` requests a second over all its processes (50 unless Discord raised it)
and answers a request over it with 429 and ``X-RateLimit-Global``. Every process of the bot takes its share of
that limit by the shards it runs (``share``: its shards over all shards; docs/OPERATIONS.md), less a margin
(``HEADROOM``) so that processes whose seconds do not line up still stay under it together. Within the process,
posts go first: a request marked ``urgent`` (the daily post) is served before any other that waits (the day's
running count, finishing Share posts), so a count edit never delays a post.

A global 429 all the same (the limit lowered under the bot's feet, another tool on the same token) stops every
request until its ``retry_after`` and lowers the pace by a quarter, at most once a second; each second without one
gives back 2 % of the share, so the pace settles just under whatever the limit now is.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

HEADROOM = 0.95  # of its share a process uses: the shares of processes whose seconds do not line up still fit
SLOWER, FASTER = 0.75, 0.02  # after a global 429: the pace times SLOWER; each quiet second: + FASTER of the share
LOWEST = 0.5  # requests a second: the pace never falls below this


def process_share(limit: float, shard_count: int | None, shard_ids: tuple[int, ...] | None) -> float:
    """Requests a second this process may make: ``limit`` over its part of the shards, less ``HEADROOM``."""
    if not shard_count:
        return limit * HEADROOM
    mine = len(shard_ids) if shard_ids is not None else shard_count
    return limit * HEADROOM * mine / shard_count


class SendBudget:
    """A pace of ``rate`` requests a second, one at a time (no burst over it), posts first.

    An urgent request books the next free turn and sleeps until it; any other waits until no turn is booked ahead
    (the budget is idle) and takes the turn at hand. So edits use what posts leave, and never delay one.
    """

    def __init__(self, rate: float, clock: Callable[[], float] | None = None) -> None:
        if rate <= 0:
            raise ValueError("the rate must be positive")
        self.share = self.rate = rate
        self._clock = clock
        self.next_at = 0.0  # the first turn not booked yet
        self.paused_until = 0.0
        self.calm_since = 0.0  # the last global 429, for the pace's recovery
        self.taken = 0  # requests let through
        self.limited = 0  # global 429s reported

    def clock(self) -> float:
        """Seconds, on the event loop's clock unless given another (virtual under SimCord)."""
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    async def take(self, urgent: bool = False) -> None:
        """Wait for this request's turn."""
        while True:
            now = self.clock()
            if not urgent and max(self.next_at, self.paused_until) > now:
                await asyncio.sleep(max(self.next_at, self.paused_until) - now)  # posts' turns are booked: after them
                continue
            turn = max(self.next_at, self.paused_until, now)
            # Spaced from the turn before, not from when a sleeper woke (a late wake-up is no slower pace), but
            # never from long before now: an idle budget makes no burst.
            interval = 1.0 / self._recovered(now)
            self.next_at = max(turn, now - interval / 4) + interval
            if turn > now:
                await asyncio.sleep(turn - now)
            if self.paused_until > turn:  # a global 429 came meanwhile: this turn is gone, book another
                continue
            self.taken += 1
            return

    def limited_for(self, retry_after: float) -> None:
        """Discord answered a global 429: nothing goes until ``retry_after`` has passed, and the pace slows."""
        now = self.clock()
        self.limited += 1
        if now - self.calm_since >= 1.0 or self.limited == 1:
            # One cut a second at most: the requests already in flight when the limit was hit get their 429s too.
            self.rate = max(LOWEST, self._recovered(now) * SLOWER)
            self.calm_since = now
        self.paused_until = max(self.paused_until, now + retry_after)
        self.next_at = max(self.next_at, self.paused_until)  # turns booked within the pause are booked again

    def _recovered(self, now: float) -> float:
        quiet = max(0.0, now - self.calm_since)
        return min(self.share, self.rate + self.share * FASTER * quiet)
