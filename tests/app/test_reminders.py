"""Streak reminders through the application layer (``app.daily.reminders``) on a real store: opt-in, due only at
the chosen time on a day not played, claimed once across senders, a passing failure tried again, closed direct
messages told once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.daily import attempt as daily_attempt
from app.daily import reminders
from games.engine.calendar import day_end, day_of
from tests.app.test_daily_attempt import finish

ALICE, BOB = 1, 2


async def due(store, now, owner="one") -> list[reminders.Due]:
    return [claimed async for claimed in reminders.due(store, now, owner)]


async def test_a_reminder_is_due_at_the_chosen_time_once_and_a_failure_gives_it_back(store, clock):
    await finish(store, (await daily_attempt.open_daily(store, ALICE, clock)).record)  # a 1-day streak
    assert await reminders.setting(store, ALICE) == reminders.Setting(None, None)  # opt-in: nothing chosen
    assert await reminders.choose(store, ALICE, 4, "fr") == reminders.Setting(4, None)
    await reminders.choose(store, BOB, 1)
    tomorrow = day_of(clock()) + 1
    assert reminders.remind_at(tomorrow, 4) == day_end(tomorrow) - timedelta(hours=4)
    assert reminders.next_reminder(clock(), 4) == reminders.remind_at(tomorrow - 1, 4)

    assert await due(store, reminders.remind_at(tomorrow, 4) - timedelta(minutes=1)) == []  # not yet
    [claimed] = await due(store, reminders.remind_at(tomorrow, 4) - timedelta(seconds=10))  # a hair early: now
    assert (claimed.reminder.user_id, claimed.reminder.locale, claimed.day, claimed.streak) == (ALICE, "fr",
                                                                                                tomorrow, 1)
    assert await due(store, reminders.remind_at(tomorrow, 2), "other") == []  # claimed: no other sender sends it
    await reminders.release(store, claimed, "one")  # Discord was down: the next time that day tries again
    [again] = await due(store, reminders.remind_at(tomorrow, 2), "other")
    await reminders.sent(store, again)
    at_end = [c.reminder.user_id for c in await due(store, reminders.remind_at(tomorrow, 1))]
    assert at_end == [BOB]  # Alice had hers; Bob's time has come (and he has no streak)


async def test_closed_direct_messages_are_told_once_and_off_means_never(store, clock):
    await reminders.choose(store, ALICE, 8)
    tomorrow = day_of(clock()) + 1
    [claimed] = await due(store, reminders.remind_at(tomorrow, 8))
    await reminders.sent(store, claimed, reminders.CLOSED)
    assert await reminders.setting(store, ALICE) == reminders.Setting(8, tomorrow)
    assert await reminders.setting(store, ALICE) == reminders.Setting(8, None)  # told once
    await reminders.turn_off(store, ALICE)
    assert await reminders.setting(store, ALICE) == reminders.Setting(None, None)
    assert await due(store, reminders.remind_at(tomorrow + 1, 1)) == []
    with pytest.raises(ValueError):  # only the offered times
        await reminders.choose(store, ALICE, 3)
    assert await reminders.setting(store, ALICE) == reminders.Setting(None, None)
