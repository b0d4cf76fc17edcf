"""``hint``, ``review`` and ``solve`` as a player runs them: the fair coach's advice, its mistakes and its score."""

from __future__ import annotations

import re

from bot.__main__ import main as bot_main
from games.engine import PRESETS, deal, replay
from games.engine.cards import readable
from terminal.review import read_moves

CLASSIC = PRESETS["classic"]
# Seed #3 opens on ♠5 ♣7 ♣Q ♣10: 34 damage and no weapon, so facing the room kills, whatever lies below.


def test_hint_prints_every_move_judged_and_ends_with_the_machine_line(capsys):
    assert bot_main(["hint", "--seed", "#3", "--moves", ""]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == readable("Room 1: ♠5 ♣7 ♣Q ♣10; health 20.")
    assert re.fullmatch(r"  → +a  avoiding the room +expected +\d+\.\d ± *\d+\.\d  wins +\d+ %", out[2])
    # each fight dies in this room on every order judged whole, at the same score: no spread to speak of
    assert sum(bool(re.search(r"fighting .* expected +-1\d\d\.0 ± 0\.\d  wins +0 %$", line)) for line in out) == 4
    assert "sure at 95 %" in out[1] and "between" in out[-2]  # a sample of orders: an interval, never "100 %"
    assert re.fullmatch(r"hint=a expected=\d+\.\d win=\d+%", out[-1])


def test_hint_after_moves_and_on_bad_input(capsys):
    assert bot_main(["hint", "--seed", "#3", "--moves", "a"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Room 2: ") and re.fullmatch(r"hint=\d[wb]? expected=-?\d+\.\d win=\d+%", out[-1])
    assert bot_main(["hint", "--seed", "#3", "--moves", "a a"]) == 2  # two avoids in a row
    assert capsys.readouterr().err.startswith("error: ")
    assert bot_main(["hint", "--seed", "#3", "--moves", "2b 3b 4b"]) == 2  # dead in room 1: nothing to hint
    assert "the game is over" in capsys.readouterr().err
    assert bot_main(["hint", "--seed", "#3", "--preset", "shuffled-avoid"]) == 2
    assert "shuffled" in capsys.readouterr().err


def test_review_marks_a_clear_mistake_by_its_move_number(capsys):
    assert bot_main(["review", "--seed", "#3", "--moves", "2b"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("You gave away about ") and "on what you could see" in out[0]
    assert re.fullmatch(r"  ✗ Room 1 \(−\d+\): fighting " + readable("♣7") + " barehanded; better: avoiding the room",
                        out[1])
    assert out[-1].startswith("par=") and out[-1].endswith(" mistakes=1")


def test_review_of_the_hinted_move_finds_no_mistake(capsys):
    assert bot_main(["review", "--seed", "#3", "--moves", "a"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("No clear mistakes so far (1/1 decisions as good as the best")
    assert out[-1].endswith(" perfect=1/1 mistakes=")


def test_solve_prints_the_coachs_score_and_a_line_that_reaches_it(capsys):
    assert bot_main(["solve", "--seed", "#3"]) == 0
    out = capsys.readouterr().out.splitlines()
    coach_line = next(line for line in out if line.startswith("The coach, seeing only the room"))
    typed = coach_line.split(": ", 1)[1].rsplit(" (", 1)[0]
    score = int(next(line for line in out if line.startswith("Coach (seeing only the room): ")).rsplit(" ", 1)[1])
    deck = deal(CLASSIC, 3)
    finished = replay(CLASSIC, deck, read_moves(CLASSIC, deck, typed))
    assert finished.over and finished.score == score
    assert out[-1].startswith("best_score=")
