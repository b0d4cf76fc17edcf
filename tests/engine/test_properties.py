"""Property tests: random legal playouts under every preset keep every invariant."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    PLAYING,
    PRESETS,
    all_cards,
    apply,
    deal,
    from_json,
    legal_actions,
    new_game,
    preview,
    replay,
    to_json,
)
from games.engine.cards import MONSTER, POTION
from games.engine.rules import MAX_LOOPS
from games.engine.seeds import SEED_BITS
from games.engine.state import LOOP_BONUS

presets = st.sampled_from(sorted(PRESETS))
seeds = st.integers(min_value=0, max_value=(1 << SEED_BITS) - 1)
choices = st.lists(st.integers(min_value=0, max_value=1_000), min_size=0, max_size=300)


def score_bounds(rules):
    deck = rules.full_deck()
    lowest = -sum(c.value for c in deck if c.kind == MONSTER)
    best_potion = max(c.value for c in deck if c.kind == POTION)
    highest = rules.max_health + best_potion + (LOOP_BONUS * (MAX_LOOPS - 1) if rules.looping else 0)
    return lowest, highest


def playout(rules, seed, picks):
    s = new_game(rules, seed=seed)
    states = [s]
    for pick in picks:
        if s.status != PLAYING:
            break
        options = legal_actions(s)
        assert options, "a game in play always has a legal action"
        s = apply(s, options[pick % len(options)])
        states.append(s)
    return states


@settings(max_examples=150, deadline=None)
@given(presets, seeds, choices)
def test_random_playouts_keep_every_invariant(name, seed, picks):
    rules = PRESETS[name]
    states = playout(rules, seed, picks)
    deck = Counter(states[0].start_deck)
    for s in states:
        assert Counter(all_cards(s)) == deck  # every card in exactly one place
        assert 0 <= s.health <= rules.max_health
        assert len([c for c in s.room if c is not None]) <= 4
    final = states[-1]
    if final.status != PLAYING:
        low, high = score_bounds(rules)
        assert low <= final.score <= high
    else:
        assert final.score is None


@settings(max_examples=100, deadline=None)
@given(presets, seeds, choices)
def test_replay_and_json_rebuild_the_same_state(name, seed, picks):
    rules = PRESETS[name]
    final = playout(rules, seed, picks)[-1]
    assert replay(rules, final.start_deck, final.history, seed=seed) == final
    assert from_json(to_json(final)) == final


@settings(max_examples=100, deadline=None)
@given(presets, seeds, choices)
def test_preview_agrees_with_apply(name, seed, picks):
    s = playout(PRESETS[name], seed, picks)[-1]
    for action in legal_actions(s):
        out = preview(s, action)
        after = apply(s, action)
        if action.kind in ("take", "weapon") and s.room[action.index].kind in (MONSTER, POTION):
            assert after.health - s.health == out.heal - max(0, min(out.damage, s.health))
            assert (after.status == "dead") == out.lethal


@given(presets, seeds)
def test_same_seed_same_deck(name, seed):
    rules = PRESETS[name]
    assert deal(rules, seed) == deal(rules, seed)
    assert sorted(deal(rules, seed)) == sorted(rules.full_deck())


@given(seeds, seeds)
def test_different_seeds_give_different_decks(a, b):
    if a != b:
        assert deal(PRESETS["classic"], a) != deal(PRESETS["classic"], b)
