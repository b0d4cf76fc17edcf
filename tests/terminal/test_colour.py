"""Cards in red and black in a terminal, plain text elsewhere and under NO_COLOR."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys

import pytest

from terminal.colour import BOLD, RED, RESET, for_terminal, paint, wants_colour


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_red_suits_are_red_and_black_suits_bold_plain_or_as_players_read_them():
    assert paint("Room 1: ♦7 ♥10 ♠A ♣Q.") == f"Room 1: {RED}♦7{RESET} {RED}♥10{RESET} {BOLD}♠A{RESET} {BOLD}♣Q{RESET}."
    assert paint("♥️J on ♤10, ♧Q") == f"{RED}♥️J{RESET} on {BOLD}♤10{RESET}, {BOLD}♧Q{RESET}"  # readable suits
    assert paint("no cards here, 10 of them") == "no cards here, 10 of them"


@pytest.mark.parametrize("environ,expected", [({}, True), ({"NO_COLOR": "1"}, False), ({"NO_COLOR": ""}, True),
                                              ({"TERM": "dumb"}, False), ({"TERM": "xterm-256color"}, True)])
def test_colour_only_on_a_terminal_and_never_under_no_color(environ, expected):
    assert wants_colour(FakeTerminal(), environ) is expected
    assert wants_colour(io.StringIO(), environ) is False  # a pipe or a file: plain text


def test_the_writer_colours_what_is_printed_through_it():
    terminal = FakeTerminal()
    print("Equipped ♦7.", file=for_terminal(terminal, {}))
    assert terminal.getvalue() == f"Equipped {RED}♦7{RESET}.\n"
    plain = FakeTerminal()
    print("Equipped ♦7.", file=for_terminal(plain, {"NO_COLOR": "1"}))
    assert plain.getvalue() == "Equipped ♦7.\n"


def run_in_a_terminal(args: list[str], no_color: bool) -> str:
    """Run ``python -m bot ...`` with its stdout on a real pseudo-terminal; return what it printed."""
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")} | {"TERM": "xterm"}
    if no_color:
        env["NO_COLOR"] = "1"
    process = subprocess.Popen([sys.executable, "-m", "bot", *args], stdin=subprocess.PIPE, stdout=follower,
                               stderr=subprocess.DEVNULL, env=env)
    os.close(follower)
    process.communicate(b"q\n", timeout=60)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal is closed once the program has exited and all was read
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return b"".join(chunks).decode()


@pytest.mark.parametrize("command", [["play", "--seed", "0000-0004"], ["duel", "--seed", "0000-0004"]])
def test_terminal_play_is_coloured_on_a_terminal_and_plain_with_no_color(command):
    coloured = run_in_a_terminal(command, no_color=False)
    plain = run_in_a_terminal(command, no_color=True)
    assert RED in coloured and BOLD in coloured
    assert "\x1b[" not in plain and any(suit in plain for suit in "♠♣♥♦")
