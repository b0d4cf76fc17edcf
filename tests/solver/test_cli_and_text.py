"""``python -m bot solve`` and the room-by-room text of an optimal line."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import threading

from games.engine import PRESETS, deal
from games.solver import native, solve
from games.solver.explain import line_text
from terminal.solve import main, parse_seed
from tests.solver.brute_force import start_state
from tests.solver.test_known_deals import cards

CLASSIC = PRESETS["classic"]


def test_solve_prints_par_at_once_then_the_coachs_game_with_a_progress_bar():
    """As run in a terminal (its error stream a terminal, where the bar is drawn): par comes while the coach still
    plays, then the coach's game; the bar counts the dungeon's cards."""
    terminal, bar_end = pty.openpty()
    fcntl.ioctl(bar_end, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal 100 columns wide
    solving = subprocess.Popen([sys.executable, "-m", "bot", "solve", "--seed", "#7"], stdout=subprocess.PIPE,
                               stderr=bar_end, text=True)
    os.close(bar_end)
    drawn: list[bytes] = []
    reader = threading.Thread(target=lambda: drawn.extend(iter(lambda: _read(terminal), b"")), daemon=True)
    reader.start()
    try:
        out = [solving.stdout.readline() for _ in range(2)]  # type: ignore[union-attr]
        assert out[1].startswith("Par: 30 (winnable)")
        assert solving.poll() is None  # par is out while the coach is still playing
        rest, _ = solving.communicate(timeout=600)
    finally:
        solving.kill()
    reader.join(10)
    out = [line.rstrip("\n") for line in out] + rest.splitlines()
    assert out[1].endswith(f"(solver: {native.describe()}).")
    assert any(line.strip().startswith("Room 1: ♤6 ♤8 ♥️10 ♦️8.") for line in out)
    assert out[-3].startswith("The coach, seeing only the room and what was seen before, plays: ")
    assert out[-1] == "best_score=30 winnable=yes"
    bar = b"".join(drawn).decode(errors="replace")
    assert "The coach plays" in bar and re.search(r"\b[0-9]+/44\b", bar)


def test_the_solve_commands_coach_plays_the_coachs_own_game():
    from games.engine import apply, new_game
    from games.solver.fair import coach_play
    from terminal.solve import coach_game

    deck = deal(CLASSIC, 7)
    state, line = new_game(CLASSIC, deck=deck), iter(solve(CLASSIC, deck).actions)
    while len(state.dungeon) > 8:  # along the best line, late into the deal: quick to play out
        state = apply(state, next(line))
    shown = coach_game(CLASSIC, deck, start=state)
    played = coach_play(CLASSIC, deck, start=state)
    assert (shown.moves, shown.score) == (played.moves, played.score)


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 4096)
    except OSError:  # the other end closed
        return b""


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
