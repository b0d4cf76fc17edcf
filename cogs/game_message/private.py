"""A game's private message, kept for the moves made elsewhere: sending a game to its player alone, and redrawing
its chat message after a move at the table.

A daily's message (and a challenge's game) is private (ephemeral): the bot can only edit it with the token of an
interaction on it, which Discord honours for 15 minutes. ``PrivateMessages`` keeps, per game, the last such token
the bot received (in memory, never logged), so a move made at the table can redraw the message in chat too
(``show_on_chat``). The keeper is loaded with the table (``cogs/game/activity.py``) when ``[activity]`` is
configured; without it a private message is only redrawn by its own clicks.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections import OrderedDict
from weakref import WeakKeyDictionary

import discord
from discord.ext import commands

from app.play import solo
from cogs.game_message.view import game_message
from cogs.plumbing.interaction import Bot, Interaction
from cogs.plumbing.respond import send_message
from cogs.text.locale import for_reader
from games.i18n import ENGLISH, Messages

TOKEN_LIFE = 15 * 60 - 30  # seconds Discord honours an interaction's token, less a margin
KEPT = 10_000  # private messages remembered at most (the oldest forgotten first)
GAME_CLICK = re.compile(r"sc:g:(\d{1,20}):")


class PrivateMessages(commands.Cog, name="PrivateMessages"):
    """Loaded when ``[activity]`` is configured. game id -> (the last interaction token on its private message,
    that message's id, until when the token works); bounded, oldest forgotten first. Only this process's
    interactions are known."""

    def __init__(self) -> None:
        super().__init__()
        self.tokens: OrderedDict[int, tuple[str, int, float]] = OrderedDict()

    def keep(self, game_id: int, token: str, message_id: int) -> None:
        self.tokens[game_id] = (token, message_id, time.monotonic() + TOKEN_LIFE)
        self.tokens.move_to_end(game_id)
        while len(self.tokens) > KEPT:
            self.tokens.popitem(last=False)

    def token_for(self, game_id: int, message_id: int) -> str | None:
        kept = self.tokens.get(game_id)
        if kept is None or kept[1] != message_id:
            return None
        if kept[2] < time.monotonic():
            del self.tokens[game_id]
            return None
        return kept[0]

    def clicked(self, interaction: discord.Interaction) -> None:
        """An arrival check: a click on a private game message leaves its token (valid for 15 minutes)."""
        if interaction.type is not discord.InteractionType.component or interaction.message is None:
            return
        if not interaction.message.flags.ephemeral:
            return
        data: dict = dict(interaction.data or {})
        found = GAME_CLICK.match(str(data.get("custom_id", "")))
        if found:
            self.keep(int(found[1]), interaction.token, interaction.message.id)


# bot -> its PrivateMessages, while the extension keeps them (cogs/game/activity.py): held here rather than looked
# up by the cog's name.
KEEPERS: WeakKeyDictionary = WeakKeyDictionary()


def private_messages(client) -> PrivateMessages | None:
    return KEEPERS.get(client)


def remember_private(interaction: discord.Interaction, game_id: int, message: discord.Message) -> None:
    """A private game message just sent as ``interaction``'s answer."""
    kept = private_messages(interaction.client)
    if kept is not None and message.flags.ephemeral:
        kept.keep(game_id, interaction.token, message.id)


async def send_private_game(interaction: Interaction, record, note: str | None = "") -> None:
    """Show a game to its player alone (a daily, a practice, a challenge's game) and make it the game's current
    message (``note``: a line of text above it, or none)."""
    note = note or None
    shown = await game_message(record, bot=interaction.client, tr=for_reader(interaction))
    message: discord.Message
    if interaction.response.is_done():
        message = await interaction.followup.send(note, **shown.send(), ephemeral=True, wait=True)  # type: ignore[call-overload]
    else:
        message = await send_message(interaction, note, **shown.send(), ephemeral=True)
    await solo.posted(interaction.client.store, record.id, message.channel.id, message.id)
    remember_private(interaction, record.id, message)  # so a move at the table can redraw it


async def refresh_game_message(client: Bot, record, tr: Messages = ENGLISH) -> None:
    """Show a game's stored state on its current message (after an abandon, say), in ``tr``'s language: the
    player's when they asked for it, else the server's (``cogs.text.locale.for_server``)."""
    if record.message_id is None or record.channel_id is None or record.damaged:
        return
    shown = await game_message(record, bot=client, tr=tr)
    with contextlib.suppress(discord.HTTPException):
        await client.get_partial_messageable(record.channel_id).get_partial_message(record.message_id).edit(
            **shown.edit())


async def show_on_chat(client: Bot, record, tr: Messages = ENGLISH) -> None:
    """Redraw a game's chat message as ``record`` stands, after a move made elsewhere (the table): a private
    message through the token that last touched it, a public one through the channel. Best effort: a message
    gone, or a private one whose token ran out, stays as it was."""
    if record.message_id is None or record.channel_id is None or record.damaged:
        return
    kept = private_messages(client)
    token = kept.token_for(record.id, record.message_id) if kept is not None else None
    if token is None:
        await refresh_game_message(client, record, tr)
        return
    shown = await game_message(record, bot=client, tr=tr)
    try:
        webhook = discord.Webhook.partial(client.application_id or 0, token, client=client)
        with contextlib.suppress(discord.HTTPException):
            await webhook.edit_message(record.message_id, **shown.edit())
    finally:
        shown.view.clear_items()  # (see cogs.game_message.view.redraw)
