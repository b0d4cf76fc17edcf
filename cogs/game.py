"""``/scoundrel play|resume|abandon|rules|help``: the commands of the game itself (an extension)."""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.engine import PRESETS, SeedError, seed_from_text
from bot.engine import preset as preset_rules
from cogs.card_text import readable
from cogs.errors import report_error, send_private
from cogs.game_flow import DYNAMIC_ITEMS as FLOW_ITEMS
from cogs.game_flow import NORMAL, confirm_text, confirm_view, resume_game, start_game
from cogs.game_view import DYNAMIC_ITEMS as VIEW_ITEMS
from cogs.group import add_subcommands, remove_subcommands, scoundrel
from cogs.rules_text import PAGES
from cogs.server_settings import default_preset

NO_GAME = "You have no game in progress — start one with `/scoundrel play`."


@app_commands.command(name="play", description="Start a game of Scoundrel (or pick up the one in progress)")
@app_commands.describe(preset="Which rules to play (default: this server's preset, else classic)",
                       seed="Replay a deal: the 8-character seed shown under a game, like K7Q2-M9XD",
                       health="Starting and maximum health (default 20)")
@app_commands.choices(preset=[app_commands.Choice(name=name, value=name) for name in PRESETS])
async def play(interaction: discord.Interaction, preset: str | None = None, seed: str | None = None,
               health: app_commands.Range[int, 1, 99] | None = None) -> None:
    rules = preset_rules(preset or await default_preset(interaction))
    if health is not None:
        rules = rules.with_health(health)
    try:
        seed_value = seed_from_text(seed) if seed is not None else None
    except SeedError as bad:  # bad input is not a failure: say what a seed looks like, start nothing
        await send_private(interaction, f"{bad}. Leave `seed` out for a new deal.")
        return
    await start_game(interaction, rules, seed_value)


@app_commands.command(name="resume", description="Post your game in progress here again")
async def resume(interaction: discord.Interaction) -> None:
    record = await interaction.client.store.active_game(interaction.user.id, NORMAL)
    if record is None:
        await send_private(interaction, NO_GAME)
        return
    await resume_game(interaction, record)


@app_commands.command(name="abandon", description="Give up your game in progress (asks first)")
async def abandon(interaction: discord.Interaction) -> None:
    record = await interaction.client.store.active_game(interaction.user.id, NORMAL)
    if record is None:
        await send_private(interaction, NO_GAME)
        return
    await send_private(interaction, confirm_text(record), view=confirm_view(record.id))


@app_commands.command(name="rules", description="How to play Scoundrel, the rule options and the expansion")
async def rules(interaction: discord.Interaction) -> None:
    embed, view = rules_page(0)
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


@app_commands.command(name="help", description="What the Scoundrel commands do")
async def help_command(interaction: discord.Interaction) -> None:
    embed = discord.Embed(title="Scoundrel — commands", colour=discord.Colour.blurple(),
                          description="A solo dungeon crawl with a deck of cards: survive the dungeon with "
                                      "as much health as you can. `/scoundrel rules` explains the game.")
    for command in sorted(scoundrel.commands, key=lambda c: c.name):
        embed.add_field(name=f"/scoundrel {command.name}", value=command.description, inline=False)
    await interaction.response.send_message(embed=embed, ephemeral=True)


def rules_page(page: int) -> tuple[discord.Embed, discord.ui.View]:
    page = max(0, min(page, len(PAGES) - 1))
    title, text = PAGES[page]
    embed = discord.Embed(title=title, description=readable(text), colour=discord.Colour.dark_teal())
    embed.set_footer(text=f"Page {page + 1} of {len(PAGES)}")
    view = discord.ui.View(timeout=None)
    view.add_item(RulesPageButton(page - 1, "◀ Previous", disabled=page == 0))
    view.add_item(RulesPageButton(page + 1, "Next ▶", disabled=page == len(PAGES) - 1))
    return embed, view


class RulesPageButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sc:rules:(?P<page>-?[0-9]+)"):
    def __init__(self, page: int, label: str = "", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label or "Page", style=discord.ButtonStyle.secondary,
                                           disabled=disabled, custom_id=f"sc:rules:{page}"))
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            embed, view = rules_page(self.page)
            await interaction.response.edit_message(embed=embed, view=view)
        except Exception as error:
            await report_error(interaction, error, where=f"rules page {self.page}")


COMMANDS = (play, resume, abandon, rules, help_command)
DYNAMIC_ITEMS = VIEW_ITEMS + FLOW_ITEMS + (RulesPageButton,)


async def setup(bot) -> None:
    add_subcommands(*COMMANDS)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)


async def teardown(bot) -> None:
    remove_subcommands(*COMMANDS)
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
