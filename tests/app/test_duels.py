"""The duel through the application layer (``app.play.duels``) on a real store: who may challenge whom, who answers
a challenge, whose hand a player sees, moves on the version seen, resigning, and which duels have a replay."""

from __future__ import annotations

import pytest

from app.errors import DuelRefused, OpponentBusy, ReplayRefused, StaleHand
from app.play import duels
from app.replays import access as replay_access
from games.duel import legal_actions
from storage.duels import ABANDONED, DECLINED, PLAYING, DuelError

ALICE, BOB, CAROL, GUILD, CHANNEL = 1, 2, 3, 10, 20


def refused(code: str):
    return pytest.raises(DuelRefused, match=code)


async def test_who_may_challenge_whom_and_a_player_with_an_open_duel_is_busy(store):
    with refused(duels.SELF_DUEL):
        await duels.challenge(store, ALICE, ALICE)
    with refused(duels.BOT_OPPONENT):
        await duels.challenge(store, ALICE, BOB, opponent_is_bot=True)
    assert await duels.open_duel(store, ALICE) is None  # nothing was made
    record = await duels.challenge(store, ALICE, BOB, guild_id=GUILD, channel_id=CHANNEL, seed=7,
                                   names=("Alice", "Bob"))
    assert (record.players, record.seed, record.names) == ((ALICE, BOB), 7, ("Alice", "Bob"))
    with pytest.raises(OpponentBusy) as busy:  # Carol challenges Bob, who has Alice's challenge open
        await duels.challenge(store, CAROL, BOB)
    assert (busy.value.user_id, busy.value.record.id) == (BOB, record.id)
    assert (await duels.open_duel(store, ALICE)).id == record.id


async def test_only_the_challenged_player_accepts_and_an_outsider_does_nothing(store):
    record = await duels.challenge(store, ALICE, BOB, seed=7)
    with refused(duels.OUTSIDER):
        await duels.answer(store, record.id, CAROL, accept=False)
    with refused(duels.WAITING):
        await duels.answer(store, record.id, ALICE, accept=True)
    assert (await store.duels.load_duel(record.id)).status == "challenged"  # still waiting
    started = await duels.answer(store, record.id, BOB, accept=True)
    assert started.status == PLAYING
    with pytest.raises(DuelError):  # no longer a challenge to answer
        await duels.answer(store, record.id, BOB, accept=False)


async def test_the_challenger_may_withdraw(store):
    record = await duels.challenge(store, ALICE, BOB, seed=7)
    assert (await duels.answer(store, record.id, ALICE, accept=False)).status == DECLINED
    with pytest.raises(ReplayRefused, match=replay_access.NEVER_PLAYED):  # nothing was played to replay
        await replay_access.own_duel_replay(store, record.id, ALICE)


async def test_each_player_sees_their_own_hand_and_moves_on_the_version_they_saw(store):
    record = await duels.challenge(store, ALICE, BOB, seed=7)
    record = await duels.answer(store, record.id, BOB, accept=True)
    assert (await duels.hand(store, record.id, ALICE)).seat == 0
    assert (await duels.hand(store, record.id, BOB)).seat == 1
    with refused(duels.OUTSIDER):
        await duels.hand(store, record.id, CAROL)
    mover = record.players[record.state.actor]
    code = legal_actions(record.state)[0].code
    with refused(duels.OUTSIDER):
        await duels.move(store, record.id, CAROL, record.version, code)
    moved = await duels.move(store, record.id, mover, record.version, code)
    assert (moved.record.version, moved.seat, moved.resigned) == (record.version + 1, record.state.actor, False)
    with pytest.raises(StaleHand) as stale:  # the same click again: an older hand, nothing played
        await duels.move(store, record.id, mover, record.version, code)
    assert (stale.value.record.version, stale.value.seat) == (moved.record.version, record.state.actor)
    assert (await store.duels.load_duel(record.id)).version == moved.record.version


async def test_resigning_stands_on_any_version_and_ends_the_duel_with_a_replay(store):
    record = await duels.challenge(store, ALICE, BOB, seed=7)
    record = await duels.answer(store, record.id, BOB, accept=True)
    with pytest.raises(ReplayRefused, match=replay_access.DUEL_NOT_OVER):
        await replay_access.duel_replay(store, record.id)
    resigned = await duels.move(store, record.id, BOB, record.version - 5, duels.RESIGN)  # an old hand's button
    assert resigned.resigned and resigned.record.status == ABANDONED and resigned.record.state.winner == 0
    assert duels.finished(resigned.record)
    with refused(duels.OVER):
        await duels.open_hand(store, record.id, ALICE)
    assert (await duels.hand(store, record.id, ALICE)).record.id == record.id  # a finished hand is still shown
    assert (await replay_access.duel_replay(store, record.id)).id == record.id  # anyone who sees the board
    assert (await replay_access.own_duel_replay(store, record.id, BOB)).id == record.id
    with pytest.raises(ReplayRefused, match=replay_access.NOT_YOUR_DUEL):  # not shown by its number to others
        await replay_access.own_duel_replay(store, record.id, CAROL)
    with pytest.raises(ReplayRefused, match=replay_access.NOT_YOUR_DUEL):  # nor a duel that does not exist
        await replay_access.own_duel_replay(store, record.id + 100, ALICE)


def test_a_choice_from_the_list_of_plays_must_be_a_card_play():
    assert duels.card_play("B2H11") == "B2H11"
    for code in ("D", "R", "F1", "P01", "B2X11", "b2h11"):
        with refused(duels.NOT_A_PLAY):
            duels.card_play(code)
