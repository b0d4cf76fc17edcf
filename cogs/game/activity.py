"""The extension of the table as a Discord Activity in chat: the Open the table button (``cogs.game.open_table``),
offered under a game being played (``cogs/offers.py``) when ``[activity]`` is configured, and the private
messages' tokens kept for the table's moves (``cogs.game_message.private``). (An extension module apart:
discord.py runs an extension's module afresh when it loads it, so the module other cogs import is never one.)"""

from __future__ import annotations

import discord

from cogs.game.open_table import OpenTableButton
from cogs.game_message.private import KEEPERS, PrivateMessages, private_messages
from games.i18n import ENGLISH, Messages

_state = {"offered": False}  # set by setup: [activity] is configured


def table_extras(record, tr: Messages = ENGLISH) -> list[discord.ui.Item]:
    """The Open the table button, beside the fight switch."""
    if not _state["offered"]:
        return []
    button = OpenTableButton(record.id, tr)
    button.item.row = 1
    return [button]


async def setup(bot) -> None:
    bot.add_dynamic_items(OpenTableButton)
    _state["offered"] = getattr(bot.config, "activity", None) is not None
    if _state["offered"]:
        kept = PrivateMessages()
        await bot.add_cog(kept)
        KEEPERS[bot] = kept
        bot.arrival_checks.append(kept.clicked)


async def teardown(bot) -> None:
    bot.remove_dynamic_items(OpenTableButton)
    kept = private_messages(bot)
    if kept is not None:  # (a cog of another module: discord.py would leave it loaded)
        if kept.clicked in bot.arrival_checks:
            bot.arrival_checks.remove(kept.clicked)
        await bot.remove_cog(kept.qualified_name)
        KEEPERS.pop(bot, None)
