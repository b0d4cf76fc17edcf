"""Reminder settings and once-a-day claims, on both backends: two stores on one database claim a reminder once."""

from __future__ import annotations

import asyncio

import pytest

from app.daily.days import DAILY_RULES, daily_seed
from storage import open_store

CHANNEL = 601


async def test_opting_in_changing_and_turning_off(store):
    assert await store.reminders.get(1) is None
    assert await store.reminders.set(1, 4, "de") is None
    assert (await store.reminders.get(1)).hours == 4
    before = await store.reminders.set(1, 1, "fr")
    assert (before.hours, before.locale) == (4, "de")
    assert await store.reminders.set(1, None) is not None
    assert await store.reminders.get(1) is None
    with pytest.raises(ValueError):
        await store.reminders.set(1, 3)


async def test_due_reminders_leave_out_players_who_started_today_or_were_already_claimed(store):
    for user, hours in ((1, 4), (2, 4), (3, 4), (4, 8)):
        await store.reminders.set(user, hours, None)
    today, tomorrow = 60, 61  # the storage tests' clock is on 2026-03-01 12:00 (Daily #60)
    record = await store.create_game(2, None, CHANNEL, DAILY_RULES, seed=daily_seed(await store.daily_secret(), today),
                                     kind="daily", day=today)
    assert record.day == today
    assert [r.user_id for r in await store.reminders.due(today, 4)] == [1, 3]  # 2 has started; 4 is at 8 hours
    assert await store.reminders.claim(1, today, "a")
    assert not await store.reminders.claim(1, today, "b")
    assert [r.user_id for r in await store.reminders.due(today, 4)] == [3]
    assert [r.user_id for r in await store.reminders.due(tomorrow, 4)] == [1, 2, 3]  # a new day, a new reminder
    assert await store.reminders.claim(3, today, "a")
    await store.reminders.record_outcome(3, today, "closed")
    assert (await store.reminders.get(3)).undelivered_day == today
    assert await store.reminders.outcome(3, today) == "closed" and await store.reminders.outcome(1, today) == ""


async def test_two_stores_on_one_database_claim_each_reminder_once(db_path, clock):
    first = await open_store(db_path, clock=clock)
    second = await open_store(db_path, clock=clock)
    try:
        await first.reminders.set(7, 2, None)
        results = await asyncio.gather(*(store.reminders.claim(7, 60, name) for store, name in
                                         ((first, "a"), (second, "b"), (first, "c"), (second, "d"))))
        assert sorted(results) == [False, False, False, True]
        assert await second.reminders.due(60, 2) == []
    finally:
        await first.close()
        await second.close()


async def test_a_released_claim_can_be_claimed_again_but_only_by_its_owner_and_only_before_an_outcome(store):
    await store.reminders.set(5, 4, None)
    assert await store.reminders.claim(5, 60, "a")
    await store.reminders.release(5, 60, "b")  # not b's claim: nothing happens
    assert not await store.reminders.claim(5, 60, "b")
    await store.reminders.release(5, 60, "a")
    assert [r.user_id for r in await store.reminders.due(60, 4)] == [5]
    assert await store.reminders.claim(5, 60, "b")
    await store.reminders.record_outcome(5, 60, "sent")
    await store.reminders.release(5, 60, "b")  # sent is sent
    assert await store.reminders.outcome(5, 60) == "sent"
