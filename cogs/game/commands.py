"""``/scoundrel play|resume|abandon|rules|help``: the commands of the game itself (an extension)."""

from __future__ import annotations

import logging
import re

import discord
from discord import app_commands

from app.play import solo
from app.records import GameRecord
from cogs.commands.group import add_subcommands, remove_subcommands, scoundrel
from cogs.commands.presets import default_preset, preset_choices
from cogs.game.flow import DYNAMIC_ITEMS as FLOW_ITEMS
from cogs.game.flow import NORMAL, confirm_text, confirm_view, resume_game, start_game
from cogs.game.flow import new_game_extras as new_game_extras  # offered (cogs/offers.py)
from cogs.game.rules_text import pages
from cogs.game_message.embed import how_it_went, rules_label
from cogs.game_message.view import DYNAMIC_ITEMS as VIEW_ITEMS
from cogs.plumbing.bounds import PAGE, PUBLIC_POSTS, SEED_LENGTH
from cogs.plumbing.errors import report_error, seed_option, send_private
from cogs.plumbing.interaction import Interaction
from cogs.text.card_text import readable
from cogs.text.command_text import command_word, slash
from cogs.text.embed_fields import add_lines_field
from cogs.text.locale import for_reader
from games.engine import preset as preset_rules
from games.engine import seed_to_text
from games.i18n import ENGLISH, N_, Messages

log = logging.getLogger(__name__)
NO_GAME = N_("You have no game in progress — start one with `{play}`.")


@app_commands.command(name="play", description="Start a game of Scoundrel (or pick up the one in progress)")
@app_commands.describe(preset="Which rules to play (default: this server's preset, else classic)",
                       seed="Replay a deal: the 8-character seed shown under a game, like K7Q2-M9XD",
                       health="Starting and maximum health (default 20)")
@app_commands.choices(preset=preset_choices())
async def play(interaction: Interaction, preset: str | None = None,
               seed: app_commands.Range[str, 1, SEED_LENGTH] | None = None,
               health: app_commands.Range[int, 1, 99] | None = None) -> None:
    rules = preset_rules(preset or await default_preset(interaction))
    if health is not None:
        rules = rules.with_health(health)
    tr = for_reader(interaction)
    read, seed_value = await seed_option(interaction, seed, tr)
    if not read:
        return
    await start_game(interaction, rules, seed_value)


@play.autocomplete("seed")
async def seed_suggestions(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The seeds of the player's recent games (never a daily's: those games carry no seed while the day runs)."""
    games = await recent_for_suggestions(interaction, "seed")
    tr = for_reader(interaction)
    typed = "".join(ch for ch in current.upper() if ch.isalnum())
    seen: set[str] = set()
    out = []
    for game in games:
        if game.kind != NORMAL or game.seed is None or game.damaged:
            continue
        text = seed_to_text(game.seed)
        if text in seen or not text.replace("-", "").startswith(typed):
            continue
        seen.add(text)
        out.append(app_commands.Choice(name=f"{text} · {rules_label(game.rules, tr)} · {how_it_went(game, tr)}",  # type: ignore[arg-type]
                                       value=text))
    return out[:25]


async def recent_for_suggestions(interaction: Interaction, what: str) -> list[GameRecord]:
    """The player's 50 most recent games, for an autocomplete of ``what``; none if the store cannot say (suggestions
    are a convenience: none rather than an error)."""
    try:
        return await solo.recent_games(interaction.client.store, interaction.user.id, 50)
    except Exception:  # noqa: BLE001
        log.warning("no %s suggestions for user %s", what, interaction.user.id, exc_info=True)
        return []


@app_commands.command(name="resume", description="Post your game in progress here again")
@app_commands.checks.cooldown(**PUBLIC_POSTS)
async def resume(interaction: Interaction) -> None:
    record = await solo.current_game(interaction.client.store, interaction.user.id)
    if record is None:
        tr = for_reader(interaction)
        await send_private(interaction, tr(NO_GAME, play=slash(tr, "play")))
        return
    await resume_game(interaction, record)


@app_commands.command(name="abandon", description="Give up your game in progress (asks first)")
async def abandon(interaction: Interaction) -> None:
    tr = for_reader(interaction)
    record = await solo.current_game(interaction.client.store, interaction.user.id)
    if record is None:
        await send_private(interaction, tr(NO_GAME, play=slash(tr, "play")))
        return
    await send_private(interaction, confirm_text(record, tr), view=confirm_view(record.id, tr))


@app_commands.command(name="rules", description="How to play Scoundrel, the rule options and the expansion")
async def rules(interaction: Interaction) -> None:
    embed, view = rules_page(0, for_reader(interaction))
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


@app_commands.command(name="help", description="What the Scoundrel commands do")
async def help_command(interaction: Interaction) -> None:
    embed, view = help_page(interaction, HELP_START)
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


HELP_START, HELP_ALL = 0, 1
FIRST_COMMANDS = ("play", "daily", "rules")  # what a newcomer needs; the rest is on the second page


def start_embed(interaction: Interaction) -> discord.Embed:
    """The first page of help, within a phone's screen: the game in a sentence and the three commands to begin."""
    tr = for_reader(interaction)
    commands = {command.name: command for command in scoundrel.commands if isinstance(command, app_commands.Command)}
    return discord.Embed(title=tr("Scoundrel — start here"), colour=discord.Colour.blurple(),
                         description=tr(INTRO, rules=slash(tr, "rules")) + "\n\n" + "\n".join(
                             usage(scoundrel, commands[name], tr) for name in FIRST_COMMANDS if name in commands))


def help_page(interaction: Interaction, page: int) -> tuple[discord.Embed, discord.ui.View]:
    tr = for_reader(interaction)
    view = discord.ui.View(timeout=None)
    if page == HELP_START:
        view.add_item(HelpPageButton(HELP_ALL, tr("All commands")))
        return start_embed(interaction), view
    view.add_item(HelpPageButton(HELP_START, tr("◀ Start here")))
    return help_embed(interaction), view


class HelpPageButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sc:help:(?P<page>[01])"):
    def __init__(self, page: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "Help", style=discord.ButtonStyle.secondary,
                                           custom_id=f"sc:help:{page}"))
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["page"]))

    async def callback(self, interaction: Interaction) -> None:
        try:
            embed, view = help_page(interaction, self.page)
            await interaction.response.edit_message(embed=embed, view=view)
        except Exception as error:
            await report_error(interaction, error, where=f"help page {self.page}")


INTRO = N_("A solo dungeon crawl with a deck of cards: survive the dungeon with as much health as you can. "
           "`{rules}` explains the game; options in [brackets] may be left out.")
WHERE = N_("In any server that has the bot, in DMs with it, and — once you add the app to your account — in any "
           "server or group DM. A daily played outside a server counts on the global board; a server's board lists "
           "everyone who played in that server. Duels and the daily post need the bot in the server.")


def usage(group: app_commands.Group, command: app_commands.Command, tr: Messages = ENGLISH) -> str:
    """``/scoundrel play [preset] [seed] [health]`` — what it does: optional options in brackets, every name and
    the description as the reader's Discord shows them."""
    options = " ".join(command_word(tr, p.name, "option") if p.required else f"[{command_word(tr, p.name, 'option')}]"
                       for p in command.parameters)
    name = slash(tr, command.name, group=group.name)
    return f"`{name}{' ' + options if options else ''}` — {command_word(tr, command.description, 'description')}"


def by_name(group: app_commands.Group, tr: Messages) -> list[app_commands.Command]:
    """The group's commands in the alphabetical order of the names the reader sees."""
    return sorted(group.commands, key=lambda command: command_word(tr, command.name))  # type: ignore[arg-type]


def help_embed(interaction: Interaction) -> discord.Embed:
    from cogs.commands.admin_group import admin  # the admin group is listed only to those who may use it

    tr = for_reader(interaction)
    embed = discord.Embed(title=tr("Scoundrel — commands"), colour=discord.Colour.blurple(),
                          description=tr(INTRO, rules=slash(tr, "rules")))
    add_lines_field(embed, tr("Playing"), [usage(scoundrel, command, tr) for command in by_name(scoundrel, tr)])
    embed.add_field(name=tr("Where"), inline=False, value=tr(WHERE))
    embed.add_field(name=tr("On a member (right-click → Apps)"), inline=False,
                    value=tr("**{stats}** — their games, wins and streaks\n"
                             "**{duel}** — the same as `{duel_command}`",
                             stats=command_word(tr, "Scoundrel stats", "menu"),
                             duel=command_word(tr, "Challenge to a duel", "menu"),
                             duel_command=slash(tr, "duel", "opponent")))
    permissions = interaction.permissions
    if interaction.guild_id is not None and (permissions.manage_guild or permissions.administrator):
        add_lines_field(embed, tr("Server admins (Manage Server)"),
                        [usage(admin, command, tr) for command in by_name(admin, tr)])
    return embed


def rules_page(page: int, tr: Messages = ENGLISH) -> tuple[discord.Embed, discord.ui.View]:
    """One page of the rules in ``tr``'s language, with the buttons to turn the page."""
    every_page = pages(tr)
    page = max(0, min(page, len(every_page) - 1))
    title, text = every_page[page]
    embed = discord.Embed(title=title, description=readable(text), colour=discord.Colour.dark_teal())
    embed.set_footer(text=tr("Page {page} of {pages}", page=page + 1, pages=len(every_page)))
    view = discord.ui.View(timeout=None)
    view.add_item(RulesPageButton(page - 1, tr("◀ Previous"), disabled=page == 0))
    view.add_item(RulesPageButton(page + 1, tr("Next ▶"), disabled=page == len(every_page) - 1))
    return embed, view


class RulesPageButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"sc:rules:(?P<page>{PAGE})"):
    def __init__(self, page: int, label: str = "", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label or "Page", style=discord.ButtonStyle.secondary,
                                           disabled=disabled, custom_id=f"sc:rules:{page}"))
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["page"]))

    async def callback(self, interaction: Interaction) -> None:
        try:
            embed, view = rules_page(self.page, for_reader(interaction))
            await interaction.response.edit_message(embed=embed, view=view)
        except Exception as error:
            await report_error(interaction, error, where=f"rules page {self.page}")


COMMANDS: tuple[app_commands.Command, ...] = (play, resume, abandon, rules, help_command)
DYNAMIC_ITEMS = VIEW_ITEMS + FLOW_ITEMS + (RulesPageButton, HelpPageButton)


async def setup(bot) -> None:
    add_subcommands(*COMMANDS)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)


async def teardown(bot) -> None:
    remove_subcommands(*COMMANDS)
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
