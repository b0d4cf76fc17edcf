"""Everything the engine writes is recognised by ``games.engine.words``, so every reader gets it translated."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from games.engine import PRESETS, Event, apply, legal_actions, new_game, refusal
from games.engine import actions as A
from games.engine.serialize import from_json, to_json
from games.engine.words import EVENTS, REFUSALS, template_of
from games.i18n.messages import messages_for

EVERY_ACTION = (
    [A.AVOID_ACTION, A.LEAVE_ACTION, A.RAISE_ACTION, A.DECLINE_ACTION, A.LOOP_ACTION, A.RETIRE_ACTION]
    + [A.take(i) for i in range(5)] + [A.fight_with_weapon(i) for i in range(5)] + [A.buy(i) for i in range(7)]
)


def recognised(text: str) -> tuple:
    found = template_of(text)
    assert found is not None, f"the engine wrote text no template matches: {text!r}"
    assert found[0].format(*found[1:]) == text
    return found


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_event_and_refusal_of_random_games_is_recognised(name):
    rng = random.Random(name)
    templates_seen = set()
    for health in (1, 9, 20, 99):
        rules = PRESETS[name].with_health(health, max(health, PRESETS[name].max_health))
        for _ in range(8):
            state = new_game(rules, seed=rng.randrange(1 << 40))
            while True:
                for event in state.events:
                    templates_seen.add(recognised(event.text)[0])
                    assert tuple(map(str, event.template)) == recognised(event.text)  # recorded and recognised alike
                for action in EVERY_ACTION:
                    reason = refusal(state, action)
                    if reason is not None:
                        templates_seen.add(recognised(reason)[0])
                if state.over:
                    break
                options = legal_actions(state)
                keen = [a for a in options if a.kind in (A.RAISE, A.LOOP, A.BUY)]
                state = apply(state, rng.choice(keen) if keen and rng.random() < 0.7 else rng.choice(options))
    assert templates_seen & set(EVENTS) and templates_seen & set(REFUSALS)


# The modules that write the engine's events and refusals (``words.py``, which lists them, is left out).
WRITERS = ("state.py", "legal.py", "turns.py", "expansion.py", "playing.py")


def _engine_source() -> str:
    engine = Path(__file__).parents[2] / "games" / "engine"
    return "\n".join((engine / name).read_text(encoding="utf-8") for name in WRITERS)


def test_each_event_template_is_written_by_the_engine_as_it_is_listed():
    source = _engine_source()
    for template in EVENTS:
        assert f'"{template}"' in source, f"no event is written from {template!r} any more"


def test_each_refusal_template_matches_a_sentence_the_engine_writes():
    source = _engine_source()
    # The words of the engine's string literals (its refusals are f-strings, some built from two literals).
    written = set(re.findall(r"[A-Za-z']+", " ".join(re.findall(r'"([^"]*)"', source))))
    for template in REFUSALS:
        missing = set(re.findall(r"[A-Za-z']+", template)) - written
        assert not missing, f"{template!r}: the engine no longer says {sorted(missing)}"


def test_a_saved_games_events_translate_like_fresh_ones():
    rules = PRESETS["classic"]
    state = new_game(rules, seed=11)
    state = apply(state, legal_actions(state)[-1])
    loaded = from_json(to_json(state))
    german = messages_for("de")
    for fresh, saved in zip(state.events, loaded.events, strict=True):
        assert german.event(saved) == german.event(fresh) != fresh.text or fresh.kind == "room"
    assert german.event(Event(1, "note", "Words no template made.")) == "Words no template made."


def test_longer_templates_win_over_their_prefixes():
    final = "Room 9: ♠2 ♥3. This is the final room: every card must be resolved."
    assert recognised(final)[0] == "Room {}: {}. This is the final room: every card must be resolved."
    assert recognised("Room 2: ♠2 ♥3 ♦4 ♣5.") == ("Room {}: {}.", "2", "♠2 ♥3 ♦4 ♣5")
