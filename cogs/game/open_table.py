"""**Open the table**: the game message's button that opens the table as a Discord Activity (``web/``, see
docs/ACTIVITY.md), and the game messages the table's moves redraw.

The button (``sc:table:<game id>``) is offered under a game still being played, from ``/scoundrel play`` and
``/scoundrel daily`` alike, only when the bot's ``[activity]`` section is configured. A click is answered with
Discord's ``LAUNCH_ACTIVITY`` callback: the Activity opens for the player who clicked, on their own game (the
table shows the player's daily while it is being played, else their game). When Discord refuses the launch (the
app has no Activity enabled), the player is told so privately.

A daily's message is private (ephemeral): the bot can only edit it with the token of an interaction on it, which
Discord honours for 15 minutes. ``PrivateMessages`` keeps, per game, the last such token the bot received (in
memory, never logged), so a move made at the table can redraw the daily's message in chat too
(``show_on_chat``).
"""

from __future__ import annotations

import contextlib
import logging
import re
import time
from collections import OrderedDict
from weakref import WeakKeyDictionary

import discord
from discord.ext import commands

from cogs.game.flow import refresh_game_message
from cogs.game.view import game_message
from cogs.plumbing.errors import GameIdButton, send_private
from cogs.plumbing.interaction import Bot, Interaction
from cogs.text.locale import for_reader
from games.i18n import ENGLISH, N_, Messages

log = logging.getLogger(__name__)

NOT_OFFERED = N_("The table is not available on this bot.")
NOT_OPENED = N_("Discord did not open the table here; try again, or keep playing in chat.")
TOKEN_LIFE = 15 * 60 - 30  # seconds Discord honours an interaction's token, less a margin
KEPT = 10_000  # private messages remembered at most (the oldest forgotten first)
GAME_CLICK = re.compile(r"sc:g:(\d{1,20}):")


class OpenTableButton(GameIdButton, discord.ui.DynamicItem[discord.ui.Button]):
    PREFIX, LABEL, EMOJI, STYLE = "table", N_("Open the table"), "🃏", discord.ButtonStyle.secondary

    async def run(self, interaction: Interaction) -> None:
        tr = for_reader(interaction)
        if getattr(interaction.client.config, "activity", None) is None:
            await send_private(interaction, tr(NOT_OFFERED))
            return
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as refused:  # no Activity enabled on the app, say: the interaction is unanswered
            log.warning("Discord refused to launch the Activity: %s %s", refused.status, refused.text)
            await send_private(interaction, tr(NOT_OPENED))
        except discord.InteractionResponded:  # deferred by the deadline before it could launch
            await send_private(interaction, tr(NOT_OPENED))


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
    """A private game message just sent as ``interaction``'s answer (``cogs.daily.play``)."""
    kept = private_messages(interaction.client)
    if kept is not None and message.flags.ephemeral:
        kept.keep(game_id, interaction.token, message.id)


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
        shown.view.clear_items()  # (see cogs.game.view.redraw)
