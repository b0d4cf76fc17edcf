"""Every click gets an answer, including the ones discord.py drops.

discord.py runs a ``DynamicItem`` only when the clicked custom_id is still on the message Discord sends with the
interaction (``ViewStore.schedule_dynamic_item_call``). A second press after the first one edited the message,
or a press on a button the bot drew before the message changed, carries a custom_id the message no longer shows:
discord.py ignores it and the player sees Discord's "This interaction failed". A custom_id that matches no
template at all (an id from an older version of the bot, or a forged one) is ignored the same way.

This check sees every component interaction as discord.py dispatches it and answers exactly those two
cases, with the same test discord.py applies: an item that discord.py will not run is built from its custom_id
here and its callback runs (every ``sc:`` button validates its own custom_id: owner, version, game state), and a
custom_id no template matches gets a short private refusal.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from cogs.plumbing.errors import report_error, send_private
from cogs.plumbing.interaction import Interaction
from cogs.text.locale import for_reader
from games.i18n import N_

log = logging.getLogger(__name__)

UNKNOWN_BUTTON = N_("That button is out of date or not one of mine, so nothing happened. "
                  "`/scoundrel resume` shows your game as it is now.")


def is_on_message(interaction: Interaction, component_type: int, custom_id: str) -> bool:
    """Whether discord.py will find this custom_id on the interaction's message (its own test, reproduced)."""
    message = interaction.message
    if message is None:
        return False
    if message.flags.components_v2:  # nested layouts: discord.py's own conversion says where the items are
        view = discord.ui.LayoutView.from_message(message, timeout=None)
        return any(getattr(item, "type", None) is not None and item.type.value == component_type
                   and getattr(item, "custom_id", None) == custom_id for item in view.walk_children())
    # Rows of items (every game message): the message's components already say it, without building a View
    # (discord.py builds one for the same click; building a second paid that cost twice).
    for component in message.components:
        children = component.children if isinstance(component, discord.ActionRow) else (component,)
        for child in children:
            if child.type.value == component_type and getattr(child, "custom_id", None) == custom_id:
                return True
    return False


def find_factory(client, custom_id: str):
    """The registered DynamicItem class whose template matches, and the match; (None, None) if none does."""
    for factory in getattr(client, "dynamic_item_classes", ()):
        match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            return factory, match
    return None, None


def check_click(interaction: Interaction) -> None:
    """Every interaction as it arrives (``bot.arrival_checks``): a click discord.py will drop is answered here, in a
    task of its own; any other interaction costs nothing more."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id, component_type = data.get("custom_id"), data.get("component_type")
    if not isinstance(custom_id, str) or not isinstance(component_type, int):
        return
    factory, match = find_factory(interaction.client, custom_id)
    if factory is not None and is_on_message(interaction, component_type, custom_id):
        return  # discord.py runs it
    asyncio.get_running_loop().create_task(answer_dropped_click(interaction, custom_id, factory, match))


async def answer_dropped_click(interaction: Interaction, custom_id: str, factory, match) -> None:
    try:
        if factory is None:
            log.info("unknown button %.100r from user %s", custom_id, interaction.user.id)
            await send_private(interaction, for_reader(interaction)(UNKNOWN_BUTTON))
            return
        placeholder: discord.ui.Button = discord.ui.Button(custom_id=custom_id)
        item = await factory.from_custom_id(interaction, placeholder, match)
        await item.callback(interaction)  # callbacks answer their own errors (report_error)
    except Exception as error:  # noqa: BLE001 - the player hears, the log keeps the traceback
        await report_error(interaction, error, where=f"dropped click {custom_id[:100]!r}")


async def setup(bot) -> None:
    bot.arrival_checks.append(check_click)


async def teardown(bot) -> None:
    bot.arrival_checks.remove(check_click)
