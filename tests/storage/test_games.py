"""Games on a real SQLite file: create, load, play, replay, slots, ownership, staleness, damage."""

from __future__ import annotations

import random
from datetime import UTC, timedelta

import pytest

from games.engine import (
    Action,
    IllegalAction,
    Rules,
    deal,
    deck_codes,
    decode,
    legal_actions,
    new_game,
    preset,
    replay,
    to_json,
)
from storage import (
    ABANDONED,
    ActiveGameExists,
    CorruptGame,
    GameNotFound,
    MoveRefused,
    open_store,
)
from tests.storage.helpers import ROOMY, dying_line, play_line, raw, winning_seed

USER, OTHER, GUILD, CHANNEL = 1001, 1002, 501, 601


async def test_a_new_game_is_stored_with_its_deal_and_times(store, clock):
    record = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=12345)
    assert (record.version, record.status, record.kind, record.score, record.ended_at) == (0, "playing", "normal",
                                                                                           None, None)
    assert record.started_at == clock.now and record.started_at.tzinfo is not None
    assert record.state == new_game(Rules(), seed=12345)
    loaded = await store.load_game(record.id)
    assert loaded == record and loaded.state == record.state
    assert loaded.started_at.utcoffset() == timedelta(0)
    assert loaded.deck == deck_codes(deal(Rules(), 12345)) and loaded.seed == 12345
    assert (loaded.guild_id, loaded.channel_id, loaded.message_id) == (GUILD, CHANNEL, None)


async def test_an_explicit_deck_is_kept_and_the_seed_may_be_absent(store):
    deck = tuple(reversed(Rules().full_deck()))
    record = await store.create_game(USER, None, None, Rules(), deck=deck)
    loaded = await store.load_game(record.id)
    assert loaded.seed is None and loaded.state.start_deck == deck and loaded.guild_id is None
    # Codes work as well as cards.
    second = await store.create_game(OTHER, None, None, Rules(), deck=deck_codes(deck))
    assert (await store.load_game(second.id)).state.start_deck == deck


async def test_a_random_game_played_to_the_end_reloads_and_replays_identically(store, clock):
    rng = random.Random(7)
    record = await store.create_game(USER, GUILD, CHANNEL, preset("expansion"), seed=99)
    while record.playing:
        action = rng.choice(legal_actions(record.state))
        clock.advance(0.5)
        record = await store.play(record.id, USER, record.version, action)
        assert record.version == len(record.state.history)
    assert record.status in ("won", "dead") and record.score == record.state.score
    assert record.ended_at == clock.now
    loaded = await store.load_game(record.id)
    assert loaded == record and loaded.state == record.state
    log = await store.game_actions(record.id)
    assert len(log) == record.version
    rebuilt = replay(preset("expansion"), loaded.state.start_deck, decode(" ".join(log)), seed=99)
    assert rebuilt == loaded.state


async def test_actions_may_be_given_as_codes(store):
    record = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=3)
    code = legal_actions(record.state)[0].code
    record = await store.play(record.id, USER, 0, code)
    assert record.version == 1 and await store.game_actions(record.id) == [code]


async def test_one_active_game_per_slot(store):
    first = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=1)
    with pytest.raises(ActiveGameExists) as caught:
        await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=2)
    assert caught.value.game.id == first.id and caught.value.game.state == first.state
    # The daily slot is separate, shared by daily and practice games.
    daily = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=5, kind="daily", day=60)
    with pytest.raises(ActiveGameExists) as caught:
        await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=5, kind="practice", day=59)
    assert caught.value.game.id == daily.id
    with pytest.raises(ActiveGameExists) as caught:  # a running counted daily is also a used attempt: running wins
        await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=5, kind="daily", day=60)
    assert caught.value.game.id == daily.id
    assert (await store.active_game(USER, "normal")).id == first.id
    assert (await store.active_game(USER, "daily")).id == daily.id
    assert (await store.active_game(USER, "practice")).id == daily.id
    assert [g.id for g in await store.active_games(USER)] == [daily.id, first.id]
    assert await store.active_game(OTHER, "normal") is None
    # Another user is not affected; after abandoning, a new game may start.
    await store.create_game(OTHER, GUILD, CHANNEL, Rules(), seed=2)
    await store.abandon(first.id, USER)
    assert await store.active_game(USER, "normal") is None
    assert (await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=2)).id != first.id


async def test_a_finished_game_frees_its_slot(store):
    record = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=8)
    record = await play_line(store, record, dying_line(record.state))
    assert record.status == "dead"
    assert await store.active_game(USER) is None
    await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=9)


async def test_play_refuses_strangers_stale_versions_unknown_games_and_illegal_moves(store):
    record = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=4)
    action = legal_actions(record.state)[0]
    with pytest.raises(MoveRefused) as caught:
        await store.play(record.id, OTHER, 0, action)
    assert caught.value.why == MoveRefused.NOT_YOURS
    with pytest.raises(GameNotFound):
        await store.play(record.id + 100, USER, 0, action)
    with pytest.raises(GameNotFound):
        await store.load_game(record.id + 100)
    with pytest.raises(IllegalAction):  # the engine's error, unchanged
        await store.play(record.id, USER, 0, Action("take", 7))
    assert (await store.load_game(record.id)).version == 0  # nothing was written
    await store.play(record.id, USER, 0, action)
    with pytest.raises(MoveRefused) as caught:
        await store.play(record.id, USER, 0, action)
    assert caught.value.why == MoveRefused.STALE and caught.value.current == 1 and caught.value.expected == 0
    with pytest.raises(MoveRefused):
        await store.play(record.id, USER, 5, action)


async def test_abandon_ends_the_game_and_later_clicks_are_game_over(store, clock):
    record = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=4)
    record = await store.play(record.id, USER, 0, legal_actions(record.state)[0])
    with pytest.raises(MoveRefused) as refused:
        await store.abandon(record.id, OTHER)
    assert refused.value.why == MoveRefused.NOT_YOURS
    clock.advance(30)
    gone = await store.abandon(record.id, USER)
    assert (gone.status, gone.score, gone.version, gone.ended_at) == (ABANDONED, None, 1, clock.now)
    with pytest.raises(MoveRefused) as caught:
        await store.play(record.id, USER, 1, legal_actions(record.state)[0])
    assert caught.value.why == MoveRefused.OVER and caught.value.status == ABANDONED
    again = await store.abandon(record.id, USER)  # already over: unchanged
    assert again == gone


async def test_set_message_is_remembered(store):
    record = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=4)
    await store.set_message(record.id, 777, 888)
    loaded = await store.load_game(record.id)
    assert (loaded.channel_id, loaded.message_id) == (777, 888)
    with pytest.raises(GameNotFound):
        await store.set_message(record.id + 1, 1, 2)


async def test_a_damaged_snapshot_is_rebuilt_from_the_action_log(store, db_path):
    record = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=21)
    for _ in range(3):
        record = await store.play(record.id, USER, record.version, legal_actions(record.state)[0])
    with raw(db_path) as conn:
        conn.execute("UPDATE games SET snapshot = '{\"format\": 1, \"garbage' WHERE id = ?", (record.id,))
    loaded = await store.load_game(record.id)
    assert loaded.state == record.state and not loaded.damaged
    # A snapshot that is valid JSON but of an older version is not trusted either.
    older = new_game(Rules(), seed=21)
    with raw(db_path) as conn:
        conn.execute("UPDATE games SET snapshot = ? WHERE id = ?", (to_json(older), record.id))
    assert (await store.load_game(record.id)).state == record.state
    # Play goes on from the rebuilt state and writes a good snapshot again.
    record = await store.play(record.id, USER, 3, legal_actions(record.state)[0])
    assert (await store.load_game(record.id)).state == record.state


async def test_a_corrupt_game_fails_alone_and_can_be_abandoned(store, db_path):
    broken = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=31)
    broken = await store.play(broken.id, USER, 0, legal_actions(broken.state)[0])
    healthy = await store.create_game(OTHER, GUILD, CHANNEL, Rules(), seed=32)
    with raw(db_path) as conn:
        conn.execute("UPDATE games SET snapshot = 'not json at all' WHERE id = ?", (broken.id,))
        conn.execute("UPDATE game_actions SET code = 'Z9' WHERE game_id = ?", (broken.id,))
    with pytest.raises(CorruptGame) as caught:
        await store.load_game(broken.id)
    assert caught.value.game_id == broken.id
    with pytest.raises(CorruptGame):
        await store.play(broken.id, USER, 1, legal_actions(broken.state)[0])
    # Other players play on.
    moved = await store.play(healthy.id, OTHER, 0, legal_actions(healthy.state)[0])
    assert moved.version == 1
    # The owner still sees the game (damaged) and can abandon it, then start again.
    active = await store.active_game(USER)
    assert active.id == broken.id and active.damaged and "Z9" in active.damage
    with pytest.raises(CorruptGame):
        active.state  # noqa: B018
    with pytest.raises(ActiveGameExists) as exists:
        await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=33)
    assert exists.value.game.damaged
    gone = await store.abandon(broken.id, USER)
    assert gone.status == ABANDONED
    await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=33)


async def test_unreadable_rules_or_missing_moves_are_damage_too(store, db_path):
    first = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=41)
    second = await store.create_game(OTHER, GUILD, CHANNEL, Rules(), seed=42)
    second = await store.play(second.id, OTHER, 0, legal_actions(second.state)[0])
    with raw(db_path) as conn:
        conn.execute("UPDATE games SET rules_json = '{\"deck\": \"tarot\"}' WHERE id = ?", (first.id,))
        conn.execute("UPDATE games SET snapshot = NULL WHERE id = ?", (second.id,))
        conn.execute("DELETE FROM game_actions WHERE game_id = ?", (second.id,))
    for game in (first, second):
        record = await store.get_game(game.id)
        assert record.damaged
        with pytest.raises(CorruptGame):
            await store.load_game(game.id)
    assert (await store.get_game(first.id)).rules is None


async def test_times_round_trip_exactly_in_utc(store, clock):
    clock.now = clock.now.astimezone(UTC).replace(microsecond=123456)
    record = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=1)
    assert (await store.load_game(record.id)).started_at == clock.now


async def test_a_naive_clock_is_refused(db_path):
    from datetime import datetime

    store = await open_store(db_path, clock=lambda: datetime(2026, 1, 1))
    try:
        with pytest.raises(ValueError, match="timezone-aware"):
            await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=1)
    finally:
        await store.close()


async def test_games_survive_closing_and_reopening(db_path, clock):
    store = await open_store(db_path, clock=clock)
    seed, line = winning_seed(ROOMY)
    record = await store.create_game(USER, GUILD, CHANNEL, ROOMY, seed=seed)
    record = await play_line(store, record, line[:10])
    await store.close()
    again = await open_store(db_path, clock=clock)
    try:
        loaded = await again.load_game(record.id)
        assert loaded.state == record.state and loaded.version == 10
        finished = await play_line(again, loaded, line[10:])
        assert finished.status == "won" and finished.score > 0
    finally:
        await again.close()


async def test_recent_games_newest_first(store, clock):
    ids = []
    for seed in range(3):
        record = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=seed)
        ids.append(record.id)
        await store.abandon(record.id, USER)
        clock.advance(5)
    assert [g.id for g in await store.recent_games(USER, 2)] == ids[::-1][:2]
