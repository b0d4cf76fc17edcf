"""Players' names kept with their games (migration 0014), on both backends."""

from __future__ import annotations

from games.engine import Rules
from storage.names import NAME_LENGTH


async def test_a_name_kept_with_each_game_is_read_back_per_day_or_latest(store):
    daily = await store.create_game(1, 10, 20, Rules(), seed=5, kind="daily", day=3)
    await store.keep_name(daily.id, "Ada")
    await store.abandon(daily.id, 1)
    later = await store.create_game(1, 10, 20, Rules(), seed=6)
    await store.keep_name(later.id, "Ada L." + "x" * 40)
    other = await store.create_game(2, 11, 21, Rules(), seed=7)  # no name kept: left out, shown by mention
    assert await store.names_for([1, 2], day=3) == {1: "Ada"}
    assert await store.names_for([1, 2]) == {1: ("Ada L." + "x" * 40)[:NAME_LENGTH]}
    assert await store.names_for([]) == {} and other.id
