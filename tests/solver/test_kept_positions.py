"""The solver's worker keeps the positions of the last few deals whose par a review asked, and nothing of the orders a
hint or a review judged (each is let go of as soon as it is solved, so memory holds one order's search at a time),
and it answers exactly as a fresh start would."""

from __future__ import annotations

import random

import pytest

from app.coach import advice as coach
from games.engine import PRESETS, apply, deal, encode, legal_actions, new_game
from games.solver import solve
from games.solver.fair import HINT_BUDGET, REVIEW_MOVE_BUDGET, Coach
from games.solver.fair_review import fair_review
from games.solver.hint_words import hint_phrase

CLASSIC = PRESETS["classic"]


@pytest.fixture(autouse=True)
def no_kept_positions():
    coach._positions.clear()
    coach._coaches.clear()
    coach._hints.clear()
    yield
    coach._positions.clear()
    coach._coaches.clear()
    coach._hints.clear()


def codes(deck) -> str:
    return " ".join(card.code for card in deck)


def moves_after(rules, deck, count: int, rng: random.Random, to_the_end: bool = False) -> list:
    """Up to ``count`` random moves that keep the game going (to its end if ``to_the_end``)."""
    state, moves = new_game(rules, deck=tuple(deck)), []
    while len(moves) < count and not state.over:
        options = legal_actions(state)
        alive = [a for a in options if not apply(state, a).over]
        if not alive and not to_the_end:
            break
        action = rng.choice(alive or options)
        moves.append(action)
        state = apply(state, action)
    return moves


def test_a_hint_in_the_worker_is_the_fair_coachs_advice_within_its_budget_and_keeps_no_order():
    rng = random.Random("kept-orders")
    deck = deal(CLASSIC, 4242)
    line = moves_after(CLASSIC, deck, 12, rng)
    state = new_game(CLASSIC, deck=tuple(deck))
    for action in line:  # stop inside a room: its first card resolved, no card revealed since the room was dealt
        state = apply(state, action)
        if None in state.room and not state.over:
            break
    moves = line[:len(state.history)]
    first = coach._hint_in_worker(CLASSIC.to_dict(), codes(deck), encode(moves[:-1]))
    second = coach._hint_in_worker(CLASSIC.to_dict(), codes(deck), encode(moves))
    assert not coach._coaches[CLASSIC.key]._positions  # no order's search outlives the request
    fresh = Coach(CLASSIC).advise(state, budget=HINT_BUDGET)
    assert (second.code, second.expected, second.win) == (fresh.best.action.code, fresh.best.expected, fresh.best.win)
    assert second.sentence == hint_phrase(state, fresh)
    assert first.code  # the room's first move was hinted too


def test_the_review_in_the_worker_is_the_fair_review_with_the_hindsight_par():
    rng = random.Random("kept-review")
    deck = deal(CLASSIC, 777)
    line = moves_after(CLASSIC, deck, 6, rng)
    coach._hint_in_worker(CLASSIC.to_dict(), codes(deck), encode(line[:4]))
    text = coach._review_in_worker(CLASSIC.to_dict(), codes(deck), encode(line))
    fresh = fair_review(CLASSIC, deck, line, par=solve(CLASSIC, deck).best_score, budget=REVIEW_MOVE_BUDGET)
    assert (text.summary, text.lines, text.machine) == (fresh.summary(), fresh.lines(), fresh.machine_line())


def test_only_the_last_few_deals_are_kept_no_order_and_a_huge_search_is_dropped(monkeypatch):
    rng = random.Random("kept-few")
    decks = [deal(CLASSIC, seed) for seed in range(1, coach.POSITIONS_KEPT + 3)]
    for deck in decks:
        coach._review_in_worker(CLASSIC.to_dict(), codes(deck), encode(moves_after(CLASSIC, deck, 1, rng)))
    assert list(coach._positions) == [(CLASSIC.key, codes(deck)) for deck in decks[-coach.POSITIONS_KEPT:]]
    assert not coach._coaches[CLASSIC.key]._positions

    monkeypatch.setattr(coach, "POSITION_SIZE_KEPT", 0)  # every search counts as huge
    coach._review_in_worker(CLASSIC.to_dict(), codes(decks[0]), encode(moves_after(CLASSIC, decks[0], 1, rng)))
    assert (CLASSIC.key, codes(decks[0])) not in coach._positions


def test_a_position_seen_alike_is_answered_from_the_hint_kept(monkeypatch):
    """Two decks that agree on every card the player has seen (the first room, the order of the rest unseen): the
    first asks the coach, the second gets the same hint without solving anything; another room asks again."""
    deck = deal(CLASSIC, 4343)
    twin = deck[:4] + tuple(reversed(deck[4:]))
    assert twin != deck
    asked = []
    real = Coach.advise
    monkeypatch.setattr(Coach, "advise", lambda self, *args, **kw: asked.append(1) or real(self, *args, **kw))
    first = coach._hint_in_worker(CLASSIC.to_dict(), codes(deck), "")
    assert coach._hint_in_worker(CLASSIC.to_dict(), codes(twin), "") == first and len(asked) == 1
    moved = encode(moves_after(CLASSIC, deck, 1, random.Random("kept-hints")))
    coach._hint_in_worker(CLASSIC.to_dict(), codes(deck), moved)
    assert len(asked) == 2
