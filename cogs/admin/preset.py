"""``/scoundrel-admin preset``: the rules ``/scoundrel play`` deals in this server when no preset is chosen.

A server that never chose one follows the bot's ``default_preset`` (config.toml). The daily challenge is not
affected: it is classic everywhere, so every server's board compares the same deal.
"""

from __future__ import annotations

from discord import app_commands

from app.servers import settings as server_settings
from cogs.commands.admin_group import add_admin_subcommands, install, remove_admin_subcommands, require_manager
from cogs.commands.presets import preset_choices
from cogs.plumbing.interaction import Interaction
from cogs.text.locale import for_reader
from games.engine import PRESET_BLURBS

BOT_DEFAULT = "bot-default"

@app_commands.command(name="preset", description="The rules /scoundrel play uses here when no preset is chosen")
@app_commands.describe(preset="A preset, or bot-default to follow the bot's configuration")
@app_commands.choices(preset=preset_choices() + [app_commands.Choice(name="bot default", value=BOT_DEFAULT)])
async def admin_preset(interaction: Interaction, preset: str) -> None:
    if not await require_manager(interaction):
        return
    assert interaction.guild_id is not None  # require_manager: only in a server
    tr = for_reader(interaction)
    chosen = None if preset == BOT_DEFAULT else preset
    await server_settings.choose_preset(interaction.client.store, interaction.guild_id, chosen)
    if chosen is None:
        text = tr("New games here now use the bot's default rules (**{preset}**) unless a player picks a preset.",
                  preset=interaction.client.config.default_preset)
    else:
        # The preset's blurb is the rules' own text, translated where the rules list shows it.
        text = tr("New games here now use **{preset}** unless a player picks a preset: {blurb} Games already "
                  "started keep their rules; the daily challenge stays classic.",
                  preset=chosen, blurb=tr(PRESET_BLURBS[chosen]))
    await interaction.response.send_message(text, ephemeral=True)


async def setup(bot) -> None:
    add_admin_subcommands(admin_preset)
    install(bot)


async def teardown(bot) -> None:
    remove_admin_subcommands(admin_preset)
