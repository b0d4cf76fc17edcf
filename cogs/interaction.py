"""``Interaction``: what the cogs annotate an interaction with. Its client is the Scoundrel bot, so the type checker
knows ``interaction.client.store`` is a ``storage.Store`` and ``.config`` the bot's settings. ``Bot`` names that
client where a cog holds it without an interaction."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

import discord

if TYPE_CHECKING:  # the bot is the process, above the cogs: named for the type checker only, never imported
    from bot.client import ScoundrelBot

    Bot: TypeAlias = ScoundrelBot
    Interaction: TypeAlias = discord.Interaction[ScoundrelBot]
else:
    Bot = discord.Client
    Interaction = discord.Interaction  # what discord.py sees when it reads a command's annotations
