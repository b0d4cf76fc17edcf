"""The terminal game and the benchmark's playout loop, on the real engine."""

from __future__ import annotations

import io
import subprocess
import sys

from bot.bench import play_random_games
from games.engine import PLAYING, Rules, apply, legal_actions, new_game, preview, seed_from_text
from terminal.play import run


def typed(action) -> str:
    """What a player types for an action at the terminal prompt."""
    return {"avoid": "a", "take": f"{action.index + 1}b", "weapon": f"{action.index + 1}w"}[action.kind]


def test_a_whole_terminal_game_ends_with_the_engine_score():
    seed = seed_from_text("K7Q2-M9XD")
    s = new_game(Rules(), seed=seed)
    moves = []
    while s.status == PLAYING:
        action = min(legal_actions(s), key=lambda a: preview(s, a).damage - preview(s, a).heal)
        moves.append(typed(action))
        s = apply(s, action)
    out = io.StringIO()
    assert run(seed, "classic", io.StringIO("\n".join(moves) + "\n"), out) == 0
    text = out.getvalue()
    assert f"Score: {s.score}." in text
    assert text.count("> ") == len(moves)


def test_terminal_refuses_bad_moves_and_keeps_the_game():
    out = io.StringIO()
    run(1, "classic", io.StringIO("1b\n1b\nzz\na\nq\n"), out)
    text = out.getvalue()
    assert "Not allowed: That card has already been played this turn." in text
    assert "I don't know 'zz'" in text
    assert "Not allowed: You have started facing this room" in text
    assert "Bye." in text


def test_python_m_bot_play_rejects_a_bad_seed():
    result = subprocess.run([sys.executable, "-m", "bot", "play", "--seed", "NOPE"], capture_output=True, text=True)
    assert result.returncode == 2 and "is not a seed" in result.stderr and "Traceback" not in result.stderr


def test_benchmark_playouts_play_whole_games():
    actions = play_random_games(Rules(), 50, first_seed=0)
    assert actions >= 50 * 3  # every game takes at least one room's worth of moves
