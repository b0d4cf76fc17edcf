"""Slash command translations: ``games/i18n/locales/<locale>/commands.po``.

A catalogue maps English text, with a ``msgctxt`` saying where it is shown, to one Discord locale.
``commands.po`` holds the slash commands' names, descriptions and choices and the member-menu
labels, served to Discord by ``CommandTranslator`` when the command tree is synced. A command's name is
translated like its description (Discord shows each user the names of their own language), except the
``scoundrel`` group itself and the preset names, which are the game's own words everywhere.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import discord
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from discord import app_commands

SOURCE_LOCALE = discord.Locale.american_english
# Discord locales with a catalogue. Their folder names are Discord's locale values.
LOCALES = (discord.Locale.german, discord.Locale.french, discord.Locale.spain_spanish)

# Where a command string is shown -> the msgctxt it has in commands.po.
_CONTEXTS = {
    app_commands.TranslationContextLocation.command_name: "name",
    app_commands.TranslationContextLocation.group_name: "name",
    app_commands.TranslationContextLocation.parameter_name: "option",
    app_commands.TranslationContextLocation.choice_name: "choice",
    app_commands.TranslationContextLocation.command_description: "description",
    app_commands.TranslationContextLocation.group_description: "description",
    app_commands.TranslationContextLocation.parameter_description: "description",
}


@cache
def catalog(locale: discord.Locale, domain: str) -> Catalog | None:
    """The ``domain`` catalogue of ``locale``, or None when the locale has none."""
    if locale not in LOCALES:
        return None
    path = resources.files("games.i18n").joinpath("locales", locale.value, f"{domain}.po")
    if not path.is_file():
        return None
    with path.open("rb") as handle:
        return read_po(handle, locale=locale.value.replace("-", "_"), domain=domain)


def lookup(locale: discord.Locale, domain: str, text: str, context: str | None = None) -> str | None:
    """The translation of ``text``, or None (the caller then shows the English)."""
    found = catalog(locale, domain)
    message = found.get(text, context=context) if found is not None else None
    return message.string or None if message is not None else None  # type: ignore[return-value]  # no plurals


class CommandTranslator(app_commands.Translator):
    """Slash command names, descriptions and choices in every shipped locale (``commands.po``)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        where = _CONTEXTS.get(context.location)
        if isinstance(context.data, app_commands.ContextMenu):
            where = "menu"  # a member-menu entry: a label with spaces and capitals, not a command name
        if where is None:
            return None
        return lookup(locale, "commands", string.message, where)
