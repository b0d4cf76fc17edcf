"""Solving from any position, and the review of a line, checked against brute force and the solver's own par."""

from __future__ import annotations

import random
import re

import pytest

from games.engine import PRESETS, apply, deal, decode, legal_actions, new_game
from games.engine.cards import readable
from games.solver import solve
from games.solver.fair_review import fair_review
from games.solver.position import Position
from games.solver.review import review
from games.solver.search import Search
from terminal.review import main as review_main
from tests.solver.brute_force import best_from, start_state
from tests.solver.test_agreement import SOLVABLE, small_deals

CLASSIC = PRESETS["classic"]


def random_line(rules, deck, rng, start=None, stray=1.0):
    """A legal line to the end: random moves (``stray`` of the time), else the solver's best move."""
    state = start if start is not None else new_game(rules, deck=tuple(deck))
    position = Position(rules, deck)
    line = []
    while not state.over:
        if rng.random() < stray:
            action = rng.choice(legal_actions(state))
        else:
            action = position.best_action(state)[0]
        line.append(action)
        state = apply(state, action)
    return line


@pytest.mark.parametrize("preset_name", SOLVABLE)
def test_every_position_of_random_lines_agrees_with_brute_force(preset_name):
    """Mid-room, after avoids, in the final room, at any health: the exact best score from there."""
    rng = random.Random(f"positions-{preset_name}")
    checked = mid_room = 0
    for rules, deck in small_deals(preset_name, 25):
        state = start_state(rules, deck)
        position, memo = Position(rules, deck), {}
        while not state.over:
            expected = best_from(state, memo)
            assert position.value(state) == expected, f"{rules.key} {[c.code for c in deck]} {state.history}"
            searched = position.search.nodes
            action, kept = position.best_action(state)
            assert kept == expected and best_from(apply(state, action), memo) == expected
            assert position.search.nodes == searched  # the move is read from what the value's search proved
            checked += 1
            mid_room += any(card is None for card in state.room)
            state = apply(state, rng.choice(legal_actions(state)))
    assert checked > 60 and mid_room > 15


def check_review(rules, deck, line, start=None):
    result = review(rules, deck, line, start=start)
    par = solve(rules, deck).best_score
    assert result.steps[0].before == par  # the review starts from the solver's par
    for step, nxt in zip(result.steps, result.steps[1:], strict=False):
        assert step.after == nxt.before
    for step in result.steps:
        assert step.after <= step.before  # the best reachable never rises along the line
        assert bool(step.text) == (step.after < step.before)
        if step.lost:
            assert step.better is not None and step.better != step.action
            assert step.choices > 1
    assert result.score == result.steps[-1].after  # the line ends the game: its score is what was reachable
    assert result.lost == par - result.score == sum(room.lost for room in result.rooms)
    return result


def test_a_review_follows_the_solvers_par_at_every_step():
    rng = random.Random("review-small")
    for preset_name in SOLVABLE:
        for rules, deck in small_deals(preset_name, 8):
            start = start_state(rules, deck)
            check_review(rules, deck, random_line(rules, deck, rng, start=start, stray=0.5), start=start)


def test_a_perfect_line_has_no_mistakes():
    deck = deal(CLASSIC, 7)
    perfect = check_review(CLASSIC, deck, solve(CLASSIC, deck).actions)
    assert perfect.lost == 0 and perfect.perfect == perfect.decisions > 20
    assert not any(step.text for step in perfect.steps)
    assert perfect.summary().startswith("A perfect game: every move kept the best possible score, 30")
    assert perfect.lines() == [f"Rooms 1–{len(perfect.rooms)}: perfect", perfect.summary()]  # 2 lines, not 23


def test_a_strayed_line_is_summed_up_and_told_in_words():
    rng = random.Random("review-words")
    for rules, deck in small_deals("classic", 30):
        start = start_state(rules, deck)
        result = check_review(rules, deck, random_line(rules, deck, rng, start=start, stray=0.5), start=start)
        if result.lost > 1 and len(result.rooms) > 1:
            break
    mistakes = [step for step in result.steps if step.lost]
    assert result.perfect == result.decisions - len(mistakes)
    worst = max(result.rooms, key=lambda room: room.lost)
    assert result.summary() == (f"You lost {result.lost} points against par {result.par}; the costliest was room "
                                f"{worst.number} (−{worst.lost}); {result.perfect}/{result.decisions} "
                                "decisions perfect.")
    assert re.fullmatch(r"[A-Z][a-z]+ .+ dropped your best possible from -?\d+ to -?\d+; "
                        r"[a-z]+ .+ instead kept -?\d+\.", mistakes[0].text)
    told = result.lines()
    assert len(told) <= 12 and told[-1] == result.summary()
    shown = [line for line in told if line.startswith("✗ ")]
    assert all(re.fullmatch(r"✗ Room \d+ \(−\d+\): [a-z]+ .+; better: [a-z]+ .+", line) for line in shown)
    assert len(shown) == len(mistakes) or "more mistake" in told[-2]


def test_a_review_with_many_mistakes_lists_the_costliest_in_twelve_lines():
    deck = deal(CLASSIC, 13)
    state, line = new_game(CLASSIC, deck=deck), []
    while not state.over:  # always the last legal move: a mistake in nearly every room
        line.append(legal_actions(state)[-1])
        state = apply(state, line[-1])
    result = review(CLASSIC, deck, line)
    mistakes = sorted((step for step in result.steps if step.lost), key=lambda step: -step.lost)
    told = result.lines(limit=6)
    assert len(told) <= 6 and told[-1] == result.summary()
    more = len(mistakes) - sum(line.startswith("✗ ") for line in told)
    assert more > 0 and told[-2] == (f"…and {more} more mistake{'s' if more > 1 else ''} "
                                     f"(−{sum(step.lost for step in mistakes[-more:])})")
    assert f"(−{mistakes[0].lost})" in "\n".join(told)  # the costliest is always told


def test_review_command(capsys):
    """The terminal's review is the fair one: on seed #7 (room 1: ♠6 ♠8 ♥10 ♦8) it judges these four moves the way
    the fair review does, and its machine line names the mistakes by move number."""
    assert review_main(["--seed", "#7", "--moves", "T0 T1 T2 A"]) == 0
    out = capsys.readouterr().out.splitlines()
    deck = deal(CLASSIC, 7)
    expected = fair_review(CLASSIC, deck, decode("T0 T1 T2 A"), par=30)
    *told, verdict = expected.lines()
    assert out[0] == readable(verdict) and out[1:1 + len(told)] == ["  " + readable(line) for line in told]
    assert out[-1] == expected.machine_line()
    assert out[-1].startswith("par=30 score=- ") and out[-1].endswith(
        " mistakes=" + ",".join(str(number) for number, step in enumerate(expected.steps, 1) if step.lost))
    assert review_main(["--seed", "#7", "--moves", "W0"]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_every_turn_start_of_a_long_game_is_read_as_the_room_and_dungeon_it_is():
    """Avoided cards come back in later rooms: the search's situation must deal exactly the engine's room."""
    deck = deal(CLASSIC, 7)
    position = Position(CLASSIC, deck)
    state, index, avoids = new_game(CLASSIC, deck=deck), {card: i for i, card in enumerate(deck)}, 0
    opening = decode("T0 T1")  # then the best play, avoids included (a line that once broke the reading)
    for action in opening:
        state = apply(state, action)
    line = random_line(CLASSIC, deck, random.Random("long-game"), start=state, stray=0.0)
    for action in line:
        situation = position.situation(state)
        if situation is not None:
            room, pos2, queue2 = Search(position.deal).fill(*situation[:3])
            assert sorted(room) == sorted(index[card] for card in state.room)
            assert list(range(pos2, len(deck))) + list(queue2) == [index[card] for card in state.dungeon]
        avoids += action.code == "A"
        state = apply(state, action)
    assert state.over and avoids >= 2
