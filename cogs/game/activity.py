"""The extension of the table as a Discord Activity in chat (``cogs.game.open_table``): the Open the table button
and, when ``[activity]`` is configured, the button under games being played and the private messages' tokens
kept for the table's moves. (An extension module apart: discord.py loads an extension afresh, so the module other
cogs import is never one.)"""

from __future__ import annotations

from cogs.game.open_table import OpenTableButton, PrivateMessages, private_messages, table_extras
from cogs.game.view import PLAYING_EXTRAS


async def setup(bot) -> None:
    bot.add_dynamic_items(OpenTableButton)
    if getattr(bot.config, "activity", None) is not None:
        if table_extras not in PLAYING_EXTRAS:
            PLAYING_EXTRAS.append(table_extras)
        kept = PrivateMessages()
        await bot.add_cog(kept)
        bot.arrival_checks.append(kept.clicked)


async def teardown(bot) -> None:
    bot.remove_dynamic_items(OpenTableButton)
    if table_extras in PLAYING_EXTRAS:
        PLAYING_EXTRAS.remove(table_extras)
    kept = private_messages(bot)
    if kept is not None and kept.clicked in bot.arrival_checks:
        bot.arrival_checks.remove(kept.clicked)
