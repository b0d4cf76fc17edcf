"""The daily through the application layer (``app.daily.attempt``) on a real store: the counted attempt
started once, resumed, refused when used; practice after it; an attempt whose day ended closed on the way."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app import events
from app.daily import attempt as daily
from app.daily.days import daily_seed
from app.daily.deal import daily_deck
from app.errors import NOT_OPEN, PAST_DAY, PracticeRefused
from app.play import solo
from games.engine import legal_actions
from games.engine.calendar import day_end, day_of

ALICE, BOB, GUILD, CHANNEL = 1, 2, 10, 20


async def finish(store, record):
    while record.status == "playing":
        moved = await solo.move(store, record.id, record.user_id, record.version, legal_actions(record.state)[0])
        record = moved.record
    return record


async def test_the_counted_attempt_starts_once_then_resumes_then_is_used(store, clock):
    today = day_of(clock())
    wanted: list[int] = []
    stop = events.listen_par_wanted(store, wanted.append)  # the process has a par it is asked for solved
    turn = await daily.open_daily(store, ALICE, clock, guild_id=GUILD, channel_id=CHANNEL, name="Alice")
    assert (turn.outcome, turn.day, turn.closed) == (daily.STARTED, today, None)
    assert wanted == [today]  # the day's par is not known yet: the use case asks for it, whatever the surface
    record = turn.record
    assert (record.kind, record.day, record.seed) == ("daily", today, None)  # no seed: it would give the deal away
    challenge = await store.get_daily(today)
    assert challenge.seed == daily_seed(await store.daily_secret(), today)
    assert record.state.start_deck == daily_deck(challenge)
    assert await store.names_for([ALICE], today) == {ALICE: "Alice"}

    resumed = await daily.open_daily(store, ALICE, clock)
    assert (resumed.outcome, resumed.record.id) == (daily.RESUMED, record.id)
    finished = await finish(store, record)
    await store.set_daily_par(today, 12)
    used = await daily.open_daily(store, ALICE, clock)
    stop()
    assert wanted == [today]  # asked once: resuming asks nothing, and par is known now
    assert (used.outcome, used.record.id, used.record.status) == (daily.USED, record.id, finished.status)
    assert await store.daily_attempt(ALICE, today) == finished  # no second attempt was made


async def test_an_attempt_left_when_its_day_ended_is_closed_and_the_new_day_starts(store, clock):
    first_day = day_of(clock())
    record = (await daily.open_daily(store, ALICE, clock)).record
    await solo.move(store, record.id, ALICE, 0, legal_actions(record.state)[0])
    clock.now = day_end(first_day) + timedelta(hours=1)
    turn = await daily.open_daily(store, ALICE, clock)
    closed = await store.get_game(record.id)
    assert (closed.status, closed.ended_by) == ("abandoned", "expired")
    assert turn.closed == daily.Closed("daily", first_day, closed.score) and closed.score is not None
    assert (turn.outcome, turn.day, turn.record.day) == (daily.STARTED, first_day + 1, first_day + 1)


async def test_practice_opens_after_the_counted_attempt_and_only_on_its_day(store, clock):
    today = day_of(clock())
    counted = (await daily.open_daily(store, ALICE, clock)).record
    with pytest.raises(PracticeRefused) as refused:
        await daily.open_practice(store, BOB, today, counted.id, clock)  # not Bob's attempt
    assert refused.value.code == NOT_OPEN
    while_on = await daily.open_practice(store, ALICE, today, counted.id, clock)
    assert (while_on.outcome, while_on.record.id) == (daily.RESUMED, counted.id)  # the counted try comes first
    await finish(store, counted)
    practice = await daily.open_practice(store, ALICE, today, counted.id, clock)
    assert (practice.outcome, practice.record.kind) == (daily.STARTED, "practice")
    assert practice.record.state.start_deck == counted.state.start_deck
    again = await daily.open_practice(store, ALICE, today, counted.id, clock)
    assert (again.outcome, again.record.id) == (daily.RESUMED, practice.record.id)
    clock.now = day_end(today) + timedelta(minutes=1)
    with pytest.raises(PracticeRefused) as refused:
        await daily.open_practice(store, ALICE, today, counted.id, clock)
    assert (refused.value.code, refused.value.today) == (PAST_DAY, today + 1)
