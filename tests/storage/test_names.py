"""Players' names kept with their games (migration 0012), on both backends."""

from __future__ import annotations

from bot.engine import Rules
from storage.names import NAME_LENGTH, keep_name, names_for


async def test_a_name_kept_with_each_game_is_read_back_per_day_or_latest(store):
    daily = await store.create_game(1, 10, 20, Rules(), seed=5, kind="daily", day=3)
    await keep_name(store, daily.id, "Ada")
    await store.abandon(daily.id, 1)
    later = await store.create_game(1, 10, 20, Rules(), seed=6)
    await keep_name(store, later.id, "Ada L." + "x" * 40)
    other = await store.create_game(2, 11, 21, Rules(), seed=7)  # no name kept: left out, shown by mention
    assert await names_for(store, [1, 2], day=3) == {1: "Ada"}
    assert await names_for(store, [1, 2]) == {1: ("Ada L." + "x" * 40)[:NAME_LENGTH]}
    assert await names_for(store, []) == {} and other.id
