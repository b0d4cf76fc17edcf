"""Waits behind a store call that pauses (a PostgreSQL write that collided and is run again after a short random
pause) do not stop SimCord's virtual time: advancing it finishes them.

SimCord moves its clock only once every task of the bot is idle or waiting on a timer it knows; a task waiting on
something else is taken for work in progress and waited for in real time. A store call's pause on the loop's
timers, with another task waiting for that call in a way SimCord cannot follow (3.11's ``asyncio.wait_for``, an
``asyncio.Lock`` the call's caller holds), would wait for the clock while the clock waits for it: the sharded
daily test hung so, about one run in three, until SimCord's settle deadline.
"""

from __future__ import annotations

import asyncio

import discord
import simcord

from storage.backends.postgres import _back_off
from storage.time_limit import STORE_WAIT, time_limited


@time_limited
class CollidingStore:
    """A store whose write collides once and is run again after a pause on the loop's own timer, within the
    bot's time limit for a store call."""

    wait = STORE_WAIT

    def __init__(self) -> None:
        self.attempts = 0

    async def claim(self) -> bool:
        self.attempts += 1
        await asyncio.sleep(0.002)
        self.attempts += 1
        return True


async def test_a_timed_store_call_pausing_on_a_timer_finishes_while_time_advances():
    store, results = CollidingStore(), []

    class Bot(discord.Client):
        async def on_ready(self) -> None:
            results.append(await store.claim())

    async with simcord.run(Bot(intents=discord.Intents.none()), settle_timeout=10) as env:
        await env.advance_time(1)
        assert results == [True] and store.attempts == 2


async def test_a_write_pausing_to_run_again_does_not_hold_up_a_task_waiting_for_its_lock():
    # (cogs/daily/post.py: the admin's post_due holds the posting lock while its write pauses; the post loop's
    # post_due waits for the lock)
    lock, done = asyncio.Lock(), []

    async def write() -> None:
        async with lock:
            await _back_off(0.002)
            done.append("write")

    async def waiter() -> None:
        async with lock:
            done.append("waiter")

    class Bot(discord.Client):
        async def on_ready(self) -> None:
            await asyncio.gather(write(), waiter())

    async with simcord.run(Bot(intents=discord.Intents.none()), settle_timeout=10) as env:
        await env.advance_time(1)
        assert done == ["write", "waiter"]
