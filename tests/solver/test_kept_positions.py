"""The solver's worker keeps the positions of the last few deals it was asked about: a game's next hint, or its
review after hints, reuses what the search proved, and answers exactly as a fresh search would."""

from __future__ import annotations

import random

import pytest

from games.engine import PRESETS, apply, deal, encode, legal_actions, new_game
from games.solver.position import Position
from scoundrel import coach

CLASSIC = PRESETS["classic"]


@pytest.fixture(autouse=True)
def no_kept_positions():
    coach._positions.clear()
    yield
    coach._positions.clear()


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


def test_a_games_second_hint_reuses_the_first_ones_search_and_answers_as_a_fresh_one():
    rng = random.Random("kept-positions")
    deck = deal(CLASSIC, 4242)
    line = moves_after(CLASSIC, deck, 6, rng)
    first = coach._hint_in_worker(CLASSIC.to_dict(), codes(deck), encode(line[:3]))
    kept = coach._positions[(CLASSIC.key, codes(deck))]
    nodes_after_first = kept.search.nodes
    second = coach._hint_in_worker(CLASSIC.to_dict(), codes(deck), encode(line))
    assert coach._positions[(CLASSIC.key, codes(deck))] is kept  # the same search answered

    fresh = Position(CLASSIC, deck)
    state = new_game(CLASSIC, deck=tuple(deck))
    for action in line:
        state = apply(state, action)
    fresh_action, fresh_best = fresh.best_action(state)
    assert second.best == fresh_best
    # The move may differ where several keep the best score; it must keep it.
    assert fresh.value(apply(state, next(a for a in legal_actions(state) if a.code == second.code))) == fresh_best
    assert first.best >= second.best  # the best reachable never rises along a line
    # Reusing the table: the second hint costs less than the same question asked of a fresh search.
    assert kept.search.nodes - nodes_after_first < fresh.search.nodes


def test_the_review_after_hints_uses_the_kept_search_and_matches_a_fresh_review():
    from games.solver.review import review

    rng = random.Random("kept-review")
    deck = deal(CLASSIC, 777)
    line = moves_after(CLASSIC, deck, 200, rng, to_the_end=True)
    coach._hint_in_worker(CLASSIC.to_dict(), codes(deck), encode(line[:4]))
    text = coach._review_in_worker(CLASSIC.to_dict(), codes(deck), encode(line))
    fresh = review(CLASSIC, deck, line)
    assert (text.summary, text.lines, text.machine) == (fresh.summary(), fresh.lines(), fresh.machine_line())


def test_only_the_last_few_deals_are_kept_and_a_huge_search_is_dropped(monkeypatch):
    rng = random.Random("kept-few")
    decks = [deal(CLASSIC, seed) for seed in range(1, coach.POSITIONS_KEPT + 3)]
    for deck in decks:
        coach._hint_in_worker(CLASSIC.to_dict(), codes(deck), encode(moves_after(CLASSIC, deck, 9, rng)))
    assert list(coach._positions) == [(CLASSIC.key, codes(deck)) for deck in decks[-coach.POSITIONS_KEPT:]]

    monkeypatch.setattr(coach, "POSITION_SIZE_KEPT", 0)  # every search counts as huge
    coach._hint_in_worker(CLASSIC.to_dict(), codes(decks[0]), encode(moves_after(CLASSIC, decks[0], 9, rng)))
    assert (CLASSIC.key, codes(decks[0])) not in coach._positions
