"""Kept reviews: a finished game's review stored once, read back as it was written, gone when its player is."""

from __future__ import annotations

from games.engine import PRESETS, legal_actions

CLASSIC = PRESETS["classic"]
ALICE, BOB, GUILD, CHANNEL = 1, 2, 10, 20


async def finished(store, user_id):
    record = await store.create_game(user_id, GUILD, CHANNEL, CLASSIC, seed=7)
    while record.status == "playing":
        record = await store.play(record.id, user_id, record.version, legal_actions(record.state)[0])
    return record


async def test_a_review_is_kept_per_game_and_goes_with_its_player(store):
    mine, theirs = await finished(store, ALICE), await finished(store, BOB)
    assert await store.kept_review(mine.id) is None
    await store.keep_review(mine.id, '{"v": 1, "lines": ["é ♠9 − 31"]}')
    await store.keep_review(theirs.id, '{"v": 1}')
    assert await store.kept_review(mine.id) == '{"v": 1, "lines": ["é ♠9 − 31"]}'  # text as given, unicode kept
    await store.keep_review(mine.id, '{"v": 2}')  # worked out again (a newer shape): the last one is kept
    assert await store.kept_review(mine.id) == '{"v": 2}'

    counts = await store.forget_player(ALICE)
    assert counts["reviews"] == 1
    assert await store.kept_review(mine.id) is None
    assert await store.kept_review(theirs.id) == '{"v": 1}'
