"""Options checked against what the command declared, before it runs.

Discord enforces a command's declared ranges, choices and contexts in its own client, and discord.py trusts what
arrives: a payload from an older command definition (still cached by a client), or a forged one, reaches the
command as is (a ``day`` of -1,000,000 overflows a date, an unknown ``board`` fails deep in the code). The tree
checks every application command here first (``ScoundrelTree.interaction_check``), and a value the command never
offered is refused with a short message naming the option.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType

from cogs.plumbing.interaction import Interaction

NUMBERS = (AppCommandOptionType.integer, AppCommandOptionType.number)


class BadOption(app_commands.CheckFailure):
    """An option's value is not one the command accepts."""

    def __init__(self, name: str, value) -> None:
        super().__init__(f"option {name!r} got {value!r}")
        self.name, self.value = name, value


def leaf_options(options: list[dict]) -> list[dict]:
    """The options given to the command itself, below its group and subcommand."""
    for option in options or []:
        if option.get("type") in (AppCommandOptionType.subcommand.value, AppCommandOptionType.subcommand_group.value):
            return leaf_options(option.get("options", []))
    return list(options or [])


def check_payload(interaction: Interaction) -> None:
    """Raise ``app_commands.NoPrivateMessage`` for a server-only command outside a server, ``BadOption`` for a
    value outside the option's declared range, length or choices."""
    command = interaction.command
    if interaction.type is not discord.InteractionType.application_command or not isinstance(
            command, app_commands.Command):
        return  # (autocomplete sends what is typed so far: anything goes)
    root = command.root_parent or command
    contexts = getattr(root, "allowed_contexts", None)
    if interaction.guild_id is None and (root.guild_only or (
            contexts is not None and contexts.guild and not contexts.dm_channel and not contexts.private_channel)):
        raise app_commands.NoPrivateMessage()
    params = {param.name: param for param in command.parameters}
    data: dict = dict(interaction.data or {})
    for option in leaf_options(data.get("options", [])):
        param = params.get(str(option.get("name")))
        if param is None or "value" not in option:
            continue
        if not acceptable(param, option["value"]):
            raise BadOption(param.display_name, option["value"])


def acceptable(param: app_commands.Parameter, value) -> bool:
    if param.type in NUMBERS:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        return ((param.min_value is None or value >= param.min_value)
                and (param.max_value is None or value <= param.max_value))
    if param.type is AppCommandOptionType.string:  # (a string's min_value and max_value are its lengths)
        if not isinstance(value, str):
            return False
        if param.min_value is not None and len(value) < param.min_value:
            return False
        if param.max_value is not None and len(value) > param.max_value:
            return False
    if param.choices and not param.autocomplete:
        return value in {choice.value for choice in param.choices}
    return True
