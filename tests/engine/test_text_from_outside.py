"""Every engine parser of text a player types (action codes, seeds, cards and decks, the duel's codes and moves)
answers any Unicode at any length with its value or its own error, in a short message: never ``int``'s error, a
crash, or the whole input quoted back."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from games.duel.actions import DuelAction
from games.duel.cards import Card as DuelCard
from games.duel.text import parse_card as parse_duel_card
from games.duel.text import parse_command
from games.engine import (
    CLASSIC,
    Action,
    ActionParseError,
    CardParseError,
    SeedError,
    decode,
    parse_deck,
    seed_from_text,
    whole_number,
)
from games.engine.cards import parse_card
from tests.outside_text import ODD_DIGITS, huge_digits, outside

SHORT = 200  # characters: a refusal quotes at most a few of the input's
FAST = settings(max_examples=150, deadline=None)


def refused_shortly(parse, text, errors, short: int = SHORT):
    """``parse(text)``: a value, or one of ``errors`` with a short message."""
    try:
        return parse(text)
    except errors as refusal:
        assert len(str(refusal)) < short, str(refusal)[:300]
        return None


@pytest.mark.parametrize("text", ["①", "²", "٣", "５", "0x1", "-1", "+1", " 1", "1 ", "1_000", ""])
def test_whole_numbers_are_the_digits_0_to_9_only(text):
    assert whole_number(text) is None


def test_whole_numbers_read_what_they_should():
    assert whole_number("0") == 0 and whole_number("0042") == 42 and whole_number("9" * 19) == 10**19 - 1
    assert whole_number("9" * 20) is None and whole_number("123", digits=2) is None


@FAST
@given(outside())
def test_whole_number_never_raises(text):
    number = whole_number(text)
    assert number is None or (text.isascii() and text.isdigit() and number == int(text))


@pytest.mark.parametrize("code", [f"T{d}" for d in ODD_DIGITS] + ["W²", "B①", "T" + "9" * 100_000])
def test_an_action_code_with_odd_or_endless_digits_is_refused_in_words(code):
    with pytest.raises(ActionParseError) as refused:
        Action.parse(code)
    assert "card number" in str(refused.value) and len(str(refused.value)) < SHORT


@FAST
@given(outside("TWBALRDOEtwbalrdoe"))
def test_action_codes_from_any_text(text):
    action = refused_shortly(Action.parse, text, ActionParseError)
    if action is not None:
        assert Action.parse(action.code) == action  # what was read is a code the engine writes back
    refused_shortly(decode, text, ActionParseError)


@FAST
@given(outside("#"))
def test_seeds_from_any_text(text):
    seed = refused_shortly(seed_from_text, text, SeedError)
    assert seed is None or 0 <= seed < 2**40


def test_a_seed_refusal_quotes_a_little_of_a_huge_input():
    with pytest.raises(SeedError) as refused:
        seed_from_text("K" * 100_000)
    assert len(str(refused.value)) < SHORT


@FAST
@given(outside("CSDHcsdh♠♥"))
def test_cards_and_decks_from_any_text(text):
    deck = CLASSIC.full_deck()
    refused_shortly(lambda t: parse_card(t, deck), text, CardParseError)
    refused_shortly(lambda t: parse_deck(t, deck), text, CardParseError, short=600)  # (names the missing cards)


@FAST
@given(outside("PBSFRDpbsfrd"))
def test_the_duels_codes_and_moves_from_any_text(text):
    refused_shortly(DuelAction.parse, text, ValueError)
    refused_shortly(DuelCard.parse, text, ValueError)
    refused_shortly(parse_duel_card, text, ValueError)
    refused_shortly(parse_command, text, ValueError)
    refused_shortly(parse_command, "p " + text + " 1", ValueError)
    refused_shortly(parse_command, "b 1 " + text, ValueError)


@settings(max_examples=5, deadline=None)
@given(huge_digits)
def test_huge_numbers_are_refused_not_read(text):
    for parse, errors in ((Action.parse, ActionParseError), (seed_from_text, SeedError),
                          (DuelCard.parse, ValueError), (parse_command, ValueError)):
        for shaped in ("T" + text, "H" + text, "p " + text + " 1", text):
            refused_shortly(parse, shaped, errors)
