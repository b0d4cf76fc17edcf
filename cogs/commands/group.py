"""The one ``/scoundrel`` command group that every cog adds its subcommands to.

How it works (the contract for every cog module):

- A cog module is an *extension*: it has ``async def setup(bot)`` (and usually ``async def teardown(bot)``), and
  it is listed in ``cogs.EXTENSIONS`` (cogs/__init__.py), which the bot loads in order; helper modules (this one,
  ``cogs.plumbing.errors``, ``cogs.game_message.view``, ``cogs.game.rules_text``) have none and are only imported.
- Subcommands are plain module-level ``@app_commands.command`` functions (not Cog methods), so they can live in
  this shared group. They reach the bot through ``interaction.client`` (``interaction.client.store`` is the
  ``storage.Store``).
- ``setup(bot)`` calls ``add_subcommands(cmd, ...)``; ``teardown(bot)`` calls ``remove_subcommands(cmd, ...)``.
  Adding replaces a command of the same name, so a second bot instance in the same process (a restart in
  tests) loads cleanly.
- After every extension is loaded, ``ScoundrelBot.setup_hook`` adds ``scoundrel`` to the command tree once and
  syncs. Subcommands added later (``bot.reload_extension``) show up after the next sync.

Example (``cogs/daily/commands.py``)::

    from cogs.commands.group import add_subcommands, remove_subcommands

    @app_commands.command(name="daily", description="Play today's daily deal")
    async def daily(interaction: Interaction) -> None:
        store = interaction.client.store
        ...

    async def setup(bot):
        add_subcommands(daily)

    async def teardown(bot):
        remove_subcommands(daily)
"""

from __future__ import annotations

from discord import app_commands

# Installable on a server and on a user's account: in servers (with or without the bot), in the bot's DMs and
# in group DMs. Where the bot is not a member it can only answer interactions: see ``bot_can_post``.
scoundrel = app_commands.Group(
    name="scoundrel", description="Play Scoundrel, the solo dungeon-crawler card game",
    allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
    allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True))


def bot_can_post(interaction) -> bool:
    """Whether the bot can post and edit in this channel on its own, outside an interaction's answer: in a server
    it is a member of (installed there), or in its own DMs; not in a group DM or a server only the user installed
    the app in, where every message must be an interaction's answer."""
    if interaction.guild_id is not None:
        return interaction.guild is not None  # cached only where the bot is a member
    return interaction.context.dm_channel


def add_subcommands(*commands: app_commands.Command | app_commands.Group) -> None:
    for command in commands:
        scoundrel.add_command(command, override=True)


def remove_subcommands(*commands: app_commands.Command | app_commands.Group) -> None:
    for command in commands:
        # Only remove our own object: a newer instance of the same command may have replaced it.
        if scoundrel.get_command(command.name) is command:
            scoundrel.remove_command(command.name)
