"""The daily round as a use case of the application layer, without Discord: a stand-in for Discord's send (its
latency, its global limit with 429s, a message per nonce) and the real database. Time is SimCord's (virtual), so a
second here is a second of the round's own clock; the bot under SimCord has its daily turned off, so only the
rounds of each test post."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections import Counter, deque

import pytest

from app.daily.budget import SendBudget, process_share
from app.daily.round import (
    GIVE_UP_AFTER,
    LEASE,
    DailyRound,
    Unreachable,
    due_posts,
    in_flight_for,
    post_nonce,
)
from tests.discord.harness import make_bot

# Each step of virtual time waits for the database's real work of that step: a round's worth may take seconds.
pytestmark = pytest.mark.simcord(settle_timeout=180)

LIMIT = 50  # Discord's global limit, requests a second
LATENCY = 0.08  # seconds Discord takes to answer


@pytest.fixture
async def simcord_bot(db_path):
    bot = make_bot(db_path, daily_enabled=False)  # the rounds of each test are the only posting
    yield bot
    await bot.close()


class Discord:
    """Answers a send after ``latency``; over ``limit`` sends in one second it answers 429 (global) and the
    sender waits ``retry_after`` and sends again, as discord.py does; a second send with a nonce already used
    returns the message made with it."""

    def __init__(self, limit: int = LIMIT, latency: float = LATENCY) -> None:
        self.limit, self.latency = limit, latency
        self.window: deque[float] = deque()
        self.sent: list[float] = []  # when each send was let through
        self.messages: dict[str, int] = {}  # nonce -> message id
        self.made: Counter[int] = Counter()  # guild id -> messages made
        self.limited = 0
        self.in_flight = self.most_in_flight = 0
        self.unreachable: set[int] = set()
        self.failing: set[int] = set()

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def over(self) -> float | None:
        now = self.now()
        while self.window and self.window[0] <= now - 1.0:
            self.window.popleft()
        if len(self.window) >= self.limit:
            return self.window[0] + 1.0 - now
        self.window.append(now)
        self.sent.append(now)
        return None

    def sender(self, budget: SendBudget, urgent: bool = True):
        async def send(item, facts, server) -> tuple[int, int]:
            assert facts.day == item.day and server.played == 0
            while True:
                await budget.take(urgent=urgent)
                wait = self.over()
                if wait is None:
                    break
                self.limited += 1
                budget.limited_for(wait)
                await asyncio.sleep(wait)
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
            try:
                await asyncio.sleep(self.latency)
            finally:
                self.in_flight -= 1
            if item.guild_id in self.unreachable:
                raise Unreachable("403 Missing Permissions")
            if item.guild_id in self.failing:
                raise OSError("connection reset")
            nonce = post_nonce(item.guild_id, item.day)
            if nonce not in self.messages:
                self.messages[nonce] = len(self.messages) + 1
                self.made[item.guild_id] += 1
            return item.channel_id, self.messages[nonce]
        return send

    def busiest_second(self) -> int:
        return max((sum(1 for t in self.sent if s <= t < s + 1.0) for s in self.sent), default=0)


def guild_ids(count: int) -> list[int]:
    return [((n + 1) << 22) | 7 for n in range(count)]  # shard (id >> 22) % 2 alternates


async def schedule(store, count: int) -> list[int]:
    ids = guild_ids(count)
    for guild_id in ids:
        await store.set_daily_schedule(guild_id, guild_id + 1, "00:00")
    return ids


def everyone(guild_id: int) -> bool:
    return True


def as_bot(world, coroutine) -> asyncio.Task:
    """A task of the bot's, as the cog's would be: SimCord lets virtual time pass only once it has settled."""
    with world.env._bot_scope():
        return asyncio.get_running_loop().create_task(coroutine)


async def run_for(world, seconds: float, *coroutines):
    tasks = [as_bot(world, c) for c in coroutines]
    await world.env.advance_time(seconds)
    assert all(t.done() for t in tasks), "the round did not finish in time"
    return [t.result() for t in tasks]


async def due(world, mine=everyone):
    return await due_posts(world.store, world.env.now(), mine)


async def test_the_round_posts_concurrently_within_its_bound_at_the_pace_of_the_limit(world):
    ids = await schedule(world.store, 80)
    discord, budget = Discord(), SendBudget(process_share(LIMIT, None, None))
    bound = in_flight_for(budget.share)
    rounds = DailyRound(world.store, "here", bound)
    [report] = await run_for(world, 20, rounds.run(await due(world), discord.sender(budget)))
    assert sorted(report.delivered) == ids and all(discord.made[g] == 1 for g in ids)
    assert 1 < discord.most_in_flight <= bound  # several in flight, never more than the bound
    seconds = discord.sent[-1] - discord.sent[0]
    assert 79 / seconds >= 45  # posts a second, against a Discord that answers after 80 ms
    assert discord.busiest_second() <= LIMIT and discord.limited == 0
    assert await due(world) == []  # every post settled: the next round has nothing to do


async def test_two_processes_share_the_global_limit_by_their_shards(world):
    ids = await schedule(world.store, 100)
    discord = Discord()
    processes = []
    for shard in (0, 1):
        budget = SendBudget(process_share(LIMIT, 2, (shard,)))

        def mine(guild_id: int, shard: int = shard) -> bool:
            return (guild_id >> 22) % 2 == shard

        rounds = DailyRound(world.store, f"process {shard}", in_flight_for(budget.share))
        processes.append(rounds.run(await due(world, mine), discord.sender(budget)))
    reports = await run_for(world, 20, *processes)
    assert sorted(reports[0].delivered + reports[1].delivered) == ids and all(discord.made[g] == 1 for g in ids)
    assert discord.busiest_second() <= LIMIT and discord.limited == 0  # together, under the limit, no 429
    assert 99 / (discord.sent[-1] - discord.sent[0]) >= 45  # and together at the pace of the limit


async def test_count_edits_wait_while_posts_want_the_budget(world):
    budget, order = SendBudget(10.0), []

    async def request(name: str, urgent: bool) -> None:
        await budget.take(urgent=urgent)
        order.append(name)

    await run_for(world, 5, *([request(f"edit {n}", False) for n in range(5)]
                              + [request(f"post {n}", True) for n in range(10)]))
    # The first edit was first in line on an idle budget; after it every post went before any other edit.
    assert order[:1] == ["edit 0"] and order[1:11] == [f"post {n}" for n in range(10)]
    assert order[11:] == [f"edit {n}" for n in range(1, 5)]


async def test_a_process_killed_mid_round_leaves_no_post_lost_or_doubled(world):
    ids = await schedule(world.store, 60)
    discord, budget = Discord(), SendBudget(process_share(LIMIT, None, None))
    dying = as_bot(world, DailyRound(world.store, "dies", 8).run(await due(world), discord.sender(budget)))
    await world.env.advance_time(1.2)  # about half-way: some posts delivered, some sent and not confirmed
    dying.cancel()  # the process is killed: its leases stay in the database
    made = sum(discord.made.values())
    assert 0 < made < len(ids)
    restarted = DailyRound(world.store, "restarted", 8)
    [first] = await run_for(world, 10, restarted.run(await due(world), discord.sender(SendBudget(47.5))))
    assert first.taken > 0  # those the killed process held: not while its leases run
    await world.env.advance_time(LEASE.total_seconds())
    [second] = await run_for(world, 10, restarted.run(await due(world), discord.sender(SendBudget(47.5))))
    assert await due(world) == []
    assert all(discord.made[g] == 1 for g in ids)  # each server one message: a resend got the nonce's message
    assert second.delivered  # the killed process's posts, taken over once their leases ran out


async def test_an_unreachable_server_is_given_up_with_one_log_line_and_never_blocks_the_others(world, caplog):
    ids = await schedule(world.store, 20)
    discord, budget = Discord(), SendBudget(47.5)
    discord.unreachable = {ids[3], ids[7]}
    with caplog.at_level(logging.WARNING, "app.daily.round"):
        [report] = await run_for(world, 5, DailyRound(world.store, "here", 4).run(await due(world),
                                                                                discord.sender(budget)))
    assert report.skipped == 2 and len(report.delivered) == 18
    lines = [r.getMessage() for r in caplog.records if "given up" in r.getMessage()]
    assert len(lines) == 2 and all("403 Missing Permissions" in line for line in lines)
    assert await due(world) == []  # not retried: settled for the day


async def test_a_post_that_keeps_failing_is_given_up_after_its_attempts(world):
    [guild] = await schedule(world.store, 1)
    discord, budget = Discord(), SendBudget(47.5)
    discord.failing = {guild}
    rounds = DailyRound(world.store, "here", 4)
    for attempt in range(1, GIVE_UP_AFTER + 1):
        [report] = await run_for(world, 1, rounds.run(await due(world), discord.sender(budget)))
        assert (report.failed, report.skipped) == ((1, 0) if attempt < GIVE_UP_AFTER else (0, 1))
        await world.env.advance_time(16 * 60)  # the back-off runs out
    assert await due(world) == []


async def test_a_429_storm_slows_the_round_to_the_new_limit_and_loses_nothing(world):
    ids = await schedule(world.store, 220)
    discord, budget = Discord(), SendBudget(process_share(LIMIT, None, None))
    task = as_bot(world, DailyRound(world.store, "here", 24).run(await due(world), discord.sender(budget)))
    await world.env.advance_time(2)
    discord.limit = 20  # lowered under the bot's feet
    storm = discord.sent[-1]  # (the round's clock: the test's own is not SimCord's virtual one)
    await world.env.advance_time(40)
    assert task.done() and sorted(task.result().delivered) == ids
    assert all(discord.made[g] == 1 for g in ids)
    later = [t for t in discord.sent if t >= storm + 3]  # within seconds, at the new limit
    assert later and max(sum(1 for t in later if s <= t < s + 1) for s in later) <= 20
    assert discord.limited < len(ids) * 0.15  # some 429s while the pace comes down, not one per post


async def test_the_database_gone_for_a_minute_mid_round_resumes_where_it_was_exactly_once(world):
    ids = await schedule(world.store, 60)
    discord, budget = Discord(), SendBudget(47.5)
    task = as_bot(world, DailyRound(world.store, "here", 8).run(await due(world), discord.sender(budget)))
    await world.env.advance_time(1.0)
    with sqlite3.connect(world.database) as db:
        db.execute("ALTER TABLE daily_posts RENAME TO daily_posts_away")
    await world.env.advance_time(60)
    assert not task.done()  # waiting for the database, not giving up
    stalled = sum(discord.made.values())
    with sqlite3.connect(world.database) as db:
        db.execute("ALTER TABLE daily_posts_away RENAME TO daily_posts")
    await world.env.advance_time(20)
    assert task.done() and sorted(task.result().delivered) == ids
    assert stalled < len(ids) and all(discord.made[g] == 1 for g in ids)
    assert await due(world) == []
