"""The gateway's echoes of the bot's own messages, left unparsed.

Every message the bot sends or edits (a game's table on every click) comes back over the gateway as MESSAGE_CREATE
or MESSAGE_UPDATE. The bot reads neither: it has no message content intent, runs no prefix commands, and its
buttons are found from the interaction's own payload, never from its message cache. Parsing an echo still builds
a whole ``discord.Message`` (embeds, components, attachments) and caches it; ``skip_own_echoes`` puts a filter in
front of discord.py's two parsers that drops the events whose author is the bot itself. Other people's messages
are parsed as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

ECHOED = ("MESSAGE_CREATE", "MESSAGE_UPDATE")


def skip_own_echoes(client: discord.Client) -> None:
    """Wrap the client's MESSAGE_CREATE and MESSAGE_UPDATE parsers (the dict its gateway reads them from)."""
    parsers: dict[str, Callable[[Any], None]] = client._connection.parsers  # discord.py has no public hook here
    for event in ECHOED:
        parse = parsers.get(event)
        if parse is not None and not getattr(parse, "skips_own_echoes", False):
            parsers[event] = _OthersOnly(client, parse)


class _OthersOnly:
    """A parser that passes every event on to discord.py's (``parse``) except one the bot itself wrote."""

    skips_own_echoes = True

    def __init__(self, client: discord.Client, parse: Callable[[Any], None]) -> None:
        self.client = client
        self.parse = parse

    def __call__(self, data: Any) -> None:
        author = data.get("author") if isinstance(data, dict) else None
        user = self.client.user
        if author is not None and user is not None and str(author.get("id")) == str(user.id):
            return
        self.parse(data)
