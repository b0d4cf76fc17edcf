"""Right-click on a member (Apps): "Scoundrel stats" and "Challenge to a duel" (user context menus).

They do what ``/scoundrel stats user:`` and ``/scoundrel duel opponent:`` do, with the same messages; a challenge
counts against the same cooldown whichever way it is made (``cogs.bounds.CHALLENGES``).
"""

from __future__ import annotations

import discord
from discord import app_commands

from cogs import clock
from cogs.bounds import CHALLENGES
from cogs.duel import challenge
from cogs.interaction import Interaction
from cogs.leaderboard import stats_embed
from cogs.locale import for_reader
from scoundrel.daily import day_of


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
