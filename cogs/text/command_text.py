"""Slash commands named in message text as the reader's Discord shows them.

Discord shows each user the command, option and member-menu names of their own language
(``commands.po``, served by ``cogs.text.translator.CommandTranslator``), so text that tells a player what to
type names them the same way: ``/scoundrel spielen regelwerk:`` for a German reader. The group names
``scoundrel`` and ``scoundrel-admin`` are the game's own words in every language.
"""

from __future__ import annotations

import discord

from cogs.text.translator import lookup
from games.i18n import Messages


def _locale(tr: Messages) -> discord.Locale:
    return discord.Locale(tr.locale)


def command_word(tr: Messages, english: str, where: str = "name") -> str:
    """A command name (``where="name"``), option name (``"option"``), description (``"description"``) or
    member-menu label (``"menu"``) in ``tr``'s language, or the English when it has no translation."""
    return lookup(_locale(tr), "commands", english, where) or english


def slash(tr: Messages, command: str, option: str | None = None, group: str = "scoundrel") -> str:
    """``/scoundrel play`` or, with an option, ``/scoundrel play preset:`` in ``tr``'s language."""
    text = f"/{group} {command_word(tr, command)}"
    return f"{text} {command_word(tr, option, 'option')}:" if option else text
