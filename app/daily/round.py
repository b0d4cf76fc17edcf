"""The daily round: every server whose post is due gets it, exactly once, several posts in flight at a time.

Who is due: the servers that chose a channel, whose post time today has passed, that this process serves (its
shards) and whose post is neither delivered nor given up. Each post is claimed in the database with a lease
(``Store.claim_daily_post``), built from the day's facts (read once for the round) and the server's own, sent by
the surface (``send``: it words the post and paces it against Discord's global limit), and confirmed. A send that
fails for a while (Discord down, a 429 storm it gave up on) releases the post with a back-off and the retry loop
tries it again; a server that cannot take a post at all (its channel deleted, the bot removed, a permission
missing: ``Unreachable``) is given up for the day with one log line, and so is a post that failed
``GIVE_UP_AFTER`` times. The database gone mid-round pauses the round, which goes on where it was once the
database answers again, for ``DB_PATIENCE``; after that it stops and the surface's retries take it up.

In flight: at most ``in_flight`` posts at once. The pace is the surface's (its share of the global limit); the
bound only has to cover that pace times the time one post takes (claim, build, Discord's answer, confirm: about
0.1 s against a Discord that answers in 80 ms), with room for a Discord that answers five times slower. More
would only hold more leases and memory to no gain; fewer would leave the pace unused when Discord is slow.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta

from app.daily.days import day_of, post_due_at
from app.daily.post_facts import DayFacts, ServerFacts, day_facts, server_facts
from storage.models import GuildSettings
from storage.store import Store

log = logging.getLogger(__name__)

MIDNIGHT = time(0, 0, tzinfo=UTC)
LEASE = timedelta(minutes=2)  # how long one process may hold a post before another takes over
EARLY_MARGIN = timedelta(seconds=30)  # a wake-up just before a post's minute still makes that post
GIVE_UP_AFTER = 8  # failed attempts at one post before it is given up for the day (about an hour of back-off)
POST_SECONDS = 0.5  # the longest a post may take (claim to confirm) at full pace with the bound below
FEWEST_IN_FLIGHT = 4
DB_PATIENCE = timedelta(minutes=10)  # how long the round waits for a database that stopped answering
DB_RETRY_MOST = 5.0  # seconds between looks at a database that stopped answering


def in_flight_for(rate: float) -> int:
    """Posts in flight at once for a pace of ``rate`` posts a second (see the module's note)."""
    return max(FEWEST_IN_FLIGHT, math.ceil(rate * POST_SECONDS))


def post_retry_delay(failures: int) -> timedelta | None:
    """Back-off after the ``failures``-th failed attempt at a post: 30 s, 1, 2, 4, 8, 15, 15 min; None: give up."""
    if failures >= GIVE_UP_AFTER:
        return None
    return min(timedelta(seconds=30) * 2 ** max(failures - 1, 0), timedelta(minutes=15))


def utc_time(value: time) -> time:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def post_nonce(guild_id: int, day: int) -> str:
    """The same nonce for every attempt at one post: Discord returns the message already made with it (within a
    few minutes) instead of making a second one, which covers a send whose answer or confirmation was lost."""
    return f"d{day}g{guild_id}"[:25]


class Unreachable(Exception):
    """The server cannot take its post today (channel deleted, bot removed, permission missing): not retried."""


class RoundStopped(Exception):
    """The database stopped answering for longer than ``DB_PATIENCE``; what is left is for the retries."""


@dataclass(frozen=True, slots=True)
class Due:
    guild_id: int
    channel_id: int
    role_id: int | None
    day: int


@dataclass(slots=True)
class RoundReport:
    delivered: list[int] = field(default_factory=list)  # guild ids posted to by this round
    skipped: int = 0  # given up: unreachable, or failed too often
    failed: int = 0  # released for a later attempt
    taken: int = 0  # claimed by another process (or already delivered)


Send = Callable[[Due, DayFacts, ServerFacts], Awaitable[tuple[int, int]]]  # -> (channel id, message id)


async def post_times(store: Store) -> set[time]:
    """The times of day at which some server's daily post is due (UTC)."""
    return {utc_time(settings.daily_time) for settings in await store.guilds_with_daily()
            if settings.daily_time is not None}


async def anything_daily(store: Store, day: int) -> bool:
    """Whether there is daily work at all: a server posts the daily, or the day's deal is already recorded."""
    return bool(await store.guilds_with_daily()) or await store.get_daily(day) is not None


async def due_posts(store: Store, now: datetime, mine: Callable[[int], bool],
                    settings: Iterable[GuildSettings] | None = None) -> list[Due]:
    """The posts due by ``now`` (within ``EARLY_MARGIN``) that are not settled yet, in the order of their time."""
    moment = now + EARLY_MARGIN
    scheduled = [(s.guild_id, s.daily_channel_id, s.daily_role_id, utc_time(s.daily_time))
                 for s in (settings if settings is not None else await store.guilds_with_daily())
                 if s.daily_time is not None and s.daily_channel_id is not None and mine(s.guild_id)]
    due = []
    for day in sorted({day_of(now), day_of(moment)}):
        settled = await store.settled_daily_posts(day)
        for guild_id, channel_id, role_id, post_time in scheduled:
            at = post_due_at(day, post_time)
            if guild_id not in settled and at <= moment:
                due.append((at, Due(guild_id, channel_id, role_id, day)))
    due.sort(key=lambda pair: (pair[0], pair[1].guild_id))
    return [item for _, item in due]


async def undelivered_posts(store: Store, now: datetime, mine: Callable[[int], bool]) -> list[int]:
    """The servers of this process whose post of today was claimed and is not settled yet (a failure waiting
    for its next attempt, or a process that died holding it)."""
    return [guild_id for guild_id, _, _ in await store.undelivered_daily_posts(day_of(now)) if mine(guild_id)]


class DailyRound:
    """One process's posting: ``run`` posts a list of due posts, ``in_flight`` at a time."""

    def __init__(self, store: Store, owner: str, in_flight: int, sleep=asyncio.sleep) -> None:
        self.store = store
        self.owner = owner
        self.in_flight = in_flight
        self.sleep = sleep
        self.facts: dict[int, DayFacts] = {}  # the day's facts, read once per round
        self.facts_lock = asyncio.Lock()
        self.stopping = False

    async def run(self, due: list[Due], send: Send) -> RoundReport:
        """Post each of ``due``; returns what happened. Raises ``RoundStopped`` (after the posts in flight are
        done) if the database stops answering for longer than ``DB_PATIENCE``."""
        report = RoundReport()
        self.facts = {}
        queue = iter(due)
        stopped: list[RoundStopped] = []

        async def worker() -> None:
            for item in queue:  # one shared iterator: each post is taken by one worker
                if stopped or self.stopping:
                    return
                try:
                    await self.post(item, send, report)
                except RoundStopped as stop:
                    stopped.append(stop)
                    return

        await asyncio.gather(*(worker() for _ in range(min(self.in_flight, len(due)))))
        if stopped:
            raise stopped[0]
        return report

    async def _day_facts(self, day: int) -> DayFacts:
        """The day's facts, read by the first post of the round that needs them; the others wait for them."""
        async with self.facts_lock:
            facts = self.facts.get(day)
            if facts is None:
                facts = self.facts[day] = await day_facts(self.store, day)
            return facts

    def stop(self) -> None:
        """Take no new post (the process is stopping); the posts in flight are finished, the rest is left to the
        next round, here or in another process."""
        self.stopping = True

    async def post(self, item: Due, send: Send, report: RoundReport) -> None:
        store, guild_id, day = self.store, item.guild_id, item.day
        if not await self._patiently(lambda: store.claim_daily_post(guild_id, day, self.owner, LEASE)):
            report.taken += 1
            return
        try:
            facts = await self._day_facts(day)
            where = await send(item, facts, await server_facts(store, facts, guild_id))
        except Unreachable as gone:
            report.skipped += 1
            reason = str(gone)
            log.warning("daily %s in guild %s given up: %s", day, guild_id, reason)
            await self._patiently(lambda: store.give_up_daily_post(guild_id, day, reason))
            return
        except Exception as error:  # noqa: BLE001 - any failure: released for a later attempt
            await self._failed(item, error, report)
            return
        # The message exists: its confirmation waits for the database rather than be lost (a lost one would
        # only cost a second send, which the nonce turns into the same message, but only for a few minutes).
        await self._patiently(lambda: store.confirm_daily_post(guild_id, day, where[0], where[1]))
        report.delivered.append(guild_id)
        log.info("posted daily %s in guild %s", day, guild_id)

    async def _failed(self, item: Due, error: BaseException, report: RoundReport) -> None:
        what = f"{type(error).__name__}: {error}"[:300]
        delay = await self._patiently(lambda: self.store.release_daily_post(
            item.guild_id, item.day, self.owner, what, post_retry_delay))
        if delay is None:
            report.skipped += 1
            log.warning("daily %s in guild %s given up after %d attempts: %s", item.day, item.guild_id,
                        GIVE_UP_AFTER, what)
            return
        report.failed += 1
        log.warning("daily %s in guild %s failed (%s); next attempt in %s", item.day, item.guild_id, what, delay)
        log.debug("the failure of daily %s in guild %s", item.day, item.guild_id, exc_info=error)

    async def _patiently(self, call):
        """``call()``, tried again while the database does not answer, for up to ``DB_PATIENCE``."""
        waited, pause = 0.0, 0.5
        while True:
            try:
                return await call()
            except Exception:
                if waited >= DB_PATIENCE.total_seconds():
                    log.exception("the database did not answer for %s; the daily round stops here", DB_PATIENCE)
                    raise RoundStopped() from None
                if waited == 0:
                    log.exception("the database did not answer mid-round; waiting for it")
                await self.sleep(pause)
                waited += pause
                pause = min(pause * 2, DB_RETRY_MOST)

