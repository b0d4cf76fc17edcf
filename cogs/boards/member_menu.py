"""Right-click on a member (Apps): "Scoundrel stats" (a user context menu), what ``/scoundrel stats user:`` does,
with the same message. ("Challenge to a duel", beside it, is the duel's: cogs/duel/member_menu.py.)
"""

from __future__ import annotations

import discord
from discord import app_commands

from app.daily.days import day_of
from cogs.boards.leaderboard import stats_embed
from cogs.plumbing import clock
from cogs.plumbing.interaction import Interaction
from cogs.text.locale import for_reader


@app_commands.context_menu(name="Scoundrel stats")
async def member_stats(interaction: Interaction, member: discord.User) -> None:
    embed = await stats_embed(interaction.client.store, member, day_of(clock.now()), for_reader(interaction))
    await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot) -> None:
    bot.tree.add_command(member_stats, override=True)


async def teardown(bot) -> None:
    bot.tree.remove_command(member_stats.name, type=member_stats.type)
