"""Payloads Discord may deliver that SimCord's public helpers refuse to build: an option value out of its declared
range or outside its choices, a command from a DM the command is not offered in, a component whose custom_id is
not text. Sent through SimCord's own interaction dispatcher, as the gateway would deliver them."""

from __future__ import annotations

from typing import Any

import simcord
from simcord import actors, interactions
from simcord.enums import InteractionType


async def raw_slash(actor, channel, name: str, **values: Any) -> simcord.InteractionResult:
    """``/name`` with each option set to ``values[option]`` exactly as given, unchecked."""
    parts = name.split()
    guild = getattr(actor, "guild", None)
    root = actor._env.backend.find_command(parts[0], guild.id if guild is not None else None)
    leaf, nesting = interactions.walk_to_subcommand(root, parts[1:])
    declared = {option["name"]: option for option in leaf.get("options", [])}
    options = [{"name": key, "type": declared[key]["type"], "value": value} for key, value in values.items()]
    data = {"id": root["id"], "name": root["name"], "type": 1,
            "options": interactions.nest_options(root, nesting, options)}
    return await actors._dispatch_actor_interaction(actor, InteractionType.APPLICATION_COMMAND, channel, data)


async def raw_click(actor, message, custom_id: Any, component_type: Any = 2) -> simcord.InteractionResult:
    """A click on ``message`` whose custom_id (and component type) are exactly as given."""
    from tests.discord.harness import snapshot

    stored, payload = snapshot(actor, message)
    backend = actor._env.backend
    channel = simcord.ChannelHandle(actor._env, actor.guild, backend.get_channel(stored.channel_id))
    return await actors._dispatch_actor_interaction(
        actor, InteractionType.MESSAGE_COMPONENT, channel, {"custom_id": custom_id, "component_type": component_type},
        extra={"message": payload}, source_message_id=stored.id)
