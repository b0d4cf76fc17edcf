"""``/scoundrel-admin preset``: a server's default rules for /scoundrel play, for Manage Server only."""

from __future__ import annotations

import discord
import simcord

from cogs.commands.admin_group import NOT_A_MANAGER
from games.engine import PRESETS


def admin_of(world):
    role = world.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("admin"), roles=[role])


async def started_rules(world, member):
    await member.slash(world.channel, "scoundrel play")
    record = await world.store.active_game(member.id, "normal")
    await world.store.abandon(record.id, member.id)
    return record.rules


async def test_a_server_preset_is_used_when_the_player_names_none(world):
    admin = admin_of(world)
    assert await started_rules(world, world.alice) == PRESETS["classic"]  # the bot's default
    done = await admin.slash(world.channel, "scoundrel-admin preset", preset="lenient")
    assert done.ephemeral and "**lenient**" in done.response.content
    assert await started_rules(world, world.alice) == PRESETS["lenient"]
    # A player's own choice still wins.
    await world.bob.slash(world.channel, "scoundrel play", preset="full-deck")
    assert (await world.store.active_game(world.bob.id, "normal")).rules == PRESETS["full-deck"]
    await admin.slash(world.channel, "scoundrel-admin preset", preset="bot-default")
    assert (await world.store.get_guild_settings(world.guild.id)).preset is None
    assert await started_rules(world, world.alice) == PRESETS["classic"]


async def test_a_non_admin_cannot_set_the_server_preset(world):
    command = next(c for c in await world.bot.tree.fetch_commands() if c.name == "scoundrel-admin")
    world.guild.set_command_permissions(command, {world.alice: True})  # past Discord's default permission
    refused = await world.alice.slash(world.channel, "scoundrel-admin preset", preset="expansion")
    simcord.assert_responded(refused, content=NOT_A_MANAGER, ephemeral=True)
    assert (await world.store.get_guild_settings(world.guild.id)).preset is None
    assert await started_rules(world, world.alice) == PRESETS["classic"]
