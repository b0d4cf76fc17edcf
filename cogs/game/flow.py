"""Starting, posting, resuming and abandoning games: shared by the slash commands and the buttons.

Everything here answers the person who made the interaction, in their language (``for_reader``); a game posted
here is theirs, so it is written in their language too.
"""

from __future__ import annotations

import contextlib
import logging
import re

import discord

from app.errors import GameOver, NotYourGame
from app.play import solo
from cogs.game_message.embed import game_url, other_players_game
from cogs.game_message.private import refresh_game_message
from cogs.game_message.view import game_message
from cogs.plumbing.bounds import ID
from cogs.plumbing.errors import GameIdButton, report_error, send_private
from cogs.plumbing.interaction import Interaction
from cogs.plumbing.respond import send_message
from cogs.text.command_text import slash
from cogs.text.locale import for_reader
from games.engine import Rules, preset
from games.i18n import ENGLISH, N_, Messages

log = logging.getLogger(__name__)

NORMAL = "normal"


async def start_game(interaction: Interaction, rules: Rules, seed: int | None) -> None:
    """Create a game for the user and post it publicly, or offer the one already in progress
    (``app.play.solo.start_game`` decides which)."""
    await show_start(interaction, await solo.start_game(
        interaction.client.store, interaction.user.id, rules, seed, guild_id=interaction.guild_id,
        channel_id=interaction.channel_id))


async def show_start(interaction: Interaction, start: solo.Start) -> None:
    if start.to_show:  # new, or made for an earlier /scoundrel play whose answer failed (a slow database, say)
        await post_game(interaction, start.record)
    else:
        await offer_active_game(interaction, start.record)


class NewGameButton(GameIdButton, discord.ui.DynamicItem[discord.ui.Button]):
    """Starts a new game for whoever clicks, with the finished game's rules."""

    PREFIX, LABEL, EMOJI, STYLE = "new", N_("New game"), "🎴", discord.ButtonStyle.success

    async def run(self, interaction: Interaction) -> None:
        start = await solo.start_again(interaction.client.store, self.game_id, interaction.user.id,
                                        preset(interaction.client.config.default_preset),
                                        guild_id=interaction.guild_id, channel_id=interaction.channel_id)
        await show_start(interaction, start)


def new_game_extras(record, tr: Messages = ENGLISH) -> list[discord.ui.Item]:
    """New game, first under a finished or abandoned game (cogs/offers.py)."""
    return [NewGameButton(record.id, tr)]


async def post_game(interaction: Interaction, record, *, ephemeral: bool = False) -> discord.Message:
    """Send the game as a new message, in the language of its player (who made ``interaction``), and remember it
    as the game's current message."""
    shown = await game_message(record, bot=interaction.client, tr=for_reader(interaction))
    message: discord.Message
    if interaction.response.is_done():
        message = await interaction.followup.send(**shown.send(), ephemeral=ephemeral, wait=True)
    else:
        message = await send_message(interaction, **shown.send(), ephemeral=ephemeral)
    await solo.posted(interaction.client.store, record.id, message.channel.id, message.id)
    return message


def progress(record, tr: Messages = ENGLISH) -> str:
    """Where a game stands, in a few words; a damaged game says so instead of failing."""
    if record.damaged:
        return tr("its saved data is damaged")
    return tr("room {turn}, health {health}", turn=record.state.turn, health=record.state.health)


async def offer_active_game(interaction: Interaction, record) -> None:
    tr = for_reader(interaction)
    url = game_url(record)
    if url:
        text = tr("You already have a game in progress ({progress}): [jump to it]({url}). Resume it here, or abandon "
                  "it to start another.", progress=progress(record, tr), url=url)
    else:
        text = tr("You already have a game in progress ({progress}). Resume it here, or abandon it to start "
                  "another.", progress=progress(record, tr))
    view = discord.ui.View(timeout=None)
    view.add_item(ResumeButton(record.id, tr))
    view.add_item(AbandonButton(record.id, "ask", tr))
    await send_private(interaction, text, view=view)


async def resume_game(interaction: Interaction, record) -> None:
    """Post the game again here; the old message loses its buttons so only one copy is live."""
    old_channel, old_message = record.channel_id, record.message_id
    await post_game(interaction, record)
    if old_message is not None and old_channel is not None:
        tr = for_reader(interaction)
        await _retire_message(interaction.client, old_channel, old_message,
                              tr("This game continues in a newer message."))


async def _retire_message(client: discord.Client, channel_id: int, message_id: int, note: str) -> None:
    # Best effort: the old message may be gone, ephemeral or in a channel the bot can no longer see.
    with contextlib.suppress(discord.HTTPException):
        await client.get_partial_messageable(channel_id).get_partial_message(message_id).edit(content=note, view=None)


class ResumeButton(GameIdButton, discord.ui.DynamicItem[discord.ui.Button]):
    PREFIX, LABEL, EMOJI, STYLE = "resume", N_("Resume"), "▶️", discord.ButtonStyle.primary

    async def run(self, interaction: Interaction) -> None:
        tr = for_reader(interaction)
        try:
            record = await solo.resumable_game(interaction.client.store, self.game_id, interaction.user.id)
        except NotYourGame as theirs:
            await send_private(interaction, other_players_game(theirs.owner_id, tr))
        except GameOver:
            await interaction.response.edit_message(content=tr("That game is over; `{play}` starts a new one.",
                                                               play=slash(tr, "play")), view=None)
        else:
            await resume_game(interaction, record)


class AbandonButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=rf"sc:abandon:(?P<game>{ID}):(?P<step>ask|yes|no)"):
    """``ask`` shows the confirmation; ``yes`` abandons; ``no`` keeps the game."""

    LOOKS = {"ask": (N_("Abandon"), "🏳️", discord.ButtonStyle.danger),
             "yes": (N_("Abandon game"), "🏳️", discord.ButtonStyle.danger),
             "no": (N_("Keep playing"), "▶️", discord.ButtonStyle.secondary)}

    def __init__(self, game_id: int, step: str, tr: Messages = ENGLISH) -> None:
        label, emoji, style = self.LOOKS[step]
        super().__init__(discord.ui.Button(label=tr(label), emoji=emoji, style=style,
                                           custom_id=f"sc:abandon:{game_id}:{step}"))
        self.game_id, self.step = game_id, step

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["game"]), match["step"])

    async def callback(self, interaction: Interaction) -> None:
        try:
            await self._run(interaction)
        except Exception as error:
            await report_error(interaction, error, where=f"abandon button {self.custom_id}")

    async def _run(self, interaction: Interaction) -> None:
        store = interaction.client.store
        tr = for_reader(interaction)
        try:
            if self.step == "yes":
                ended = await solo.abandon(store, self.game_id, interaction.user.id)
            else:  # a damaged game must still be abandonable: asked about without its state
                record = await solo.game_to_give_up(store, self.game_id, interaction.user.id)
        except NotYourGame as theirs:
            await send_private(interaction, other_players_game(theirs.owner_id, tr))
        except GameOver:
            await interaction.response.edit_message(content=tr("That game is already over."), view=None)
        else:
            if self.step == "ask":
                await interaction.response.edit_message(content=confirm_text(record, tr),
                                                        view=confirm_view(record.id, tr))
            elif self.step == "no":
                await interaction.response.edit_message(content=tr("Your game goes on."), view=None)
            else:
                await interaction.response.edit_message(
                    content=tr("Game abandoned. Start a new one with `{play}`.", play=slash(tr, "play")), view=None)
                await refresh_game_message(interaction.client, ended, tr)


def confirm_text(record, tr: Messages = ENGLISH) -> str:
    return tr("Abandon your game ({progress})? It ends now and counts as given up.", progress=progress(record, tr))


def confirm_view(game_id: int, tr: Messages = ENGLISH) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AbandonButton(game_id, "yes", tr))
    view.add_item(AbandonButton(game_id, "no", tr))
    return view


DYNAMIC_ITEMS = (NewGameButton, ResumeButton, AbandonButton)
