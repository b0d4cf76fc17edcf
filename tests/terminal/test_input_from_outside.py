"""What a player types at the terminal, whatever it is: odd digits (``①``, ``²``, ``٣``), endless digits, an empty
seed. Each gets one line in the player's words, never Python's message or a traceback; the parsers are tried on
any Unicode at any length."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings

from games.engine import CLASSIC, ActionParseError, IllegalAction, SeedError, deal, new_game
from terminal.play import parse_move, parse_seed, run
from terminal.review import read_moves
from tests.outside_text import outside

FAST = settings(max_examples=150, deadline=None)
DECK = tuple(deal(CLASSIC, 7))


def command(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, text=True,
                          timeout=60, env={**os.environ, "NO_COLOR": "1"})


def test_odd_and_endless_digits_at_the_prompt_are_not_moves():
    out = io.StringIO()
    assert run(7, "classic", io.StringIO("①\n²\n٣\nb②\n3w\n" + "1" * 100_000 + "\nq\n"), out) == 0
    text = out.getvalue()
    for typed in ("①", "²", "٣", "b②"):
        assert f"I don't know {typed!r}. Type h for help." in text
    assert "I don't know '1111111111111111111…'" in text  # quoted back in 20 characters, not 100,000
    assert "Moves: none yet." in text


def test_the_real_command_answers_a_circled_digit_in_words():
    played = command("play", "--seed", "K7Q2-M9XD", stdin="①\n²\n")
    assert played.returncode == 0 and played.stderr == ""
    assert "I don't know '①'" in played.stdout and "I don't know '²'" in played.stdout


@pytest.mark.parametrize("moves", ["①", "1 ²", "T①", "9" * 100_000])
def test_hint_and_review_refuse_odd_moves_in_one_line(moves):
    for verb in ("hint", "review"):
        done = command(verb, "--seed", "#7", "--moves", moves)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and "is not a move" in done.stderr, done.stderr
        assert "invalid literal" not in done.stderr and "Exceeds" not in done.stderr and len(done.stderr) < 600


@pytest.mark.parametrize("seed", ["", "   "])
def test_an_empty_seed_is_refused_not_replaced_by_a_random_deal(seed):
    for verb in (["play"], ["duel"], ["solve", "--quiet"]):
        done = command(*verb, "--seed", seed)
        assert done.returncode == 2 and "seed is empty" in done.stderr and "Room 1" not in done.stdout, done


@pytest.mark.parametrize("seed", ["#①", "#²", "#" + "9" * 5000, "٣٣"])
def test_a_seed_number_in_odd_digits_is_refused_in_words(seed):
    with pytest.raises(SeedError) as refused:
        parse_seed(seed)
    assert "invalid literal" not in str(refused.value) and len(str(refused.value)) < 200


@FAST
@given(outside("#"))
def test_seeds_from_any_text(text):
    try:
        assert 0 <= parse_seed(text) < 2**40
    except SeedError as refused:
        assert len(str(refused)) < 200


@FAST
@given(outside("bwBW"))
def test_a_typed_move_from_any_text_is_a_move_or_nothing(text):
    state = new_game(CLASSIC, deck=DECK)
    action = parse_move(state, text)  # never raises
    assert action is None or text.strip().isascii()  # a move is typed in 0-9 and letters a-z


@FAST
@given(outside("TWBALRDOEbwa"))
def test_a_line_of_moves_from_any_text(text):
    try:
        read_moves(CLASSIC, DECK, text)
    except (ActionParseError, IllegalAction) as refused:
        assert len(str(refused)) < 600 and "invalid literal" not in str(refused)
