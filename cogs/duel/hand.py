"""A duel player's private hand, in words: the hand, whose turn it is, what the controls below it do.

Only its own player sees it (``app.play.duels.hand`` decides whose); its buttons are ``cogs.duel.view``'s.
"""

from __future__ import annotations

import discord

from cogs.duel.board import GOAL, status_line
from cogs.text.card_text import readable
from games.duel import ANY_CARD_DIE, PLACING, DuelAction, hand_text, legal_actions
from games.i18n import ENGLISH, Messages
from games.picture import DUEL_FILENAME


def card_plays(state) -> list[DuelAction]:
    """The cards the player to act may play (builds and steals), as the hand lists them."""
    return [a for a in legal_actions(state) if a.kind in ("B", "S")]


def to_act(record, seat: int) -> bool:
    """The hand has controls: its duel is being played and it is ``seat``'s turn."""
    return record.open and not record.state.over and record.state.actor == seat


def hand_embed(record, seat: int, tr: Messages = ENGLISH) -> discord.Embed:
    """Seat ``seat``'s hand, whose turn it is and, on the player's turn, what to do."""
    state = record.state
    yours = to_act(record, seat)
    line = (tr("Your turn: place the dice.") if state.phase == PLACING else tr("Your turn to play cards.")) if yours \
        else status_line(record, tr)
    embed = discord.Embed(title=tr("Your hand · duel #{number}", number=record.id), colour=discord.Colour.dark_teal(),
                          description=tr("**{hand}** · you are player {seat}",
                                         hand=readable(hand_text(state.hands[seat], tr)), seat=seat + 1)
                          + f"\n{line}")
    embed.set_image(url=f"attachment://{DUEL_FILENAME}")  # the board, as on the public message
    if not record.open or state.over:
        return embed
    if state.actor != seat:
        embed.set_footer(text=tr("Not your turn yet: press My hand again when it is."))
    elif state.phase == PLACING:
        value = state.dice[state.placed.index(-1)]
        embed.set_footer(text=tr("Place the {value} (dice left: {left}). {goal}", value=value,
                                 left=sum(p == -1 for p in state.placed), goal=tr(GOAL)))
    else:
        embed.set_footer(text=(tr("No card fits anywhere: press Done.") if not card_plays(state) else
                               tr("Pick a card and where it goes; Finish a column of 4+ when you like; Done ends "
                                  "your play.")) + " " + tr(GOAL))
    return embed


def play_label(state, action: DuelAction, tr: Messages) -> str:
    mine = state.columns[state.actor][action.pair]
    theirs = state.columns[1 - state.actor][action.pair]
    assert action.card is not None  # a build or a steal plays a card
    if action.kind == "B":
        die = state.die_on(action.pair)
        left = (1 if die == ANY_CARD_DIE else die) - state.usage[action.pair]
        if mine.top:
            text = tr("{card} on your pair {pair} (on {top}; 🎲{die}: {left} more allowed)", card=action.card.label,
                      pair=action.pair + 1, top=mine.top.label, die=die, left=left)
        else:
            text = tr("{card} on your pair {pair} (empty column; 🎲{die}: {left} more allowed)",
                      card=action.card.label, pair=action.pair + 1, die=die, left=left)
        return readable(text)
    return readable(tr.plural("{card}: steal pair {pair} ({n} card)", "{card}: steal pair {pair} ({n} cards)",
                              len(theirs.cards), card=action.card.label, pair=action.pair + 1))
