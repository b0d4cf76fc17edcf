"""The duel board picture: every column's cards placed in order, face to face, inside the picture."""

from __future__ import annotations

import io
import random

from PIL import Image

from games.duel import apply, legal_actions, new_duel
from games.picture.duel import HEIGHT, WIDTH, duel_layout, render_duel


def played_states(seed: int, moves: int = 300):
    state, rng = new_duel(seed), random.Random(seed)
    yield state
    for _ in range(moves):
        actions = legal_actions(state)
        if state.over or not actions:
            return
        state = apply(state, rng.choice(actions))
        yield state


def test_columns_are_laid_out_in_order_for_both_players_and_stay_inside():
    seen_cards = 0
    for seed in range(4):
        for state in played_states(seed):
            layout = duel_layout(state)
            for player in (0, 1):
                for pair in range(4):
                    places = [p for p in layout.places if p.player == player and p.pair == pair]
                    assert [p.card for p in places] == list(state.columns[player][pair].cards)
                    xs = [p.box.x for p in places]
                    assert xs == sorted(xs)  # left to right: each card's corner stays visible
                    for p in places:
                        on_own_side = p.box.x + p.box.w <= WIDTH // 2 if player == 0 else p.box.x >= WIDTH // 2
                        assert on_own_side and 0 <= p.box.y and p.box.y + p.box.h <= HEIGHT
                    seen_cards += len(places)
            assert [value for _, value, _ in layout.dice] == [state.die_on(pair) for pair in range(4)]
    assert seen_cards > 500


def test_the_duel_picture_decodes_is_small_and_the_same_for_the_same_state():
    states = list(played_states(9))
    png = render_duel(states[-1])
    assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT) and len(png) <= 60_000
    assert render_duel(states[-1]) == png and render_duel(states[0]) != png
