"""One card notation in every text a player reads: the bot, the terminal game, the duel (both its Discord text and
its terminal), the review. Suit first, black suits outlined (♤ ♧: Discord's black ♠ ♣ emoji vanish on its dark
theme), red suits as their red emoji (♥️ ♦️): the same characters on dark and light themes."""

from __future__ import annotations

import io
import re

import pytest

from cogs.text.card_text import card_text
from games.duel.cards import Card as DuelCard
from games.duel.game import new_duel
from games.duel.text import board_lines, hand_text
from games.engine import new_game, preset
from games.engine.cards import Card as GameCard
from games.engine.cards import readable
from terminal.duel import run as run_duel
from terminal.play import run as run_game

PLAIN_BLACK = re.compile("[♠♣]")
RANK_FIRST = re.compile(r"(?:10|[2-9AJQK])[♠♣♥♦♤♧]")
RED_WITHOUT_EMOJI = re.compile("[♥♦](?!\ufe0f)")
EXPECTED = {("H", 11): "♥️J", ("D", 10): "♦️10", ("S", 4): "♤4", ("C", 12): "♧Q"}


def reads_well(text: str) -> None:
    assert not PLAIN_BLACK.search(text), text
    assert not RANK_FIRST.search(text), text
    assert not RED_WITHOUT_EMOJI.search(text), text


@pytest.mark.parametrize("suit, value", sorted(EXPECTED))
def test_a_card_reads_the_same_in_the_game_and_in_the_duel(suit, value):
    game = GameCard(suit, value, "monster")
    duel = DuelCard(value, suit)
    assert card_text(game) == readable(game.label) == readable(duel.label) == EXPECTED[(suit, value)]
    assert readable(readable(duel.label)) == readable(duel.label)  # written once, however often it passes


def test_the_terminal_game_writes_cards_as_the_bot_does():
    out = io.StringIO()
    run_game(7, "classic", io.StringIO("1\nq\n"), out)  # room 1 of #7: ♤6 ♤8 ♥️10 ♦️8
    text = out.getvalue()
    reads_well(text)
    room = new_game(preset("classic"), seed=7).room
    assert all(card_text(card) in text for card in room)
    assert "Fought ♤6 barehanded" in text


def test_the_duel_writes_cards_suit_first_in_the_terminal_and_on_discord():
    state = new_duel(5)
    for line in [*board_lines(state), hand_text(state.hands[0])]:
        reads_well(readable(line))  # the Discord board and hand pass their text through readable
    out = io.StringIO()
    run_duel(5, io.StringIO("q\n"), out)
    text = out.getvalue()
    reads_well(text)
    assert readable(hand_text(state.hands[0])) in text
