"""Right-click on a member (Apps): "Scoundrel stats" and "Challenge to a duel" (user context menus).

They do what ``/scoundrel stats user:`` and ``/scoundrel duel opponent:`` do, with the same messages; a challenge
counts against the same cooldown whichever way it is made (``cogs.plumbing.bounds.CHALLENGES``).
"""

from __future__ import annotations

import discord
from discord import app_commands

from app.daily.days import day_of
from cogs.boards.leaderboard import stats_embed
from cogs.duel.commands import challenge
from cogs.plumbing import clock
from cogs.plumbing.bounds import CHALLENGES
from cogs.plumbing.interaction import Interaction
from cogs.text.locale import for_reader


@app_commands.context_menu(name="Scoundrel stats")
async def member_stats(interaction: Interaction, member: discord.User) -> None:
    embed = await stats_embed(interaction.client.store, member, day_of(clock.now()), for_reader(interaction))
    await interaction.response.send_message(embed=embed, ephemeral=True)


@app_commands.context_menu(name="Challenge to a duel")
@CHALLENGES
async def member_duel(interaction: Interaction, member: discord.User) -> None:
    await challenge(interaction, member, seed=None)


MENUS = (member_stats, member_duel)


async def setup(bot) -> None:
    for menu in MENUS:
        bot.tree.add_command(menu, override=True)


async def teardown(bot) -> None:
    for menu in MENUS:
        bot.tree.remove_command(menu.name, type=menu.type)
