"""Right-click on a member (Apps): "Challenge to a duel" (a user context menu), what ``/scoundrel duel opponent:``
does, with the same messages; a challenge counts against the same cooldown whichever way it is made
(``cogs.plumbing.bounds.CHALLENGES``).
"""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.duel.commands import challenge
from cogs.plumbing.bounds import CHALLENGES
from cogs.plumbing.interaction import Interaction


@app_commands.context_menu(name="Challenge to a duel")
@CHALLENGES
async def member_duel(interaction: Interaction, member: discord.User) -> None:
    await challenge(interaction, member, seed=None)


async def setup(bot) -> None:
    bot.tree.add_command(member_duel, override=True)


async def teardown(bot) -> None:
    bot.tree.remove_command(member_duel.name, type=member_duel.type)
