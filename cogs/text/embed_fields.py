"""Embed fields that stay within Discord's limits however long the reader's language makes them."""

from __future__ import annotations

import discord

FIELD_LIMIT = 1024  # Discord's limit on an embed field's value
CONTINUED = "\u200b"  # a continuation field's name: blank to the reader, so the list reads as one


def add_lines_field(embed: discord.Embed, name: str, lines: list[str]) -> None:
    """Add ``lines`` under ``name``, one per line, in as many fields as they need at Discord's 1,024 characters
    a field: a list that grows (a new command, a longer translation) continues in a field with a blank name instead of
    being refused by Discord. A line is never split; one longer than a field is cut."""
    value = ""
    for line in lines:
        line = line[:FIELD_LIMIT]
        if value and len(value) + 1 + len(line) > FIELD_LIMIT:
            embed.add_field(name=name, inline=False, value=value)
            name, value = CONTINUED, line
        else:
            value = f"{value}\n{line}" if value else line
    embed.add_field(name=name, inline=False, value=value or CONTINUED)
