"""Slash commands in every shipped language: the catalogues are complete, valid for Discord, and synced."""

from __future__ import annotations

import re

import discord
import pytest
from babel.messages.catalog import Catalog
from discord import app_commands

from bot.entry_point import DESCRIPTION as ENTRY_POINT_DESCRIPTION
from cogs.text.translator import LOCALES, catalog

# Discord's rule for command and option names (CHAT_INPUT): lowercase, no spaces, 1-32 characters.
NAME = re.compile(r"^[-_\w]{1,32}$")
LIMITS = {"name": 32, "option": 32, "menu": 32, "choice": 100, "description": 100}


def command_strings(tree: app_commands.CommandTree) -> set[tuple[str, str]]:
    """(msgctxt, English) of every string Discord shows for the tree's commands."""
    found = set()

    def walk(command):
        found.add(("name", command.name))
        found.add(("description", command.description))
        if isinstance(command, app_commands.Group):
            for child in command.commands:
                walk(child)
            return
        for parameter in command.parameters:
            found.add(("option", parameter.name))
            found.add(("description", parameter.description))
            found.update(("choice", choice.name) for choice in parameter.choices)

    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        walk(command)
    found.update(("menu", menu.name) for menu in tree.get_commands(type=discord.AppCommandType.user))
    return found


def entries(found: Catalog) -> dict[tuple[str, str], str]:
    return {(m.context, m.id): m.string for m in found if m.id}


async def test_every_command_string_is_translated_in_every_catalogue_and_nothing_else(world):
    # and the app's Entry Point command, kept beside the tree's when it is synced (bot/entry_point.py)
    wanted = command_strings(world.bot.tree) | {("description", ENTRY_POINT_DESCRIPTION)}
    assert len(wanted) > 40
    for locale in LOCALES:
        have = entries(catalog(locale, "commands"))
        assert set(have) - wanted == set(), f"{locale.value}: entries no command uses"
        assert wanted - set(have) == set(), f"{locale.value}: untranslated command strings"
        assert all(have.values()), f"{locale.value}: empty translations"


@pytest.mark.parametrize("locale", LOCALES, ids=lambda loc: loc.value)
def test_translations_fit_discords_rules(locale):
    for (where, english), text in entries(catalog(locale, "commands")).items():
        assert len(text) <= LIMITS[where], (english, text)
        if where in ("name", "option"):
            assert NAME.match(text) and text == text.lower(), (english, text)


async def test_the_synced_commands_carry_their_localisations(world):
    synced = {c.name: c for c in await world.bot.tree.fetch_commands()}
    scoundrel = synced["scoundrel"]
    play = next(o for o in scoundrel.options if o.name == "play")
    assert play.name_localizations[discord.Locale.german] == "spielen"
    assert play.description_localizations[discord.Locale.french].startswith("Commencer une partie")
    board = next(o for o in next(o for o in scoundrel.options if o.name == "leaderboard").options
                 if o.name == "board")
    week = next(c for c in board.choices if c.value == "week")
    assert week.name_localizations[discord.Locale.spain_spanish] == "Semana"
    # Within one command, no two options (and no two subcommands) share a translated name.
    for locale in LOCALES:
        names = [o.name_localizations.get(locale, o.name) for o in scoundrel.options]
        assert len(names) == len(set(names)), locale
