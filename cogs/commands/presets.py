"""The presets as the commands offer them: ``/scoundrel play preset:`` and ``/scoundrel-admin preset`` list the
same choices, and a game started with none gets the server's preset (``default_preset``)."""

from __future__ import annotations

from discord import app_commands

from app.servers import settings as server_settings
from cogs.plumbing.interaction import Interaction
from games.engine import PRESETS

# What a player sees when picking a preset: its name and what it changes, in a few words (a choice's label).
PRESET_LABELS = {
    "classic": "the rules as printed",
    "lenient": "weapons may hit a monster equal to their last kill",
    "full-deck": "all 52 cards, aces low",
    "early-win": "won when a room can no longer be filled",
    "rules-sheet": "the 2011 rules sheet read literally",
    "shuffled-avoid": "avoided rooms are shuffled back",
    "expansion": "merchants, jokers, necromancers, looping",
}


def preset_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=f"{name} — {PRESET_LABELS[name]}", value=name) for name in PRESETS]


async def default_preset(interaction: Interaction) -> str:
    """The preset a game started here gets when the player names none."""
    chosen = await server_settings.preset_here(interaction.client.store, interaction.guild_id)
    return chosen if chosen is not None else interaction.client.config.default_preset
