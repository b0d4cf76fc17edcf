"""A single-player game through the application layer (``app.play.solo``) on a real store: start, the game in
progress offered back, moves on the version the player saw, stale and racing moves, giving up, a daily's day."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from app.errors import DayOver, GameOver, NoGame, NotYourGame, StaleVersion
from app.play import solo
from games.engine import PRESETS, IllegalAction, deal, legal_actions
from games.engine.calendar import day_end, day_of
from storage.models import DAILY

CLASSIC = PRESETS["classic"]
ALICE, BOB, GUILD, CHANNEL = 1, 2, 10, 20


async def test_a_game_starts_once_and_the_one_in_progress_comes_back(store):
    started = await solo.start_game(store, ALICE, CLASSIC, 7, guild_id=GUILD, channel_id=CHANNEL)
    assert started.outcome == solo.STARTED and started.to_show
    assert started.record.state.start_deck == deal(CLASSIC, 7) and started.record.version == 0
    # Asked again before its first answer was shown (no message kept yet): the same game, to be shown now.
    again = await solo.start_game(store, ALICE, PRESETS["lenient"], 8)
    assert (again.outcome, again.record.id, again.to_show) == (solo.UNSHOWN, started.record.id, True)
    await store.set_message(started.record.id, CHANNEL, 555)
    offered = await solo.start_game(store, ALICE, CLASSIC)
    assert (offered.outcome, offered.record.id, offered.to_show) == (solo.IN_PROGRESS, started.record.id, False)
    assert (await solo.current_game(store, ALICE)).id == started.record.id
    assert (await solo.game_in_progress(store, ALICE)).id == started.record.id
    with pytest.raises(NoGame):
        await solo.game_in_progress(store, BOB)
    assert await solo.current_game(store, BOB) is None


async def test_a_move_lands_on_the_version_seen_and_a_stale_one_gets_the_game_as_it_is(store):
    record = (await solo.start_game(store, ALICE, CLASSIC, 7)).record
    action = legal_actions(record.state)[0]
    moved = (await solo.move(store, record.id, ALICE, 0, action)).record
    assert moved.version == 1 and moved.state.history == (action,)
    with pytest.raises(StaleVersion) as stale:  # the second press of a double click: no second move
        await solo.move(store, record.id, ALICE, 0, legal_actions(moved.state)[0].code)
    assert type(stale.value) is StaleVersion and stale.value.code == "stale"
    assert stale.value.record.version == 1 and stale.value.seen == 0
    assert stale.value.record.state == moved.state
    assert await store.game_actions(record.id) == [action.code]


async def test_of_two_racing_moves_on_one_version_exactly_one_lands(store):
    record = (await solo.start_game(store, ALICE, CLASSIC, 7)).record
    first, second = legal_actions(record.state)[:2]
    results = await asyncio.gather(solo.move(store, record.id, ALICE, 0, first),
                                   solo.move(store, record.id, ALICE, 0, second), return_exceptions=True)
    landed = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, StaleVersion)]
    assert len(landed) == 1 and len(refused) == 1
    assert refused[0].record.version == 1 and refused[0].record.state == landed[0].record.state
    assert len(await store.game_actions(record.id)) == 1


async def test_another_players_move_and_an_illegal_one_change_nothing(store):
    record = (await solo.start_game(store, ALICE, CLASSIC, 7)).record
    with pytest.raises(NotYourGame) as theirs:
        await solo.move(store, record.id, BOB, 0, legal_actions(record.state)[0])
    assert theirs.value.owner_id == ALICE and theirs.value.code == "not_your_game"
    with pytest.raises(IllegalAction):
        await solo.move(store, record.id, ALICE, 0, "B1")  # no merchant in the classic game
    assert await store.game_actions(record.id) == []
    with pytest.raises(NotYourGame):
        await solo.own_game(store, record.id, BOB)


async def test_giving_up_ends_the_game_once_and_a_move_after_it_is_game_over(store):
    record = (await solo.start_game(store, ALICE, CLASSIC, 7)).record
    with pytest.raises(NotYourGame):
        await solo.abandon(store, record.id, BOB)
    ended = await solo.abandon(store, record.id, ALICE)
    assert ended.status == "abandoned" and ended.ended_by == "abandoned"
    with pytest.raises(GameOver) as over:
        await solo.abandon(store, record.id, ALICE)
    assert over.value.record.status == "abandoned"
    with pytest.raises(GameOver) as over:
        await solo.move(store, record.id, ALICE, 0, legal_actions(record.state)[0])
    assert type(over.value) is GameOver and over.value.code == "game_over"
    with pytest.raises(GameOver):
        await solo.resumable_game(store, record.id, ALICE)
    assert await solo.current_game(store, ALICE) is None
    again = await solo.start_again(store, record.id, BOB, PRESETS["lenient"])
    assert again.outcome == solo.STARTED and again.record.user_id == BOB and again.record.rules == CLASSIC


async def test_a_move_after_the_dailys_day_ended_closes_the_attempt_instead(store, clock):
    today = day_of(clock())
    record = await store.create_game(ALICE, GUILD, CHANNEL, CLASSIC, None, deal(CLASSIC, 7), DAILY, day=today)
    clock.now = day_end(today) + timedelta(seconds=1)
    with pytest.raises(DayOver) as over:
        await solo.move(store, record.id, ALICE, 0, legal_actions(record.state)[0])
    assert over.value.code == "day_over" and over.value.day == today
    closed = over.value.record
    assert (closed.status, closed.ended_by, closed.version) == ("abandoned", "expired", 0)
    assert closed.score is not None  # scored as a forfeit
    # The same click again (the message still shows version 0): still the day's end, not a plain stale click.
    with pytest.raises(DayOver):
        await solo.move(store, record.id, ALICE, 0, legal_actions(record.state)[0])
    assert await store.game_actions(record.id) == []
