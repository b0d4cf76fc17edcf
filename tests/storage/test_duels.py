"""Duels in storage (both backends): challenges, moves with the version check, the log as the truth."""

import asyncio

import pytest

from games.duel import IllegalDuelAction, place, replay
from storage import open_store
from storage.duels import (
    ABANDONED,
    DECLINED,
    ONLY_CHALLENGED_ACCEPTS,
    OVER,
    PLAYING,
    RESIGN_FOR_OTHER,
    SELF_DUEL,
    DuelBusy,
    DuelError,
    DuelStale,
    NotInDuel,
    NotYourTurn,
    answer_challenge,
    create_challenge,
    load_duel,
    open_duel,
    play_duel,
    resign_action,
    set_duel_message,
)
from storage.names import NAME_LENGTH
from tests.storage.helpers import raw

ALICE, BOB, CAROL = 11, 22, 33


async def accepted(store, seed=5):
    duel = await create_challenge(store, ALICE, BOB, 1, 2, seed=seed)
    return await answer_challenge(store, duel.id, BOB, accept=True)


async def test_challenge_accept_and_moves_survive_reopening(store, db_path):
    duel = await accepted(store)
    assert duel.status == PLAYING and duel.players == (ALICE, BOB) and duel.version == 0
    assert duel.state.actor == 0  # the challenger rolls first
    duel = await play_duel(store, duel.id, ALICE, 0, place(0, 0))
    duel = await play_duel(store, duel.id, ALICE, 1, "P11")
    assert duel.version == 2 and duel.state.placed[:2] == (0, 1)
    await store.close()
    reopened = await open_store(db_path)
    try:
        again = await load_duel(reopened, duel.id)
        assert again.state == duel.state == replay(5, ["P00", "P11"])
    finally:
        await reopened.close()


async def test_only_the_challenged_player_accepts_and_outsiders_are_refused(store):
    duel = await create_challenge(store, ALICE, BOB, 1, 2, seed=5)
    with pytest.raises(DuelError) as refused:
        await answer_challenge(store, duel.id, ALICE, accept=True)
    assert refused.value.code == ONLY_CHALLENGED_ACCEPTS
    with pytest.raises(NotInDuel):
        await answer_challenge(store, duel.id, CAROL, accept=True)
    withdrawn = await answer_challenge(store, duel.id, ALICE, accept=False)
    assert withdrawn.status == DECLINED
    with pytest.raises(DuelStale) as stale:
        await answer_challenge(store, duel.id, BOB, accept=True)
    assert stale.value.code == OVER


async def test_one_open_duel_per_player_and_no_self_duel(store):
    await create_challenge(store, ALICE, BOB, 1, 2)
    with pytest.raises(DuelBusy) as busy:
        await create_challenge(store, CAROL, BOB, 1, 2)
    assert busy.value.user_id == BOB and "<@" not in str(busy.value)  # a code and ids: the cogs word it
    with pytest.raises(DuelError) as refused:
        await create_challenge(store, CAROL, CAROL, 1, 2)
    assert refused.value.code == SELF_DUEL
    assert (await open_duel(store, BOB)).players == (ALICE, BOB)
    assert await open_duel(store, CAROL) is None


async def test_turns_versions_and_illegal_moves_change_nothing(store):
    duel = await accepted(store)
    with pytest.raises(NotYourTurn):
        await play_duel(store, duel.id, BOB, 0, "P00")
    with pytest.raises(NotInDuel):
        await play_duel(store, duel.id, CAROL, 0, "P00")
    with pytest.raises(IllegalDuelAction):
        await play_duel(store, duel.id, ALICE, 0, "D")
    with pytest.raises(DuelStale):
        await play_duel(store, duel.id, ALICE, 7, "P00")
    assert (await load_duel(store, duel.id)).version == 0


async def test_racing_clicks_exactly_one_lands(store, db_path):
    duel = await accepted(store)
    results = await asyncio.gather(*(play_duel(store, duel.id, ALICE, 0, f"P0{pair}") for pair in range(4)),
                                   return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, DuelStale) for r in results if isinstance(r, Exception))
    with raw(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM duel_actions WHERE duel_id = ?", (duel.id,)).fetchone()[0] == 1


async def test_resign_ends_the_duel_out_of_turn(store):
    duel = await accepted(store)
    over = await play_duel(store, duel.id, BOB, 0, resign_action(duel, BOB))
    assert over.status == ABANDONED and over.winner == 0 and over.ended_at is not None
    with pytest.raises(DuelError) as refused:
        await play_duel(store, (await accepted_new(store)).id, BOB, 0, "R0")
    assert refused.value.code == RESIGN_FOR_OTHER
    assert await open_duel(store, ALICE) is not None  # the new duel


async def accepted_new(store):
    duel = await create_challenge(store, ALICE, BOB, 1, 2, seed=9)
    return await answer_challenge(store, duel.id, BOB, accept=True)


async def test_a_damaged_snapshot_is_rebuilt_from_the_log(store, db_path):
    duel = await accepted(store)
    duel = await play_duel(store, duel.id, ALICE, 0, "P02")
    await set_duel_message(store, duel.id, 2, 777)
    with raw(db_path) as conn:
        conn.execute("UPDATE duels SET snapshot = 'garbage' WHERE id = ?", (duel.id,))
    again = await load_duel(store, duel.id)
    assert again.state == duel.state and again.message_id == 777


async def test_the_players_names_are_kept_with_the_duel(store):
    named = await create_challenge(store, ALICE, BOB, 1, 2, seed=5, names=("Ada", "B" * 40))
    assert named.names == ("Ada", "B" * NAME_LENGTH)  # a Discord name's length at most
    accepted = await answer_challenge(store, named.id, BOB, accept=True)
    assert accepted.names == ("Ada", "B" * NAME_LENGTH) == (await open_duel(store, ALICE)).names
    older = await create_challenge(store, CAROL, 99, 1, 2, seed=6)  # no names: the cogs fall back to mentions
    assert older.names == (None, None)
