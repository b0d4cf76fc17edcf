"""benchmarks/coach_numbers.py on a few real deals: what it measures agrees with the solver and the plain players,
a rerun measures only what is missing (after a finished run, a line cut short, and a run killed mid-way), worker
processes give the same results, and the table's intervals are the textbook ones."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import baselines  # noqa: E402
import coach_numbers  # noqa: E402
import number_table  # noqa: E402

from app.daily.days import DAILY_RULES  # noqa: E402
from games.engine import PRESETS, deal  # noqa: E402
from games.solver import solve  # noqa: E402

PLAIN = "par,greedy,smallest"


def lines(path: Path) -> list[dict]:
    """The file's results; a line cut short by a stopped run is left in place and skipped, as the command does."""
    found = []
    for line in path.read_text().splitlines():
        try:
            found.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return found


def test_results_agree_with_the_solver_and_the_players_and_a_rerun_measures_only_what_is_missing(tmp_path, capsys):
    results = tmp_path / "numbers.jsonl"
    assert coach_numbers.main(["--deals", "3", "--players", PLAIN, "--results", str(results)]) == 0
    first = lines(results)
    assert sorted((r["seed"], r["player"]) for r in first) == sorted(
        (seed, p) for seed in (1, 2, 3) for p in ("par", "greedy", "smallest"))
    for record in first:
        deck = deal(DAILY_RULES, record["seed"])
        if record["player"] == "par":
            expected = solve(DAILY_RULES, deck).best_score
        else:
            expected = baselines.play(baselines.PLAYERS[record["player"]], DAILY_RULES, deck).score
        assert record["score"] == expected and record["won"] == (expected > 0)
    assert "3 of 3 classic deals measured by every player" in capsys.readouterr().out

    assert coach_numbers.main(["--deals", "5", "--players", PLAIN, "--results", str(results)]) == 0
    second = lines(results)
    assert second[:len(first)] == first  # kept as it was, nothing measured twice
    assert sorted((r["seed"], r["player"]) for r in second[len(first):]) == sorted(
        (seed, p) for seed in (4, 5) for p in ("par", "greedy", "smallest"))
    out = capsys.readouterr().out
    assert "5 of 5 classic deals" in out
    assert f"--deals 5 --first 1 --players {PLAIN}" in out  # the command that reproduces the table

    # A run stopped in the middle of writing a line: that result is measured again, the others are not.
    text = results.read_text()
    results.write_text(text[:-15])
    assert coach_numbers.main(["--deals", "5", "--players", PLAIN, "--results", str(results)]) == 0
    third = lines(results)
    assert len(third) == len(second) and third[:-1] == second[:-1]
    assert (third[-1]["seed"], third[-1]["player"]) == (second[-1]["seed"], second[-1]["player"])

    # A result of another version of a player (its code changed since) is measured again, never mixed in.
    older = dict(third[0], version="0123456789ab")
    results.write_text("".join(json.dumps(r) + "\n" for r in [older, *third[1:]]))
    assert coach_numbers.main(["--deals", "5", "--players", PLAIN, "--results", str(results)]) == 0
    fourth = lines(results)
    assert fourth[:-1] == [older, *third[1:]]
    assert {k: v for k, v in fourth[-1].items() if k != "seconds"} == {k: v for k, v in third[0].items()
                                                                        if k != "seconds"}


def test_a_run_killed_midway_goes_on_where_it_stopped(tmp_path):
    results = tmp_path / "numbers.jsonl"
    command = [sys.executable, str(ROOT / "benchmarks" / "coach_numbers.py"), "--deals", "400", "--players",
               PLAIN, "--results", str(results)]
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not results.exists() or len(results.read_text().splitlines()) < 4):
        time.sleep(0.05)
    run.send_signal(signal.SIGKILL)
    run.communicate()
    measured = {(r["seed"], r["player"]) for r in lines(results)}
    assert 4 <= len(measured) < 1200  # stopped part-way
    seeds = max(seed for seed, _ in measured) + 1
    finish = subprocess.run(command[:3] + [str(seeds)] + command[4:], capture_output=True, text=True, cwd=ROOT,
                            timeout=120)
    assert finish.returncode == 0, finish.stderr
    after = [(r["seed"], r["player"]) for r in lines(results)]
    assert len(after) == len(set(after)) == 3 * seeds  # each result once: what was done was not measured again
    assert f"{seeds} of {seeds} classic deals" in finish.stdout
    assert "result" in finish.stderr  # the progress bar went to stderr


def test_worker_processes_measure_the_same(tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert coach_numbers.main(["--deals", "4", "--first", "7", "--players", PLAIN, "--results", str(one)]) == 0
    assert coach_numbers.main(["--deals", "4", "--first", "7", "--players", PLAIN, "--jobs", "2",
                               "--results", str(two)]) == 0

    def scores(path):
        return {(r["seed"], r["player"]): r["score"] for r in lines(path)}

    assert scores(one) == scores(two) and len(scores(one)) == 12


def test_other_rules_are_measured_apart_and_played_under_those_rules(tmp_path, capsys):
    results = tmp_path / "numbers.jsonl"
    assert coach_numbers.main(["--deals", "3", "--players", PLAIN, "--results", str(results)]) == 0
    assert coach_numbers.main(["--deals", "3", "--players", PLAIN, "--rules", "lenient", "--results",
                               str(results)]) == 0
    out = capsys.readouterr().out
    assert "3 of 3 lenient deals measured by every player" in out and "--rules lenient" in out
    lenient = PRESETS["lenient"]
    measured = [r for r in lines(results) if r["rules"] == lenient.key]
    assert len(measured) == 9 and len(lines(results)) == 18  # the classic results neither reused nor measured again
    for record in measured:
        if record["player"] == "par":
            assert record["score"] == solve(lenient, deal(lenient, record["seed"])).best_score


def test_bad_arguments_change_nothing(tmp_path, capsys):
    results = tmp_path / "numbers.jsonl"
    assert coach_numbers.main(["--players", "par,oracle", "--results", str(results)]) == 2
    assert coach_numbers.main(["--deals", "0", "--results", str(results)]) == 2
    assert coach_numbers.main(["--version", "greedy=0123456789ab", "--results", str(results)]) == 2  # measure it?
    assert "unknown players oracle" in capsys.readouterr().err and not results.exists()


def test_the_intervals_are_the_textbook_ones():
    # Wilson's interval for 0 of n has 0 and z²/(n + z²) as its ends; for 50 of 100 it is symmetric about 0.5.
    z2 = number_table.Z95 ** 2
    assert number_table.wilson(0, 500) == pytest.approx((0.0, z2 / (500 + z2)))
    low, high = number_table.wilson(50, 100)
    assert low == pytest.approx(1 - high) and low == pytest.approx(0.4038, abs=1e-4)
    mean, low, high = number_table.mean_interval([1, 2, 3, 4, 5])
    assert mean == 3 and high - mean == pytest.approx(number_table.Z95 * (2.5 ** 0.5) / 5 ** 0.5)


def test_the_coach_is_measured_by_its_own_game(tmp_path):
    from games.solver.fair import coach_play

    results = tmp_path / "numbers.jsonl"
    quick = 2  # seed number #2: the coach's game is short (it meets a room it cannot survive early)
    assert coach_numbers.main(["--deals", "1", "--first", str(quick), "--players", "coach",
                               "--results", str(results)]) == 0
    [record] = lines(results)
    assert record["score"] == coach_play(DAILY_RULES, deal(DAILY_RULES, quick)).score
    assert record["version"] == coach_numbers.version("coach") != coach_numbers.version("greedy")


def test_the_table_of_an_earlier_version_of_a_player(tmp_path, capsys):
    results = tmp_path / "numbers.jsonl"
    assert coach_numbers.main(["--deals", "2", "--players", "par,greedy", "--results", str(results)]) == 0
    earlier = [dict(r, version="0123456789ab", score=-1) for r in lines(results) if r["player"] == "greedy"]
    with results.open("a") as out:
        out.writelines(json.dumps(r) + "\n" for r in earlier)
    capsys.readouterr()
    assert coach_numbers.main(["--deals", "2", "--players", "par,greedy", "--results", str(results), "--table",
                               "--version", "greedy=0123456789ab"]) == 0
    out = capsys.readouterr().out
    assert "2 of 2 classic deals" in out and "| -1.0 (-1.0 to -1.0) | -1 |" in out  # those results, not today's
    assert "--table --version greedy=0123456789ab" in out and "greedy 0123456789ab" in out
