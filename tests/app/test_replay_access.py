"""Who may replay which solo game, through the application layer (``app.replays.access``) on a real store: a
finished game only; a daily's only by its player, privately, while its day runs, and with par's line once it is
over; and which game ``/replay`` means."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.daily import attempt as daily_attempt
from app.errors import ReplayRefused
from app.play import solo
from app.replays import access as replay_access
from games.engine import PRESETS, encode
from games.engine.calendar import day_of
from tests.app.test_daily_attempt import finish

ALICE, BOB = 1, 2


def refused(code: str):
    return pytest.raises(ReplayRefused, match=code)


async def test_a_daily_replay_is_its_players_alone_while_the_day_runs_then_anyones_with_par(store, clock):
    today = day_of(clock())
    record = (await daily_attempt.open_daily(store, ALICE, clock, name="Alice")).record
    with refused(replay_access.NOT_OVER):
        replay_access.check_solo(record, ALICE, clock())
    record = await finish(store, record)
    line = list(record.state.history)  # (any line serves as par's here)
    await store.set_daily_par(today, 10, encode(line))
    assert replay_access.check_solo(record, ALICE, clock()) is True  # private, and no par yet
    assert await replay_access.pars_line(store, record, clock()) is None
    with refused(replay_access.DAY_RUNNING):
        replay_access.check_solo(record, BOB, clock())
    tomorrow = clock() + timedelta(days=1)
    assert replay_access.check_solo(record, BOB, tomorrow) is False  # public once the day is over
    assert await replay_access.pars_line(store, record, tomorrow) == tuple(line)
    assert await replay_access.kept_name(store, ALICE) == "Alice"
    assert (await replay_access.asked_game(store, ALICE, daily=today)).id == record.id
    with refused(replay_access.NO_ATTEMPT):
        await replay_access.asked_game(store, BOB, daily=today)


async def test_replay_asks_for_the_players_own_finished_game_or_their_latest(store):
    with refused(replay_access.NOTHING_YET):
        await replay_access.asked_game(store, ALICE)
    first = (await solo.start_game(store, ALICE, PRESETS["classic"], 7)).record
    first = await solo.abandon(store, first.id, ALICE)
    playing = (await solo.start_game(store, ALICE, PRESETS["classic"], 8)).record
    assert replay_access.check_solo(first, BOB, first.ended_at) is False  # a normal game: anyone, in the open
    assert [r.id for r in replay_access.suggested(await store.recent_games(ALICE))] == [first.id]
    assert (await replay_access.asked_game(store, ALICE)).id == first.id  # the latest finished, not the one played
    assert (await replay_access.asked_game(store, ALICE, game=str(first.id))).id == first.id
    for typed in (str(playing.id + 99), "abc"):  # no such game
        with refused(replay_access.NOT_YOURS):
            await replay_access.asked_game(store, ALICE, game=typed)
    with refused(replay_access.NOT_YOURS):
        await replay_access.asked_game(store, BOB, game=str(first.id))
