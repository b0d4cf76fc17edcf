"""``scoundrel-bot replay``: the same GIF the bot posts, par's line on request, bad input refused plainly."""

from __future__ import annotations

import io

from PIL import Image

from bot.cli import main
from games.engine import PRESETS, deal, decode, seed_to_text
from games.picture.replay import render_replay
from games.solver import solve
from terminal.play import parse_seed

SEED = "K7Q2-M9XD"
MOVES = "T0 T1 T2"


def test_the_terminal_writes_the_bots_file_and_pars_line_after_the_moves(tmp_path, capsys):
    rules, seed = PRESETS["classic"], parse_seed(SEED)
    out = tmp_path / "game.gif"
    assert main(["replay", "--seed", SEED, "--moves", MOVES, "--out", str(out)]) == 0
    title = f"Seed {seed_to_text(seed)} · classic"  # the first frame names the game
    assert out.read_bytes() == render_replay(rules, deal(rules, seed), decode(MOVES), seed=seed, title=title)
    assert "game.gif" in capsys.readouterr().out
    both = tmp_path / "both.gif"
    assert main(["replay", "--seed", SEED, "--moves", MOVES, "--par", "--out", str(both)]) == 0
    par = solve(rules, deal(rules, seed)).actions
    assert Image.open(io.BytesIO(both.read_bytes())).n_frames == len(decode(MOVES)) + 1 + len(par) + 1


def test_a_move_that_is_not_legal_writes_nothing(tmp_path, capsys):
    out = tmp_path / "game.gif"
    assert main(["replay", "--seed", SEED, "--moves", "T9", "--out", str(out)]) == 2
    assert not out.exists() and capsys.readouterr().err.startswith("error:")
    assert main(["replay", "--seed", SEED, "--out", str(out)]) == 2  # neither moves nor par: nothing to show


def test_the_moves_are_read_in_the_notation_solve_prints_and_play_takes(tmp_path, capsys):
    assert main(["solve", "--seed", SEED]) == 0
    prefix = "Optimal line, as typed in `scoundrel-bot play`: "
    line = next(row for row in capsys.readouterr().out.splitlines() if row.startswith(prefix))[len(prefix):]
    rules, seed = PRESETS["classic"], parse_seed(SEED)
    typed, coded = tmp_path / "typed.gif", tmp_path / "coded.gif"
    assert main(["replay", "--seed", SEED, "--moves", line, "--out", str(typed)]) == 0
    par = solve(rules, deal(rules, seed)).actions
    assert typed.read_bytes() == render_replay(rules, deal(rules, seed), par, seed=seed,
                                               title=f"Seed {seed_to_text(seed)} · classic")
    assert main(["replay", "--seed", SEED, "--moves", " ".join(a.code for a in par), "--out", str(coded)]) == 0
    assert coded.read_bytes() == typed.read_bytes()  # action codes are still read
    assert main(["replay", "--seed", SEED, "--moves", "zz", "--out", str(tmp_path / "bad.gif")]) == 2
    assert "write the moves" in capsys.readouterr().err
