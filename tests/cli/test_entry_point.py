"""The command line as a user meets it: real processes, real exit codes, real Ctrl-C."""

from __future__ import annotations

import io
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.cli import COMMANDS, main
from games.engine import PLAYING, PRESETS, legal_actions, new_game, seed_from_text
from games.engine import apply as apply_action
from terminal.play import parse_move, run, typed_move

SCRIPT = Path(sys.executable).with_name("scoundrel-bot")


def cli(*args: str, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, text=True,
                          timeout=60, env=env)


def test_no_command_prints_usage_and_exits_2():
    result = cli()
    assert result.returncode == 2
    assert result.stderr.startswith("usage: scoundrel-bot") and "a command is required" in result.stderr


def test_unknown_command_is_a_usage_error():
    result = cli("nope")
    assert result.returncode == 2 and "invalid choice: 'nope'" in result.stderr and "Traceback" not in result.stderr


def test_help_lists_every_command_and_version_prints_the_package_version():
    result = cli("--help")
    assert result.returncode == 0
    for name in COMMANDS:
        assert f"    {name}" in result.stdout
    version = cli("--version")
    assert version.returncode == 0 and version.stdout.strip().startswith("scoundrel-bot 0.")


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_has_help(command, capsys):
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: scoundrel-bot {command}")


def test_a_bad_option_is_a_usage_error(capsys):
    assert main(["bench", "--rounds", "many"]) == 2
    assert "invalid int value" in capsys.readouterr().err


def test_the_console_script_is_installed_and_is_the_same_entry_point():
    assert SCRIPT.exists(), "pip install -e . should install the scoundrel-bot console script"
    result = subprocess.run([str(SCRIPT), "solve", "--seed", "#7", "--quiet"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0 and result.stdout == "best_score=30 winnable=yes\n"


def test_quitting_a_game_or_a_duel_exits_0():
    assert cli("play", "--seed", "K7Q2-M9XD", stdin="q\n").returncode == 0
    assert cli("duel", "--seed", "K7Q2-M9XD", stdin="q\n").returncode == 0


def _interrupt(args: list[str]) -> subprocess.CompletedProcess:
    proc = subprocess.Popen([sys.executable, "-m", "bot", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deadline = time.monotonic() + 30
        first = proc.stdout.readline()  # the command is up and waiting
        assert first, proc.stderr.read()
        while time.monotonic() < deadline and proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                out, err = proc.communicate(timeout=2)
                break
            except subprocess.TimeoutExpired:
                continue
        else:  # pragma: no cover - a hang is a failure
            proc.kill()
            raise AssertionError("Ctrl-C did not end the command")
    finally:
        if proc.poll() is None:
            proc.kill()
    return subprocess.CompletedProcess(args, proc.returncode, first + out, err)


@pytest.mark.parametrize("args", [["play", "--seed", "K7Q2-M9XD"], ["duel", "--seed", "K7Q2-M9XD"]])
def test_ctrl_c_ends_a_command_without_a_traceback(args):
    result = _interrupt(args)
    assert result.returncode == 130
    assert "Traceback" not in result.stderr and "KeyboardInterrupt" not in result.stderr


def test_ctrl_c_during_a_long_computation():
    result = _interrupt(["bench", "--games", "300", "--rounds", "100000"])
    assert result.returncode == 130 and "Traceback" not in result.stderr


def test_solve_prints_a_line_the_terminal_game_accepts_and_it_reaches_par():
    result = cli("solve", "--seed", "K7Q2-M9XD", "--no-coach")  # the coach's line: tests/terminal/test_coach_commands
    assert result.returncode == 0
    prefix = "Optimal line, as typed in `scoundrel-bot play`: "
    typed = next(line for line in result.stdout.splitlines() if line.startswith(prefix))[len(prefix):].split()
    par = int(result.stdout.rsplit("best_score=", 1)[1].split()[0])
    out = io.StringIO()
    assert run(seed_from_text("K7Q2-M9XD"), "classic", io.StringIO("\n".join(typed) + "\n"), out) == 0
    assert f"Score: {par}." in out.getvalue()
    assert "Not allowed" not in out.getvalue() and "I don't know" not in out.getvalue()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_typed_moves_parse_back_to_the_same_action(preset):
    pick = random.Random(preset).choice
    for seed in range(40):
        s = new_game(PRESETS[preset], seed=seed)
        while s.status == PLAYING:
            for action in legal_actions(s):
                assert parse_move(s, typed_move(s, action)) == action
            s = apply_action(s, pick(legal_actions(s)))


def test_the_bot_runs_on_uvloop_where_it_is_installed():
    """``bot run``'s event loop (``bot.run.run_loop``) is uvloop's on Linux, and asyncio's if uvloop is missing."""
    code = ("import asyncio, sys\n"
            "{block}"
            "from bot.run import run_loop\n"
            "async def main():\n"
            "    print(type(asyncio.get_running_loop()).__module__)\n"
            "run_loop(main())\n")
    found = subprocess.run([sys.executable, "-c", code.format(block="")], capture_output=True, text=True,
                           timeout=60, check=True)
    assert found.stdout.strip() == "uvloop"
    without = subprocess.run([sys.executable, "-c", code.format(block="sys.modules['uvloop'] = None\n")],
                             capture_output=True, text=True, timeout=60, check=True)
    assert without.stdout.strip() == "asyncio.unix_events"
