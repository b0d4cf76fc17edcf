"""``/scoundrel forget-me``: a player deletes everything the bot keeps about them (an extension).

Private from start to end: the command answers only the player, with what will go and two buttons; nothing is
deleted until they press **Delete my data**. The deletion itself is ``app.players.forget.forget_player``;
an operator does the same with ``scoundrel-bot forget --user ID``. Buttons::

    sc:forget:yes   delete the data of whoever presses it (the message is private: the player who asked)
    sc:forget:no    keep everything
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from app.players.forget import forget_player
from cogs.commands.group import add_subcommands, remove_subcommands
from cogs.plumbing.errors import report_error, send_private
from cogs.plumbing.interaction import Interaction
from cogs.text.command_text import slash
from cogs.text.locale import for_reader
from games.i18n import ENGLISH, N_, Messages

ASK = N_("This deletes everything I keep about you: every game (the one in progress too), your daily results and "
         "streak, your place on every board, your streak reminder and any duel not finished. A finished duel stays "
         "for the other player, without your name. It cannot be undone.")
DONE = N_("Done: everything I kept about you is deleted. `{play}` starts afresh whenever you like.")
NOTHING = N_("I keep nothing about you, so there was nothing to delete.")
KEPT = N_("Nothing was deleted.")


class ForgetButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sc:forget:(?P<step>yes|no)"):
    LOOKS = {"yes": (N_("Delete my data"), "🗑️", discord.ButtonStyle.danger),
             "no": (N_("Keep my data"), None, discord.ButtonStyle.secondary)}

    def __init__(self, step: str, tr: Messages = ENGLISH) -> None:
        label, emoji, style = self.LOOKS[step]
        super().__init__(discord.ui.Button(label=tr(label), emoji=emoji, style=style, custom_id=f"sc:forget:{step}"))
        self.step = step

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(match["step"])

    async def callback(self, interaction: Interaction) -> None:
        try:
            await self._run(interaction)
        except Exception as error:
            await report_error(interaction, error, where=f"forget button {self.custom_id}")

    async def _run(self, interaction: Interaction) -> None:
        tr = for_reader(interaction)
        if self.step == "no":
            await interaction.response.edit_message(content=tr(KEPT), view=None)
            return
        forgotten = await forget_player(interaction.client.store, interaction.user.id)
        text = tr(DONE, play=slash(tr, "play")) if forgotten.anything else tr(NOTHING)
        await interaction.response.edit_message(content=text, view=None)


def confirm_view(tr: Messages) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton("yes", tr))
    view.add_item(ForgetButton("no", tr))
    return view


@app_commands.command(name="forget-me", description="Delete everything the bot keeps about you (asks first)")
async def forget_me(interaction: Interaction) -> None:
    tr = for_reader(interaction)
    await send_private(interaction, tr(ASK), view=confirm_view(tr))


COMMANDS: tuple[app_commands.Command, ...] = (forget_me,)


async def setup(bot) -> None:
    add_subcommands(*COMMANDS)
    bot.add_dynamic_items(ForgetButton)


async def teardown(bot) -> None:
    remove_subcommands(*COMMANDS)
    bot.remove_dynamic_items(ForgetButton)
