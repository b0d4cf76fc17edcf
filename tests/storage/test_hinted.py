"""A game in which a hint was used never counts: not on the boards, not in stats, not after a totals rebuild."""

from __future__ import annotations

import asyncio

from games.engine import PRESETS, apply, legal_actions
from storage import is_postgres
from tests.storage.helpers import commits_on_their_way, raw, until

CLASSIC = PRESETS["classic"]
ALICE, BOB, GUILD, CHANNEL = 1, 2, 10, 20


async def play_out(store, record, user_id):
    while record.status == "playing":
        record = await store.play(record.id, user_id, record.version, legal_actions(record.state)[0])
    return record


async def test_a_hinted_game_is_left_out_of_boards_and_stats(store):
    hinted = await store.create_game(ALICE, GUILD, CHANNEL, CLASSIC, seed=7)
    assert not await store.is_hinted(hinted.id)
    assert await store.mark_hinted(hinted.id, ALICE)
    assert not await store.mark_hinted(hinted.id, BOB)  # only its player's hint marks it
    assert await store.is_hinted(hinted.id)
    await play_out(store, hinted, ALICE)
    plain = await play_out(store, await store.create_game(BOB, GUILD, CHANNEL, CLASSIC, seed=7), BOB)

    board = await store.leaderboard_all_time(GUILD)
    assert [entry.user_id for entry in board] == [BOB]
    assert (await store.user_stats(ALICE)).games == 0
    assert (await store.user_stats(BOB)).best == plain.score

    await store.rebuild_totals()  # the operator's repair agrees
    assert [entry.user_id for entry in await store.leaderboard_all_time(GUILD)] == [BOB]
    assert (await store.user_stats(ALICE)).games == 0


async def test_an_abandoned_hinted_game_is_not_counted_and_dailies_are_never_hinted(store):
    game = await store.create_game(ALICE, GUILD, CHANNEL, CLASSIC, seed=7)
    assert await store.mark_hinted(game.id, ALICE)
    await store.abandon(game.id, ALICE)
    assert (await store.user_stats(ALICE)).games == 0
    assert not await store.mark_hinted(game.id, ALICE)  # over: nothing to mark

    daily = await store.create_game(ALICE, GUILD, CHANNEL, CLASSIC, seed=7, kind="daily", day=3)
    assert not await store.mark_hinted(daily.id, ALICE)
    assert not await store.is_hinted(daily.id)


async def test_a_hint_taken_while_the_last_move_waits_for_its_commit_is_not_counted(store, db_path):
    game = await store.create_game(ALICE, GUILD, CHANNEL, CLASSIC, seed=7)
    while not apply(game.state, legal_actions(game.state)[0]).over:  # up to the move that ends the game
        game = await store.play(game.id, ALICE, game.version, legal_actions(game.state)[0])
    with raw(db_path) as hint:
        # The hint lands while the game's last move is on its way: the move waits for this transaction (SQLite's
        # write lock, the game's row lock on PostgreSQL), after play has checked the game for hints.
        hint.execute("BEGIN IMMEDIATE" if not is_postgres(db_path) else "BEGIN")
        hint.execute("UPDATE games SET hinted = 1 WHERE id = ?", (game.id,))
        last = asyncio.create_task(store.play(game.id, ALICE, game.version, legal_actions(game.state)[0]))
        await until(lambda: commits_on_their_way(store) == 1 and not store._moves._pending,
                    "the last move is on its way")
        hint.execute("COMMIT")
        ended = await last
    assert ended.over and ended.version == game.version + 1
    assert await store.is_hinted(game.id)
    assert (await store.user_stats(ALICE)).games == 0
    assert await store.leaderboard_all_time(GUILD) == []
