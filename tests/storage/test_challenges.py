"""Challenges in storage (both backends): a game of its own for each who joins, beside their normal game; one
running challenge per player and place; a double join is one; the close taken once; gone players; forgetting."""

from datetime import timedelta

import pytest

from games.engine import Rules, legal_actions
from storage.challenges import CLOSED, CLOSING, RUNNING, ChallengeBusy, ChallengeClosed
from storage.errors import ActiveGameExists
from tests.storage.helpers import dying_line

ALICE, BOB, CAROL = 11, 22, 33
GUILD, CHANNEL = 100, 200


async def new_challenge(store, starter=ALICE, place=GUILD, minutes=10, seed=12345):
    return await store.challenges.create(place=place, guild_id=place, channel_id=CHANNEL, starter_id=starter,
                                         rules=Rules(), seed=seed, locale="en-US", lasts=timedelta(minutes=minutes))


async def test_everyone_who_joins_plays_the_same_deal_in_a_game_of_their_own(store):
    challenge = await new_challenge(store)
    assert challenge.running and challenge.closes_at - challenge.created_at == timedelta(minutes=10)
    alice, new_a = await store.challenges.join(challenge.id, ALICE, "alice")
    bob, new_b = await store.challenges.join(challenge.id, BOB, "bob")
    assert new_a and new_b and alice.id != bob.id
    assert alice.deck == bob.deck and alice.seed is bob.seed is None  # no seed shown while it runs
    assert alice.state == bob.state
    assert alice.challenge_id == bob.challenge_id == challenge.id
    names = [(e.user_id, e.name, e.gone) for e in await store.challenges.entrants(challenge.id)]
    assert names == [(ALICE, "alice", False), (BOB, "bob", False)]


async def test_a_challenge_game_sits_beside_the_normal_game(store):
    normal = await store.create_game(ALICE, GUILD, CHANNEL, Rules(), seed=7)
    challenge = await new_challenge(store)
    game, _ = await store.challenges.join(challenge.id, ALICE, "alice")
    assert (await store.active_game(ALICE)).id == normal.id  # the slot's game is still the normal one
    moved = await store.play(game.id, ALICE, 0, legal_actions(game.state)[0])
    assert moved.challenge_id == challenge.id and moved.version == 1
    with pytest.raises(ActiveGameExists):  # the slot's rule still holds for normal games
        await store.create_game(ALICE, GUILD, CHANNEL, Rules(), seed=8)


async def test_a_double_join_is_one_join(store):
    challenge = await new_challenge(store)
    first, new = await store.challenges.join(challenge.id, BOB, "bob")
    again, new_again = await store.challenges.join(challenge.id, BOB, "bob")
    assert new and not new_again and again.id == first.id
    assert len(await store.challenges.entrants(challenge.id)) == 1


async def test_one_running_challenge_per_player_and_place(store):
    first = await new_challenge(store)
    second = await new_challenge(store, starter=BOB)
    elsewhere = await new_challenge(store, starter=BOB, place=999)
    await store.challenges.join(first.id, CAROL, "carol")
    with pytest.raises(ChallengeBusy) as busy:
        await store.challenges.join(second.id, CAROL, "carol")
    assert busy.value.other == first.id
    await store.challenges.join(elsewhere.id, CAROL, "carol")  # another server: allowed
    with pytest.raises(ChallengeBusy):  # a starter starts one at a time in a place
        await new_challenge(store)
    await store.challenges.begin_close(first.id)
    await store.challenges.join(second.id, CAROL, "carol")  # the first one closed: free again


async def test_a_late_join_is_refused(store, clock):
    challenge = await new_challenge(store, minutes=3)
    clock.advance(3 * 60)
    with pytest.raises(ChallengeClosed):  # its time is up, even before the close is taken
        await store.challenges.join(challenge.id, BOB, "bob")
    await store.challenges.begin_close(challenge.id)
    with pytest.raises(ChallengeClosed):
        await store.challenges.join(challenge.id, BOB, "bob")


async def test_the_close_is_taken_once_and_names_the_games_still_played(store):
    challenge = await new_challenge(store)
    alice, _ = await store.challenges.join(challenge.id, ALICE, "alice")
    bob, _ = await store.challenges.join(challenge.id, BOB, "bob")
    state, version = bob.state, 0
    for action in dying_line(state):
        await store.play(bob.id, BOB, version, action)
        version += 1
    still = await store.challenges.begin_close(challenge.id)
    assert still == [(alice.id, ALICE)]
    assert await store.challenges.begin_close(challenge.id) is None  # the second close takes nothing
    assert (await store.challenges.get(challenge.id)).status == CLOSING
    assert [c.id for c in await store.challenges.open_challenges()] == [challenge.id]  # a restart finishes it
    assert await store.challenges.finish_close(challenge.id)
    assert not await store.challenges.finish_close(challenge.id)
    assert (await store.challenges.get(challenge.id)).status == CLOSED
    assert await store.challenges.open_challenges() == []


async def test_par_and_message_are_kept(store):
    challenge = await new_challenge(store)
    await store.challenges.set_message(challenge.id, CHANNEL, 555)
    await store.challenges.set_par(challenge.id, 17, 9)
    kept = await store.challenges.get(challenge.id)
    assert (kept.message_id, kept.par, kept.coach_score, kept.status) == (555, 17, 9, RUNNING)


async def test_a_player_who_left_is_gone(store):
    challenge = await new_challenge(store)
    await store.challenges.join(challenge.id, BOB, "bob")
    assert await store.challenges.mark_gone(GUILD, BOB) == 1
    assert [e.gone for e in await store.challenges.entrants(challenge.id)] == [True]
    assert await store.challenges.mark_gone(GUILD, BOB) == 0


async def test_forgetting_a_player_takes_their_places(store):
    challenge = await new_challenge(store)
    await store.challenges.join(challenge.id, BOB, "bob")
    await store.challenges.join(challenge.id, ALICE, "alice")
    counts = await store.forget_player(ALICE)
    assert counts["challenge places"] == 1 and counts["challenges kept anonymous"] == 1
    assert [e.user_id for e in await store.challenges.entrants(challenge.id)] == [BOB]
    assert (await store.challenges.get(challenge.id)).starter_id == 0


async def test_challenges_played_and_won_count_closed_ones_and_first_places(store, clock):
    assert await store.challenges.played(BOB) == (0, 0)
    for seed in (1, 2):
        challenge = await new_challenge(store, starter=CAROL, seed=seed)
        bob, _ = await store.challenges.join(challenge.id, BOB, "bob")
        alice, _ = await store.challenges.join(challenge.id, ALICE, "alice")
        version = 0
        for action in dying_line(bob.state):  # bob finishes; alice does not (she is ended by the close)
            await store.play(bob.id, BOB, version, action)
            version += 1
        clock.advance(1)
        assert await store.challenges.played(BOB) == (seed - 1, seed - 1)  # counted once closed
        await store.challenges.begin_close(challenge.id)
        await store.abandon(alice.id, ALICE)
        await store.challenges.finish_close(challenge.id)
    assert await store.challenges.played(BOB) == (2, 2)
    assert await store.challenges.played(ALICE) == (2, 0)


async def test_the_game_here_is_the_players_in_a_running_challenge_of_that_channel(store):
    challenge = await new_challenge(store)
    assert await store.challenges.game_here(CHANNEL, ALICE) is None  # not joined
    alice, _ = await store.challenges.join(challenge.id, ALICE, "alice")
    found = await store.challenges.game_here(CHANNEL, ALICE)
    assert found is not None and found.id == alice.id and found.challenge_id == challenge.id
    assert await store.challenges.game_here(CHANNEL + 1, ALICE) is None  # another channel
    assert await store.challenges.game_here(CHANNEL, BOB) is None
    await store.challenges.begin_close(challenge.id)
    assert await store.challenges.game_here(CHANNEL, ALICE) is None  # closed: the table opens as before
