"""``/scoundrel-admin``: server settings, for members with Manage Server.

``default_permissions`` hides the group from other members, but a server can override that per command, so
every subcommand also checks at run time with ``require_manager`` (a refusal changes nothing).
Like ``cogs/commands/group.py``: cog modules add their subcommands with ``add_admin_subcommands`` in ``setup(bot)``;
the first one to do so also puts the group in the bot's tree (``install``).
"""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.plumbing.interaction import Interaction
from cogs.text.locale import for_reader
from games.i18n import N_

admin = app_commands.Group(name="scoundrel-admin", description="Scoundrel server settings (Manage Server)",
                           default_permissions=discord.Permissions(manage_guild=True),
                           allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
                           allowed_contexts=app_commands.AppCommandContext(guild=True))

NOT_A_MANAGER = N_("You need the **Manage Server** permission to change Scoundrel's settings here; nothing was "
                   "changed.")


def add_admin_subcommands(*commands: app_commands.Command) -> None:
    for command in commands:
        admin.add_command(command, override=True)


def remove_admin_subcommands(*commands: app_commands.Command) -> None:
    for command in commands:
        if admin.get_command(command.name) is command:
            admin.remove_command(command.name)


def install(bot) -> None:
    bot.tree.add_command(admin, override=True)


async def require_manager(interaction: Interaction) -> bool:
    """True for a member with Manage Server (or Administrator); otherwise answers privately and returns False."""
    permissions = interaction.permissions
    if interaction.guild is not None and (permissions.manage_guild or permissions.administrator):
        return True
    await interaction.response.send_message(for_reader(interaction)(NOT_A_MANAGER), ephemeral=True)
    return False
