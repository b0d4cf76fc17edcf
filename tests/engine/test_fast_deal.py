"""The one-digest shuffle gives exactly the documented word-by-word shuffle (``seeds.py``)."""

from __future__ import annotations

import random

import pytest

from games.engine import PRESETS, deal
from games.engine.seeds import _shuffled_with_rejection, shuffled
from tests.engine.reference_game import shuffled as reference_shuffled


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_deals_and_in_game_shuffles_match_the_word_by_word_algorithm(name):
    rng = random.Random(name)
    deck = PRESETS[name].full_deck()
    for _ in range(400):
        seed = rng.randrange(1 << 40)
        assert deal(PRESETS[name], seed) == reference_shuffled(deck, seed, 0)
        stream = rng.randrange(1, 40)  # the streams shuffles made during play use
        part = deck[: rng.randrange(len(deck) + 1)]
        assert shuffled(part, seed, stream) == reference_shuffled(part, seed, stream)


def test_the_rejecting_path_is_the_same_algorithm():
    """Long lists (and the rare digest that may hold a rejected word) take the word-by-word path."""
    for n in (0, 1, 2, 5, 44, 300):
        items = list(range(n))
        for seed in range(30):
            expected = reference_shuffled(items, seed, 2)
            assert _shuffled_with_rejection(list(items), seed, 2) == expected
            assert shuffled(items, seed, 2) == expected
