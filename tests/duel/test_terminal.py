"""``python -m bot duel``: two players at one terminal, driven through real stdin/stdout text."""

import io

import pytest

from bot.__main__ import main as bot_main
from games.duel.cards import Card
from games.duel.text import parse_card, parse_command
from terminal.duel import run


def play(lines: str, seed: int = 5) -> tuple[int, str]:
    out = io.StringIO()
    return run(seed, io.StringIO(lines), out), out.getvalue()


def test_a_short_duel_by_typed_moves():
    code, text = play("d\np 1 1\np 2 2\np 3 3\n\nb 1 zz\nd\n\nresign\n")  # Enter before each player's hand
    assert code == 0
    assert "✗ the roller must place the dice first" in text
    assert "is not a card" in text
    assert "Player 2 (non-roller) plays cards" in text
    assert "· Player 1 rolls" in text and "· Player 1 resigns; Player 2 wins" in text
    assert "Player 2 wins! Moves: P00 P11 P22 D R0" in text
    assert text.count("press Enter to see your hand") == 2
    first_wait = text.index("Player 2, press Enter to see your hand (Player 1, look away).")
    assert "Player 2's hand:" not in text[:first_wait] and "Player 2's hand:" in text[first_wait:]


def test_rules_are_shown_without_markdown():
    text = play("rules\nq\n")[1]
    assert "Goal: be first to finish four columns" in text and "**" not in text


def test_quitting_or_leaving_is_a_normal_end():
    assert play("q\n")[0] == 0
    assert play("")[0] == 0


@pytest.mark.parametrize("typed, card", [("J♥", Card(11, "H")), ("jh", Card(11, "H")), ("10s", Card(10, "S")),
                                         ("H11", Card(11, "H")), ("a♠", Card(1, "S")), ("kd", Card(13, "D")),
                                         ("♥️J", Card(11, "H")), ("♤10", Card(10, "S")), ("♧a", Card(1, "C")),
                                         ("♦K", Card(13, "D")), ("♥10", Card(10, "H"))])
def test_cards_as_typed(typed, card):
    assert parse_card(typed) == card


@pytest.mark.parametrize("typed", ["", "x", "b 5 jh", "b 1 zz", "p 1", "f 0", "s 2 14h"])
def test_bad_moves_are_refused(typed):
    with pytest.raises(ValueError):
        parse_command(typed)


def test_bad_seed_is_refused(capsys):
    assert bot_main(["duel", "--seed", "!!"]) == 2
    assert "not a seed" in capsys.readouterr().err
