"""A forfeit never beats dying: ``forfeit_score`` is at most the score of any death reachable from a position."""

from __future__ import annotations

import random

import pytest

from bot.engine import apply, forfeit_score, legal_actions, new_game, preset


def random_position(rules, rng: random.Random):
    state = new_game(rules, seed=rng.randrange(1 << 40))
    for _ in range(rng.randrange(0, 30)):
        if state.over:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    return state


@pytest.mark.parametrize("name", ["classic", "rules-sheet", "full-deck", "expansion"])
def test_a_forfeit_scores_no_better_than_any_death_from_there(name):
    rng = random.Random(name)
    deaths = 0
    for _ in range(150):
        position = random_position(preset(name), rng)
        if position.over:
            continue
        forfeit = forfeit_score(position)
        assert forfeit <= 0
        for _ in range(6):  # random continuations: every death reached scores at least the forfeit
            state = position
            while not state.over:
                state = apply(state, rng.choice(legal_actions(state)))
            if state.status == "dead":
                deaths += 1
                assert forfeit <= state.score
    assert deaths > 50  # the check really ran


def test_a_fresh_deal_forfeits_every_monster():
    state = new_game(preset("classic"), seed=42)
    monsters = sum(c.value for c in state.dungeon + tuple(c for c in state.room if c) if c.kind == "monster")
    assert forfeit_score(state) == -monsters == -208  # 2..14 of two suits
