"""``scoundrel-bot replay``: the same GIF the bot posts, par's line on request, bad input refused plainly."""

from __future__ import annotations

import io

from PIL import Image

from bot.cli import main
from bot.engine import PRESETS, deal, decode
from bot.picture.replay import render_replay
from bot.solve import parse_seed
from bot.solver import solve

SEED = "K7Q2-M9XD"
MOVES = "T0 T1 T2"


def test_the_terminal_writes_the_bots_file_and_pars_line_after_the_moves(tmp_path, capsys):
    rules, seed = PRESETS["classic"], parse_seed(SEED)
    out = tmp_path / "game.gif"
    assert main(["replay", "--seed", SEED, "--moves", MOVES, "--out", str(out)]) == 0
    assert out.read_bytes() == render_replay(rules, deal(rules, seed), decode(MOVES), seed=seed)
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
