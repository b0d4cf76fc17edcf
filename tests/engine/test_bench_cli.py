"""``python -m bot bench``: the long-game option and the figures it prints."""

from __future__ import annotations

import re

import pytest

from bot.bench import main, play_random_games
from games.engine import PRESETS


def test_long_games_measure_many_actions_per_game():
    short = play_random_games(PRESETS["classic"], 40, first_seed=0)
    long = play_random_games(PRESETS["classic"].with_health(99), 40, first_seed=0)
    assert long > 3 * short  # at 99 health random play mostly clears the dungeon


def test_bench_prints_games_and_actions_per_second_at_the_asked_health(capsys):
    assert main(["--games", "30", "--rounds", "3", "--health", "99", "--preset", "lenient"]) == 0
    out = capsys.readouterr().out
    assert len(re.findall(r"^round \d: [\d,]+ games/s, [\d,]+ actions/s$", out, re.M)) == 3
    assert "preset=lenient health=99/99 games/round=30 rounds=3" in out
    per_game = float(re.search(r"actions/game=([\d.]+)", out).group(1))
    assert per_game > 25
    assert re.search(r"^median: [\d,]+ games/s, [\d,]+ actions/s$", out, re.M)


@pytest.mark.parametrize("bad", ["0", "100", "ten"])
def test_bench_refuses_a_health_out_of_range(bad, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--health", bad])
    assert exited.value.code == 2
    assert "--health" in capsys.readouterr().err


def test_the_reference_engine_plays_the_same_games_through_the_bench_loop():
    """``benchmarks/engine_compare.py`` times both engines through this loop; equal action counts mean equal games."""
    from tests.engine import reference_game

    for rules in (PRESETS["classic"].with_health(99), PRESETS["expansion"]):
        assert (play_random_games(rules, 60, first_seed=3, engine=reference_game)
                == play_random_games(rules, 60, first_seed=3))
