"""``python -m bot solve`` and the room-by-room text of an optimal line."""

from __future__ import annotations

from games.engine import PRESETS, deal
from games.solver import compiled, solve
from games.solver.explain import line_text
from terminal.solve import main, parse_seed
from tests.solver.brute_force import start_state
from tests.solver.test_known_deals import cards

CLASSIC = PRESETS["classic"]


def test_solve_by_seed_prints_par_line_and_final_summary(capsys):
    assert main(["--seed", "#7"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("Par: 30 (winnable)")
    running = ", ".join(compiled())
    assert out[1].endswith(f"(solver: compiled ({running})).") if running else out[1].endswith("(solver: pure Python).")
    assert any(line.strip().startswith("Room 1: ♤6 ♤8 ♥️10 ♦️8.") for line in out)
    assert out[-1] == "best_score=30 winnable=yes"


def test_solve_by_explicit_deck_matches_the_seed(capsys):
    codes = " ".join(c.code for c in deal(CLASSIC, 7))
    assert main(["--deck", codes, "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines() == ["best_score=30 winnable=yes"]


def test_bad_input_and_refused_rules_exit_2_with_a_message(capsys):
    assert main(["--deck", "S14 H5"]) == 2
    assert "each of the 44 cards" in capsys.readouterr().err
    assert main(["--seed", "#7", "--preset", "shuffled-avoid"]) == 2
    assert "shuffled" in capsys.readouterr().err


def test_seed_forms():
    assert parse_seed("#7") == 7 == parse_seed("7")
    assert parse_seed("0000-0007") == 7


def test_line_text_is_one_line_per_room_ending_with_the_score():
    rules = CLASSIC.with_health(5)
    deck = cards(rules, "C2", "D3", "S4", "H5", "C6", "S14", "H9")
    solution = solve(rules, deck)
    text = line_text(rules, deck, solution.actions, start=start_state(rules, deck))
    assert text[0].startswith("Room 1: ♣2 ♦3 ♠4 ♥5.")
    assert all(t.startswith(f"Room {i + 1}:") or "Avoided" in t for i, t in enumerate(text))
    assert text[-1].endswith(f"Score: {solution.best_score}.")
