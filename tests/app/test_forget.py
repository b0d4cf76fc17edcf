"""Forgetting a player through the application layer (``app.players.forget``) on a real store: what went, and
whether anything was kept at all."""

from __future__ import annotations

from app.daily import reminders
from app.play import solo
from app.players.forget import forget_player
from games.engine import PRESETS

ALICE, BOB = 1, 2


async def test_everything_about_the_player_goes_and_a_second_time_finds_nothing(store):
    started = (await solo.start_game(store, ALICE, PRESETS["classic"], 7)).record
    kept = (await solo.start_game(store, BOB, PRESETS["classic"], 7)).record
    await reminders.choose(store, ALICE, 2)
    forgotten = await forget_player(store, ALICE)
    assert forgotten.anything and forgotten.counts["games"] == 1 and forgotten.counts["reminders"] == 1
    assert await solo.current_game(store, ALICE) is None
    assert await reminders.setting(store, ALICE) == reminders.Setting(None, None)
    assert (await solo.current_game(store, BOB)).id == kept.id != started.id  # no one else's
    again = await forget_player(store, ALICE)
    assert not again.anything
