"""The app's Entry Point command, kept when the bot syncs its slash commands.

When Activities are enabled on an app, Discord creates its Entry Point command (application command type
``PRIMARY_ENTRY_POINT``, 4, named "Launch"), whose handler ``DISCORD_LAUNCH_ACTIVITY`` (2) opens the Activity
from the app launcher with no interaction for the bot. Discord refuses a bulk overwrite of the global commands
that leaves it out (error 50240), and discord.py 2.7.1 knows no such command type, so its ``tree.sync()`` would
fail on such an app. With ``[activity]`` configured the bot syncs its global commands here instead: the tree's
commands, translated as ``tree.sync()`` translates them, and the Entry Point command as Discord has it (its
name and handler), described in the player's language. An app without one (Activities not enabled) gets none:
Discord refuses the command type there.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.text.translator import LOCALES, lookup

log = logging.getLogger(__name__)

PRIMARY_ENTRY_POINT = 4
DESCRIPTION = "Open the table: play Scoundrel right here"  # commands.po, msgctxt "description"
# What a command sent back in a bulk overwrite may carry (Discord's read-only fields left out).
WRITABLE = ("name", "name_localizations", "description", "type", "handler", "options",
            "default_member_permissions", "nsfw", "integration_types", "contexts")


def entry_point_of(commands: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The Entry Point command among an app's global commands (as Discord lists them), or None."""
    return next((command for command in commands if command.get("type") == PRIMARY_ENTRY_POINT), None)


def kept_entry_point(existing: dict[str, Any]) -> dict[str, Any]:
    """``existing`` as it goes back into the bulk overwrite: its name and handler unchanged, its description ours
    in every shipped language."""
    kept = {key: existing[key] for key in WRITABLE if existing.get(key) is not None}
    kept["description"] = DESCRIPTION
    kept["description_localizations"] = {
        locale.value: text for locale in LOCALES
        if (text := lookup(locale, "commands", DESCRIPTION, "description")) is not None}
    return kept


async def sync_keeping_entry_point(bot: discord.Client, tree: discord.app_commands.CommandTree) -> list[Any]:
    """Overwrite the app's global commands with ``tree``'s, keeping its Entry Point command; what Discord stored."""
    application_id = bot.application_id
    if application_id is None:
        raise discord.app_commands.MissingApplicationID
    translator = tree.translator
    commands = tree.get_commands()
    payload: list[dict[str, Any]] = [
        await command.get_translated_payload(tree, translator) if translator else command.to_dict(tree)
        for command in commands]
    existing = entry_point_of(await bot.http.get_global_commands(application_id))  # type: ignore[arg-type]
    if existing is not None:
        payload.append(kept_entry_point(existing))
    return list(await bot.http.bulk_upsert_global_commands(application_id, payload=payload))
