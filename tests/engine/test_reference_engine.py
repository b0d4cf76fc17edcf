"""The fast engine against the straightforward reference engine, and snapshots stored by earlier versions.

Many seeds × presets × starting healths × random action sequences are played on both engines in
lockstep; after every action the two must agree on everything a caller can see: the legal actions,
every refusal and preview, the score, each event's text and the JSON snapshot, byte for byte.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games.engine import (
    PRESETS,
    Action,
    Card,
    IllegalAction,
    Rules,
    apply,
    deal,
    decode,
    from_json,
    legal_actions,
    new_game,
    preview,
    refusal,
    replay,
    to_json,
)
from games.engine import actions as A
from games.engine.serialize import to_dict
from tests.engine import reference_game as ref

EVERY_ACTION = (
    [A.AVOID_ACTION, A.LEAVE_ACTION, A.RAISE_ACTION, A.DECLINE_ACTION, A.LOOP_ACTION, A.RETIRE_ACTION]
    + [A.take(i) for i in range(5)] + [A.fight_with_weapon(i) for i in range(5)] + [A.buy(i) for i in range(7)]
)
SNAPSHOTS = Path(__file__).parent / "snapshots" / "format1.jsonl"


def events_seen(state) -> list[tuple]:
    return [(e.turn, e.kind, e.text, e.amount) for e in state.events]


def assert_same(fast, slow) -> None:
    assert to_json(fast) == to_json(slow)
    assert to_dict(fast) == to_dict(slow)
    assert events_seen(fast) == events_seen(slow)
    assert [e.text for e in fast.log] == [e.text for e in slow.log]
    assert legal_actions(fast) == ref.legal_actions(slow)
    assert (fast.score, fast.over, fast.final_room, fast.can_avoid, fast.last_kill) == (
        slow.score, slow.over, slow.final_room, slow.can_avoid, slow.last_kill)
    for action in EVERY_ACTION:
        reason = refusal(fast, action)
        assert reason == ref.refusal(slow, action)
        if reason is None:
            assert tuple(preview(fast, action)) == tuple(ref.preview(slow, action))
            assert preview(fast, action).short == ref.preview(slow, action).short
    # A snapshot written by the reference loads as the very same state.
    assert from_json(to_json(slow)) == fast


def lockstep(rules: Rules, seed: int | None, deck, rng: random.Random) -> int:
    """Play one random game on both engines; return the number of actions."""
    fast, slow = new_game(rules, seed=seed, deck=deck), ref.new_game(rules, seed=seed, deck=deck)
    assert_same(fast, slow)
    steps = 0
    while not fast.over:
        if rng.random() < 0.2:  # now and then an illegal action: refused alike, nothing changes
            action = rng.choice(EVERY_ACTION)
            if refusal(fast, action) is not None:
                with pytest.raises(IllegalAction) as refused:
                    apply(fast, action)
                with pytest.raises(ref.IllegalAction) as refused_too:
                    ref.apply(slow, action)
                assert str(refused.value) == str(refused_too.value)
                continue
        options = legal_actions(fast)
        action = options[rng.randrange(len(options))]
        fast, slow = apply(fast, action), ref.apply(slow, action)
        assert_same(fast, slow)
        steps += 1
    assert replay(rules, fast.start_deck, fast.history, seed=seed) == fast
    return steps


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_random_games_match_the_reference_engine(name):
    rng = random.Random(name)
    played = 0
    for health in (1, 7, 20, 99):
        rules = PRESETS[name].with_health(health, max(health, PRESETS[name].max_health))
        for _ in range(6):
            played += lockstep(rules, rng.randrange(1 << 40), None, rng)
        # an explicit deck (rng_seed derived from the deck) and a deck with a given seed
        played += lockstep(rules, None, deal(rules, rng.randrange(1 << 40)), rng)
        played += lockstep(rules, rng.randrange(1 << 40), deal(rules, rng.randrange(1 << 40)), rng)
    assert played > 200


def test_long_expansion_runs_through_every_phase_match_the_reference():
    """Careful play that raises, buys and loops whenever it can reaches every expansion phase."""
    rules = PRESETS["expansion"].with_health(99)
    rng = random.Random(7)
    phases = set()
    for seed in range(12):
        fast, slow = new_game(rules, seed=seed), ref.new_game(rules, seed=seed)
        while not fast.over:
            options = legal_actions(fast)
            keen = [a for a in options if a.kind in (A.RAISE, A.LOOP, A.BUY)]
            action = rng.choice(keen) if keen else min(
                options, key=lambda a: (preview(fast, a).damage - preview(fast, a).heal, rng.random()))
            fast, slow = apply(fast, action), ref.apply(slow, action)
            assert_same(fast, slow)
            if fast.pending:
                phases.add(fast.pending[0])
        assert fast.loop == slow.loop
    assert phases == {"merchant", "necromancer", "underworld", "crossroads"}


def test_snapshots_stored_by_earlier_versions_still_load():
    """Snapshots written before the engine was sped up (as stored in players' databases) load unchanged."""
    rows = [json.loads(line) for line in SNAPSHOTS.read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 40
    for row in rows:
        rules = Rules.from_dict(row["rules"])
        state = from_json(row["snapshot"])
        replayed = replay(rules, deal(rules, row["seed"]), decode(row["moves"]), seed=row["seed"])
        assert state == replayed
        assert to_json(replayed) == row["snapshot"]  # and today's engine writes the same bytes
        assert [e.text for e in state.log] == [e.text for e in replayed.log]


def test_event_behaves_like_the_named_tuple_it_was():
    s = apply(new_game(PRESETS["classic"], seed=5), Action.parse("T0"))
    event = s.events[0]
    turn, kind, text, amount = event
    assert (turn, kind, text, amount) == tuple(event) == (event.turn, event.kind, event.text, event.amount)
    assert event == (turn, kind, text, amount) and event[2] == text and len(event) == 4
    assert hash(event) == hash(from_json(to_json(s)).events[0])
    assert event._replace(amount=99).amount == 99 and event._asdict()["text"] == text
    assert repr(event).startswith(f"Event(turn={turn}, kind={kind!r}, text={text!r}")
    import pickle

    assert pickle.loads(pickle.dumps(s)) == s


@pytest.mark.parametrize("name", ["classic", "full-deck", "expansion"])
def test_explicit_decks_are_accepted_and_refused_like_the_reference(name):
    rules = PRESETS[name]
    good = deal(rules, 11)
    other = PRESETS["full-deck" if name == "classic" else "classic"].full_deck()
    stranger = Card("X", 9, "joker")  # in no deck
    bad_decks = [good[:-1], good + good[:1], good[:-1] + good[:1], good[:-1] + (stranger,), (), other]
    for deck in bad_decks:
        with pytest.raises(ValueError, match="exactly the"):
            new_game(rules, deck=deck)
        with pytest.raises(ValueError, match="exactly the"):
            ref.new_game(rules, deck=deck)
    for deck in (good, tuple(reversed(good)), list(good)):
        assert new_game(rules, deck=deck) == ref.new_game(rules, deck=tuple(deck))
