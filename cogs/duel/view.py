"""Duel messages' controls: the board's and the hand's persistent buttons, and what a click does.

Every control is a ``DynamicItem`` whose custom_id holds what the click needs, so it works after a restart::

    sc:duelc:<duel id>:<acc|dec>               challenge: accept / decline (or withdraw)
    sc:duel:<duel id>:<version>:<what>         hand (show my hand), resign (ask), or an action code (P02, F1, D, R0)
    sc:duelp:<duel id>:<version>:<n>           select menu n of card plays; each option's value is an action code
    sc:dreplay:<duel id>                       a finished duel's Replay (cogs/duel/replay.py, offered by cogs/offers.py)

What a click may do is ``app.play.duels``'s to decide (who may see which hand, a move on an older hand, a
resignation); ``store.duels.play_duel`` lets exactly one of two racing clicks through. The words and pictures are
``cogs.duel.board`` (the public board) and ``cogs.duel.hand`` (the private hand).

Languages: a duel is read by two players. A private answer (the hand, a refusal, the rules) is in its reader's
language. The public board is shared: it is written in the language of the person whose click or command
produced it (the challenger's for the challenge, the mover's after a move), and the picture on it too.
"""

from __future__ import annotations

import logging
import re

import discord

from app.play import duels
from app.play.duels import CHALLENGED, DuelError, DuelRefused, StaleHand
from cogs.duel.board import (
    board_content,
    board_embed,
    board_files,
    outsider_text,
    player_name,
    refused_text,
)
from cogs.duel.hand import card_plays, hand_embed, play_label, to_act
from cogs.plumbing.bounds import ID, VERSION
from cogs.plumbing.errors import report_error, send_private
from cogs.plumbing.interaction import Bot, Interaction, offered
from cogs.plumbing.respond import edit_message, in_time
from cogs.text.locale import for_reader
from games.duel import PAIRS, PLACING, DuelAction, IllegalDuelAction, legal_actions, refusal, rules_text
from games.i18n import ENGLISH, N_, Messages

log = logging.getLogger(__name__)

SELECT_LIMIT = 25  # options per Discord select menu


def render_board(record, tr: Messages = ENGLISH, bot: Bot | None = None) -> tuple[discord.Embed, discord.ui.View]:
    """The board's embed and buttons; with ``bot``, a finished duel's offers (``bot.offers``, cogs/offers.py)."""
    view = discord.ui.View(timeout=None)
    if record.status == CHALLENGED:
        view.add_item(ChallengeButton(record.id, "acc", tr))
        view.add_item(ChallengeButton(record.id, "dec", tr))
    elif record.open:
        view.add_item(DuelButton(record.id, record.version, "hand", label=tr("My hand"), emoji="🂠",
                                 style=discord.ButtonStyle.primary))
        view.add_item(DuelButton(record.id, record.version, "resign", label=tr("Resign"), emoji="🏳️"))
    if record.open:
        view.add_item(DuelRulesButton(tr))
    elif duels.finished(record):
        for item in offered(bot, bot.offers.duel_over if bot else (), record, tr):
            view.add_item(item)
    return board_embed(record, tr), view


def render_hand(record, seat: int, tr: Messages = ENGLISH) -> tuple[discord.Embed, discord.ui.View]:
    """Seat ``seat``'s private hand and, on its turn, its controls."""
    embed, view = hand_embed(record, seat, tr), discord.ui.View(timeout=None)
    if not to_act(record, seat):
        return embed, view
    state = record.state
    make = lambda code, **kw: DuelButton(record.id, record.version, code, **kw)  # noqa: E731
    if state.phase == PLACING:
        die = state.placed.index(-1)
        value = state.dice[die]
        for pair in range(PAIRS):
            code = f"P{die}{pair}"
            view.add_item(make(code, label=tr("🎲{value} → pair {pair}", value=value, pair=pair + 1),
                               style=discord.ButtonStyle.primary,
                               disabled=refusal(state, DuelAction.parse(code)) is not None, row=0))
        return embed, view
    plays = card_plays(state)
    for n in range(0, min(len(plays), 3 * SELECT_LIMIT), SELECT_LIMIT):
        chunk = plays[n:n + SELECT_LIMIT]
        options = [discord.SelectOption(label=play_label(state, a, tr), value=a.code) for a in chunk]
        view.add_item(DuelPlaySelect(record.id, record.version, n // SELECT_LIMIT, options=options,
                                     placeholder=tr("Play a card…") if n == 0 else tr("More plays…")))
    for action in legal_actions(state):
        if action.kind == "F":
            view.add_item(make(action.code, label=tr("Finish pair {pair}", pair=action.pair + 1), emoji="✅",
                               style=discord.ButtonStyle.success, row=3))
    view.add_item(make("D", label=tr("Done"), emoji="⏭️", style=discord.ButtonStyle.danger, row=3))
    return embed, view


# --- clicks -----------------------------------------------------------------------------------------------
async def refresh_board(client: Bot, record, tr: Messages = ENGLISH) -> None:
    """Edit the public board message to match ``record`` (it may have been deleted: then just log), in the
    language of whoever moved (``tr``)."""
    if record.channel_id is None or record.message_id is None:
        return
    embed, view = render_board(record, tr, client)
    files = await board_files(record, tr)
    try:
        channel = client.get_channel(record.channel_id) or await client.fetch_channel(record.channel_id)
        message = channel.get_partial_message(record.message_id)  # type: ignore[union-attr]
        await message.edit(content=board_content(record, tr), embed=embed, view=view, attachments=files)
    except discord.HTTPException:
        log.warning("could not update the board of duel %s", record.id, exc_info=True)


STALE = N_("The duel had moved on, so that did nothing: here is your hand as it is now.")
OVER = N_("This duel is over.")


async def refuse(interaction: Interaction, refused: DuelRefused) -> None:
    """Say privately why ``app.play.duels`` refused a click on a hand or a board."""
    tr = for_reader(interaction)
    if refused.code == duels.OUTSIDER:
        await send_private(interaction, outsider_text(refused.record, tr))
    elif refused.code == duels.OVER:
        await send_private(interaction, tr(OVER))
    else:
        await send_private(interaction, refused_text(refused, tr))


async def handle_action(interaction: Interaction, duel_id: int, version: int, code: str) -> None:
    """A move from a player's hand, answered with the hand redrawn (one request) unless the work is slow.
    A move made on an older hand than the duel's (a double press, or the other device) redraws the hand."""
    store, tr = interaction.client.store, for_reader(interaction)
    try:
        record, seat, resigned = await in_time(interaction, duels.move(store, duel_id, interaction.user.id, version,
                                                                       code))
    except StaleHand as stale:  # nothing was played: show the hand as it is now
        embed, view = render_hand(stale.record, stale.seat, tr)
        await edit_message(interaction, content=tr(STALE), embed=embed, view=view,
                           attachments=await board_files(stale.record, tr))
        return
    except DuelRefused as refused:
        await refuse(interaction, refused)
        return
    except (DuelError, IllegalDuelAction) as refused:
        await send_private(interaction, refused_text(refused, tr))
        return
    if resigned:
        await edit_message(interaction, content=tr("You resigned."), embed=None, view=None, attachments=[])
    else:
        embed, view = render_hand(record, seat, tr)
        await edit_message(interaction, content=None, embed=embed, view=view,
                           attachments=await board_files(record, tr))
    await refresh_board(interaction.client, record, tr)


class DuelButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"sc:duel:(?P<duel>{ID}):(?P<version>{VERSION}):(?P<what>hand|resign|R|D|P[0-9]{{2}}|F[0-9])"):
    def __init__(self, duel_id: int, version: int, what: str, *, label: str = "", emoji: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or None, emoji=emoji, style=style, disabled=disabled, row=row,
                                           custom_id=f"sc:duel:{duel_id}:{version}:{what}"))
        self.duel_id, self.version, self.what = duel_id, version, what

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["duel"]), int(match["version"]), match["what"])

    async def callback(self, interaction: Interaction) -> None:
        try:
            if self.what == "hand":
                await show_hand(interaction, self.duel_id)
            elif self.what == "resign":
                await ask_resign(interaction, self.duel_id)
            else:
                await handle_action(interaction, self.duel_id, self.version, self.what)
        except DuelError as refused:  # e.g. the duel was deleted: a refusal, not a failure
            await send_private(interaction, refused_text(refused, for_reader(interaction)))
        except Exception as error:  # discord.py only logs DynamicItem errors; the player must hear too
            await report_error(interaction, error, where=f"duel button {self.custom_id}")


class DuelPlaySelect(discord.ui.DynamicItem[discord.ui.Select],
                     template=rf"sc:duelp:(?P<duel>{ID}):(?P<version>{VERSION}):(?P<n>[0-9])"):
    def __init__(self, duel_id: int, version: int, n: int, *, options=(), placeholder: str = "Play a card…") -> None:
        super().__init__(discord.ui.Select(custom_id=f"sc:duelp:{duel_id}:{version}:{n}", options=list(options),
                                           placeholder=placeholder, row=n))
        self.duel_id, self.version = duel_id, version

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Select, match: re.Match[str]):
        return cls(int(match["duel"]), int(match["version"]), int(match["n"]))

    async def callback(self, interaction: Interaction) -> None:
        try:
            try:
                code = duels.card_play(self.item.values[0])
            except DuelRefused:
                tr = for_reader(interaction)
                await send_private(interaction, tr("That choice is not a card play."))
                return
            await handle_action(interaction, self.duel_id, self.version, code)
        except DuelError as refused:  # e.g. the duel was deleted: a refusal, not a failure
            await send_private(interaction, refused_text(refused, for_reader(interaction)))
        except Exception as error:
            await report_error(interaction, error, where=f"duel select {self.custom_id}")


async def show_hand(interaction: Interaction, duel_id: int) -> None:
    tr = for_reader(interaction)
    try:
        record, seat = await duels.hand(interaction.client.store, duel_id, interaction.user.id)
    except DuelRefused as refused:
        await refuse(interaction, refused)
        return
    embed, view = render_hand(record, seat, tr)
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True,
                                            files=await board_files(record, tr))


async def ask_resign(interaction: Interaction, duel_id: int) -> None:
    tr = for_reader(interaction)
    try:
        record, _ = await duels.open_hand(interaction.client.store, duel_id, interaction.user.id)
    except DuelRefused as refused:
        await refuse(interaction, refused)
        return
    view = discord.ui.View(timeout=None)
    view.add_item(DuelButton(record.id, record.version, duels.RESIGN, label=tr("Yes, resign"),
                             style=discord.ButtonStyle.danger))
    await send_private(interaction, tr("Resign this duel? Your opponent wins."), view=view)


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=rf"sc:duelc:(?P<duel>{ID}):(?P<answer>acc|dec)"):
    def __init__(self, duel_id: int, answer: str, tr: Messages = ENGLISH) -> None:
        accept = answer == "acc"
        super().__init__(discord.ui.Button(label=tr("Accept") if accept else tr("Decline"),
                                           emoji="⚔️" if accept else None,
                                           style=discord.ButtonStyle.success if accept else
                                           discord.ButtonStyle.secondary, custom_id=f"sc:duelc:{duel_id}:{answer}"))
        self.duel_id, self.accept = duel_id, accept

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["duel"]), match["answer"])

    async def callback(self, interaction: Interaction) -> None:
        try:
            tr = for_reader(interaction)
            try:
                record = await duels.answer(interaction.client.store, self.duel_id, interaction.user.id, self.accept)
            except DuelRefused as refused:
                await send_private(interaction, tr("This challenge is for {opponent}.",
                                                   opponent=player_name(refused.record, 1))
                                   if refused.code == duels.OUTSIDER else tr("Waiting for your opponent to accept."))
                return
            except DuelError as refused:
                await send_private(interaction, refused_text(refused, tr))
                return
            embed, view = render_board(record, tr, interaction.client)  # in the language of whoever answered
            await interaction.response.edit_message(content=board_content(record, tr), embed=embed, view=view,
                                                    attachments=await board_files(record, tr))
        except DuelError as refused:  # e.g. the duel no longer exists (an older backup restored)
            await send_private(interaction, refused_text(refused, for_reader(interaction)))
        except Exception as error:
            await report_error(interaction, error, where=f"duel challenge {self.custom_id}")


class DuelRulesButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sc:duelrules"):
    """Shows the duel's rules privately to whoever presses it."""

    def __init__(self, tr: Messages = ENGLISH) -> None:
        super().__init__(discord.ui.Button(label=tr("Rules"), emoji="📖", style=discord.ButtonStyle.secondary,
                                           custom_id="sc:duelrules"))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls()

    async def callback(self, interaction: Interaction) -> None:
        try:
            tr = for_reader(interaction)
            embed = discord.Embed(title=tr("Scoundrel duel — rules"), description=rules_text(tr),
                                  colour=discord.Colour.dark_teal())
            await interaction.response.send_message(embed=embed, ephemeral=True)
        except Exception as error:
            await report_error(interaction, error, where="duel rules")


DYNAMIC_ITEMS = (DuelButton, DuelPlaySelect, ChallengeButton, DuelRulesButton)
