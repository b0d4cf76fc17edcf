"""Forfeit scoring: giving up is never better than any death still reachable, nor than dying right now."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import DEAD, PRESETS, Rules, apply, forfeit_score, legal_actions, new_game
from games.engine.cards import MONSTER
from games.engine.seeds import SEED_BITS

presets = st.sampled_from(sorted(PRESETS))
seeds = st.integers(min_value=0, max_value=(1 << SEED_BITS) - 1)


def random_position(rules, seed, rng):
    state = new_game(rules, seed=seed)
    for _ in range(rng.randrange(60)):
        if state.over:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def deaths_from(state, rng, tries=12):
    """Scores of the deaths random playouts from ``state`` reach (some playouts win instead)."""
    found = []
    for _ in range(tries):
        s = state
        while not s.over:
            s = apply(s, rng.choice(legal_actions(s)))
        if s.status == DEAD:
            found.append(s.score)
    return found


@settings(max_examples=60, deadline=None)
@given(presets, seeds, st.integers(min_value=0, max_value=10**9))
def test_forfeit_is_no_better_than_any_reachable_death(name, seed, walk):
    rng = random.Random(walk)
    rules = PRESETS[name] if rng.random() < 0.5 else PRESETS[name].with_health(rng.choice([3, 6, 10]))
    state = random_position(rules, seed, rng)
    if state.over:
        return
    forfeit = forfeit_score(state)
    assert forfeit <= 0
    assert forfeit <= state._replace(status=DEAD).score  # dying right now, under either death-score option
    for death in deaths_from(state, rng):
        assert forfeit <= death


def test_fresh_deal_forfeits_every_monster():
    state = new_game(Rules(), seed=7)
    assert forfeit_score(state) == -sum(c.value for c in state.start_deck if c.kind == MONSTER) == -208


def test_room_counts_even_when_death_counts_the_dungeon_only():
    state = new_game(PRESETS["rules-sheet"], seed=11)
    room_monsters = sum(c.value for c in state.room if c is not None and c.kind == MONSTER)
    dungeon_monsters = sum(c.value for c in state.dungeon if c.kind == MONSTER)
    assert forfeit_score(state) == -(room_monsters + dungeon_monsters)
    if room_monsters:
        assert forfeit_score(state) < state._replace(status=DEAD).score


def test_slain_monsters_no_longer_count():
    state = new_game(Rules(), seed=3)
    before = forfeit_score(state)
    monster = next(c for c in state.room if c.kind == MONSTER)
    take = next(a for a in legal_actions(state) if a.kind == "take" and state.room[a.index] == monster)
    after = apply(state, take)
    assert after.status != DEAD
    assert forfeit_score(after) == before + monster.value
