"""Sharing a daily's result through the application layer (``app.daily.share``) on a real store: only the
player's finished counted daily, and par only once its day is over."""

from __future__ import annotations

import pytest

from app.daily import attempt as daily_attempt
from app.daily import share as daily_share
from app.errors import NotShareable, NotYourGame
from app.play import solo
from games.engine.calendar import day_of
from tests.app.test_daily_attempt import finish

ALICE, BOB = 1, 2


async def test_only_the_players_finished_counted_daily_is_shared_and_par_waits_for_the_days_end(store, clock):
    today = day_of(clock())
    counted = (await daily_attempt.open_daily(store, ALICE, clock, name="Alice")).record
    with pytest.raises(NotShareable):  # not finished yet
        await daily_share.shareable(store, counted.id, ALICE)
    finished = await finish(store, counted)
    with pytest.raises(NotYourGame):
        await daily_share.shareable(store, counted.id, BOB)
    record = await daily_share.shareable(store, counted.id, ALICE)
    await store.set_daily_par(today, 12)

    during = await daily_share.shared_result(store, record, today)
    assert (during.record.id, during.par, during.name) == (finished.id, None, "Alice")  # no par while it runs
    assert during.streak == 1  # its own day, finished
    after = await daily_share.shared_result(store, record, today + 1)
    assert after.par == 12 and after.streak == during.streak

    practice = (await daily_attempt.open_practice(store, ALICE, today, counted.id, clock)).record
    await solo.abandon(store, practice.id, ALICE)
    with pytest.raises(NotShareable):  # a practice replay is never a result
        await daily_share.shareable(store, practice.id, ALICE)
