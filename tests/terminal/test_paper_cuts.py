"""The terminal game as a new player meets it: quitting keeps the moves, the printed review command runs as
printed, review says which move it refuses, an empty line is no error, help fits the game, a death is said once,
and the duel takes a seed number like every other command."""

from __future__ import annotations

import io
import os
import shlex
import subprocess
import sys
from pathlib import Path

from games.engine import apply, legal_actions, new_game, preset, seed_to_text
from terminal import review
from terminal.play import run, typed_move

SCRIPT = Path(sys.executable).with_name("scoundrel-bot")
NO_VENV = {**{k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}, "PATH": "/usr/bin:/bin"}


def play(stdin: str, seed: int = 7, rules: str = "classic") -> str:
    out = io.StringIO()
    assert run(seed, rules, io.StringIO(stdin), out) == 0
    return out.getvalue()


def line_to_death(seed: int = 1) -> list[str]:
    state, typed = new_game(preset("classic"), seed=seed), []
    while not state.over:
        action = legal_actions(state)[-1]
        typed.append(typed_move(state, action))
        state = apply(state, action)
    assert state.status == "dead"
    return typed


def test_quitting_prints_the_moves_so_far_and_how_to_review_them():
    text = play("1\n2\nq\n")
    assert text.rstrip().endswith("Bye.")
    moves = next(line.removeprefix("> ") for line in text.splitlines() if "Moves: " in line)  # after the prompt
    assert moves == "Moves: 1b 2b"  # room 1 of #7 is ♤6 ♤8 ♥️10 ♦️8: two fights, barehanded
    assert f'review --seed {seed_to_text(7)} --moves "1b 2b"' in text
    assert "Moves: 1b\n" in play("1\n")  # input ended (Ctrl-D): the same
    assert "Moves: none yet." in play("q\n")


def test_the_printed_review_command_runs_as_printed_without_an_activated_virtualenv(tmp_path):
    for command in ([str(SCRIPT), "play"], [sys.executable, "-m", "bot", "play"]):
        played = subprocess.run([*command, "--seed", "#7"], input="1\n2\nq\n", capture_output=True, text=True,
                                timeout=60, env=NO_VENV, cwd=tmp_path)
        assert played.returncode == 0, played.stderr
        printed = next(line for line in played.stdout.splitlines() if line.startswith("Review them: "))
        reviewed = subprocess.run(printed.removeprefix("Review them: "), shell=True, capture_output=True,
                                  text=True, timeout=120, env=NO_VENV, cwd=tmp_path)
        assert reviewed.returncode == 0, (printed, reviewed.stderr)
        assert "Reviewed 2 moves" in reviewed.stdout
        assert shlex.split(printed)[2] != "scoundrel-bot"  # not on this PATH: printed by its path


def test_review_says_which_move_it_refuses(capsys):
    assert review.main(["--seed", "#7", "--moves", "1 1"]) == 2
    assert "error: move 2, '1', is not allowed there: that card has already been played" in capsys.readouterr().err
    assert review.main(["--seed", "#7", "--moves", "T0 T0"]) == 2
    assert "error: move 2, 'T0', is not allowed there" in capsys.readouterr().err
    died = line_to_death()
    assert review.main(["--seed", "#1", "--moves", " ".join([*died, "a"])]) == 2
    err = capsys.readouterr().err
    assert f"move {len(died) + 1}, 'a', comes after the end: the game ended with move {len(died)}" in err


def test_an_empty_line_asks_again_quietly():
    text = play("\n  \nq\n")
    assert "I don't know" not in text and text.count("> ") == 3
    assert "I don't know 'x'" in play("x\nq\n")  # a real unknown word is still answered


def test_help_lists_the_expansions_moves_only_in_an_expansion_game():
    classic = play("h\nq\n")
    assert "1b" in classic and "avoid the room" in classic
    assert "merchant" not in classic and "necromancer" not in classic and "loop again" not in classic
    expansion = play("h\nq\n", rules="expansion")
    assert "b1..b6" in expansion and "necromancer" in expansion and "loop again" in expansion


def test_a_death_is_said_once():
    text = play("\n".join(line_to_death()) + "\n", seed=1)
    assert text.count("You died.") == 1
    assert "You died. Score:" in text


def test_the_duel_takes_a_seed_number_as_every_command_does():
    result = subprocess.run([sys.executable, "-m", "bot", "duel", "--seed", "#5"], input="q\n",
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"Scoundrel duel · seed {seed_to_text(5)} ")
    refused = subprocess.run([sys.executable, "-m", "bot", "duel", "--seed", "#x"], capture_output=True, text=True,
                             timeout=60)
    assert refused.returncode == 2
    assert refused.stderr == "error: '#x' is not a seed number: write # and digits, like #5\n"
