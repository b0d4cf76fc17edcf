"""Which language a message is written in.

A message answers someone: it is written in the language of that person's Discord client
(``interaction.locale``). A message the bot posts on its own in a server, read by everyone there (the
daily post), is written in the server's preferred language (``guild.preferred_locale``, set in the
server's Community settings). Languages without a catalogue read English.
"""

from __future__ import annotations

import discord

from games.i18n import Messages, messages_for


def for_reader(interaction: discord.Interaction) -> Messages:
    """The text of the person who made ``interaction``."""
    return messages_for(interaction.locale)


def for_server(guild: discord.Guild | None) -> Messages:
    """The text of a message everyone in ``guild`` reads (English outside a server)."""
    return messages_for(guild.preferred_locale if guild is not None else None)
