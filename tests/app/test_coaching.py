"""Hints and reviews through the application layer (``app.coach.access``) on a real store, with the real solver
in its worker process: who may ask, when, the consent before a first hint, and a hint that arrives too late."""

from __future__ import annotations

import pytest

from app.coach import access as coaching
from app.coach import reviews
from app.coach.advice import hint_for, review_game
from app.errors import CoachRefused, HintNeedsConsent
from app.play import solo
from app.solver.worker import close_par
from games.engine import PRESETS, legal_actions, preview

ROOMY = PRESETS["classic"].with_health(99)  # first legal moves survive to the last rooms
ALICE, BOB = 1, 2


@pytest.fixture
async def solver():
    yield
    await close_par()


def careful(state):
    """The move that costs the least health now."""
    return min(legal_actions(state), key=lambda a: preview(state, a).damage - preview(state, a).heal)


async def near_the_end(store, user_id, cards_left=8):
    """A game played carefully until a few cards are left, so the solver answers fast."""
    record = (await solo.start_game(store, user_id, ROOMY, 7)).record
    while record.status == "playing" and len(record.state.dungeon) > cards_left:
        record = (await solo.move(store, record.id, user_id, record.version, careful(record.state))).record
    return record


async def test_a_hint_needs_its_players_yes_then_marks_the_game(store, solver):
    record = await near_the_end(store, ALICE)
    assert record.status == "playing"
    with pytest.raises(CoachRefused) as refused:
        await coaching.check_hint(store, record.id, BOB, hinter=hint_for)
    assert refused.value.code == coaching.NOT_YOURS
    with pytest.raises(CoachRefused) as refused:
        await coaching.check_hint(store, record.id, ALICE, hinter=None)
    assert refused.value.code == coaching.UNAVAILABLE
    with pytest.raises(HintNeedsConsent):  # its first hint would stop a normal game counting: asked first
        await coaching.check_hint(store, record.id, ALICE, hinter=hint_for)
    assert not await store.is_hinted(record.id)
    allowed = await coaching.check_hint(store, record.id, ALICE, hinter=hint_for, confirmed=True)
    found = await coaching.hint(store, allowed, ALICE, hint_for)
    assert found.code in {action.code for action in legal_actions(record.state)}
    assert await store.is_hinted(record.id)
    # Hinted already: the next hint needs no second yes.
    assert (await coaching.check_hint(store, record.id, ALICE, hinter=hint_for)).id == record.id


async def test_a_hint_found_after_the_game_moved_on_is_not_given(store, solver):
    record = await near_the_end(store, ALICE)
    allowed = await coaching.check_hint(store, record.id, ALICE, hinter=hint_for, confirmed=True)
    await solo.move(store, record.id, ALICE, record.version, legal_actions(record.state)[0])
    with pytest.raises(CoachRefused) as refused:
        await coaching.hint(store, allowed, ALICE, hint_for)
    assert refused.value.code == coaching.MOVED_ON and refused.value.record.version == record.version + 1
    assert not await store.is_hinted(record.id)


async def test_a_review_waits_for_the_end_of_the_game(store, solver):
    record = await near_the_end(store, ALICE)
    with pytest.raises(CoachRefused) as refused:
        await coaching.check_review(store, record.id, ALICE, reviewer=review_game)
    assert refused.value.code == coaching.STILL_PLAYING
    while record.status == "playing":
        record = (await solo.move(store, record.id, ALICE, record.version, legal_actions(record.state)[0])).record
    with pytest.raises(CoachRefused) as refused:
        await coaching.check_review(store, record.id, BOB, reviewer=review_game)
    assert refused.value.code == coaching.NOT_YOURS
    with pytest.raises(CoachRefused) as refused:
        await coaching.check_review(store, record.id, ALICE, reviewer=None)
    assert refused.value.code == coaching.UNAVAILABLE
    allowed = await coaching.check_review(store, record.id, ALICE, reviewer=review_game)
    reviewed = await reviews.review(store, allowed, ALICE, review_game)
    assert reviewed.hinted is False and reviewed.text.lines
    assert f"score={record.score}" in reviewed.text.machine


async def quick_death(store, user_id):
    """A game lost within a few moves at low health: a review of it takes a fraction of a second."""
    record = (await solo.start_game(store, user_id, PRESETS["classic"].with_health(4), 7)).record
    while record.status == "playing":
        moves = legal_actions(record.state)
        move = next((m for m in moves if preview(record.state, m).damage), moves[0])
        record = (await solo.move(store, record.id, user_id, record.version, move)).record
    return record


async def no_solver(*args, **kwargs):
    raise AssertionError("the kept review should have answered")


async def test_a_review_is_worked_out_once_and_kept_in_every_language(store, solver):
    from games.i18n import Messages, translated

    record = await quick_death(store, ALICE)
    assert await reviews.kept(store, record) is None
    seen = []
    first = await reviews.review(store, record, ALICE, review_game, watch=seen.append)
    assert seen[-1].done == seen[-1].total == len(record.state.history)  # it told how far it was, to the end
    again = await reviews.review(store, record, ALICE, no_solver)  # from the store: the solver is not asked
    assert again.text == first.text and again.hinted is False
    german = Messages("de")
    assert [translated(line, german) for line in again.text.lines] == \
        [translated(line, german) for line in first.text.lines] != list(first.text.lines)  # kept as phrases
    assert (await reviews.review_within(store, record, ALICE, no_solver, 0)).text == first.text


async def test_two_asks_at_once_share_one_review(store, solver):
    import asyncio

    record = await quick_death(store, ALICE)
    asked = []

    async def counted(*args, **kwargs):
        asked.append(args)
        return await review_game(*args, **kwargs)

    waiting = await reviews.review_within(store, record, ALICE, counted, 0)  # started; not done in no time
    assert isinstance(waiting, reviews.Progress)
    first, second = await asyncio.gather(reviews.review(store, record, ALICE, counted),
                                         reviews.review(store, record, ALICE, counted))
    assert first.text == second.text and len(asked) == 1  # one solve, however many asks (no "busy" for the 2nd)


async def test_no_hint_or_review_where_the_solver_cannot_play_the_rules(store):
    record = (await solo.start_game(store, ALICE, PRESETS["expansion"], 7)).record
    with pytest.raises(CoachRefused) as refused:
        await coaching.check_hint(store, record.id, ALICE, hinter=hint_for, confirmed=True)
    assert refused.value.code == coaching.RULES and "expansion" in refused.value.reason
    ended = await solo.abandon(store, record.id, ALICE)
    assert ended.status == "abandoned"
    with pytest.raises(CoachRefused) as refused:  # given up: not a game that ended by play
        await coaching.check_review(store, record.id, ALICE, reviewer=review_game)
    assert refused.value.code == coaching.STILL_PLAYING
