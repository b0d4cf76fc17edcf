"""``/scoundrel-admin daily`` and ``daily-off``: where and when the daily is posted in a server, checked before
anything is changed (the channel's permissions, the role to ping, the time), then today's post made at once if its
time has passed."""

from __future__ import annotations

from datetime import time

import discord
from discord import app_commands

from app.daily.days import BadTime, day_of, format_post_time, parse_post_time, post_due_at
from app.daily.round import utc_time
from app.servers import settings as server_settings
from cogs.commands.admin_group import require_manager
from cogs.daily.play import DAILY_OFF
from cogs.daily.post import poster
from cogs.plumbing import clock
from cogs.plumbing.bounds import TIME_LENGTH
from cogs.plumbing.interaction import Interaction
from cogs.text.command_text import slash
from cogs.text.locale import for_reader
from games.i18n import ENGLISH, Messages


@app_commands.command(name="daily", description="Post the daily challenge in a channel every day at a UTC time")
@app_commands.describe(channel="The channel for the daily post",
                       time="UTC time of day, HH:MM (default: the bot's configured time)",
                       role="A role to ping with each post (optional)")
async def admin_daily(interaction: Interaction, channel: discord.TextChannel,
                      time: app_commands.Range[str, 1, TIME_LENGTH] | None = None,
                      role: discord.Role | None = None) -> None:
    if not await require_manager(interaction):
        return
    assert interaction.guild_id is not None  # require_manager: only in a server
    tr = for_reader(interaction)
    config = interaction.client.config
    if poster(interaction.client) is None:
        await interaction.response.send_message(tr(DAILY_OFF), ephemeral=True)
        return
    try:
        post_time = parse_post_time(time) if time is not None else utc_time(config.daily_post_time)
    except BadTime as bad:
        await interaction.response.send_message(tr("{problem} Nothing was changed.", problem=bad.text(tr)),
                                                ephemeral=True)
        return
    permissions = channel.permissions_for(channel.guild.me)
    if not (permissions.view_channel and permissions.send_messages and permissions.embed_links):
        await interaction.response.send_message(
            tr("I can't post in {channel}: I need View Channel, Send Messages and Embed Links there. "
               "Nothing was changed.", channel=channel.mention), ephemeral=True)
        return
    if role is not None and (role.is_default() or not (role.mentionable or permissions.mention_everyone)):
        why = (tr("@everyone is not a role to ping every day. Nothing was changed.") if role.is_default() else
               tr("{role} can't be pinged by me: make it mentionable, or give me Mention @everyone there. "
                  "Nothing was changed.", role=role.mention))
        await interaction.response.send_message(why, ephemeral=True)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    store = interaction.client.store
    await server_settings.schedule_daily(store, interaction.guild_id, channel.id, post_time, role.id if role else None)
    daily_poster = poster(interaction.client)
    assert daily_poster is not None  # checked above, and a cog is removed only between interactions
    await daily_poster.reschedule()
    await daily_poster.post_due()  # today's post, if its time has passed (the lock makes it once)
    await interaction.followup.send(await schedule_text(store, interaction.guild_id, channel, post_time, tr),
                                    ephemeral=True)


async def schedule_text(store, guild_id: int, channel, post_time: time, tr: Messages = ENGLISH) -> str:
    """What the admin is told (in ``tr``'s language): where and when, today's post if there is one, and when the
    next one goes out."""
    now = clock.now()
    today = day_of(now)
    settings = await server_settings.settings(store, guild_id)
    at = format_post_time(post_time)
    if settings.daily_role_id:
        lines = [tr("The daily challenge will be posted in {channel} every day at {time} UTC, pinging {role}.",
                    channel=channel.mention, time=at, role=f"<@&{settings.daily_role_id}>")]
    else:
        lines = [tr("The daily challenge will be posted in {channel} every day at {time} UTC.",
                    channel=channel.mention, time=at)]
    posted = await server_settings.todays_post(store, guild_id, today)
    if posted is not None:
        lines.append(tr("Daily #{day} is posted: {link}", day=today,
                        link=f"https://discord.com/channels/{guild_id}/{posted[0]}/{posted[1]}"))
        next_day = today + 1
    elif post_due_at(today, post_time) <= now:
        lines.append(tr("Daily #{day} could not be posted yet; I keep trying and it goes out as soon as I can.",
                        day=today))
        next_day = today + 1
    else:
        next_day = today
    when = post_due_at(next_day, post_time)
    lines.append(tr("Next post: Daily #{day}, {relative} ({moment} your time).", day=next_day,
                    relative=discord.utils.format_dt(when, 'R'), moment=discord.utils.format_dt(when, 'f')))
    return "\n".join(lines)


@app_commands.command(name="daily-off", description="Stop posting the daily challenge in this server")
async def admin_daily_off(interaction: Interaction) -> None:
    if not await require_manager(interaction):
        return
    assert interaction.guild_id is not None  # require_manager: only in a server
    tr = for_reader(interaction)
    store = interaction.client.store
    settings = await server_settings.settings(store, interaction.guild_id)
    if not settings.daily_scheduled:
        await interaction.response.send_message(tr("The daily post is already off here."), ephemeral=True)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await server_settings.schedule_daily(store, interaction.guild_id, None, None)
    if (daily_poster := poster(interaction.client)) is not None:
        await daily_poster.reschedule()
    await interaction.followup.send(tr("The daily post is off. `{command}` still plays today's challenge.",
                                       command=slash(tr, "daily")), ephemeral=True)


ADMIN_COMMANDS: tuple[app_commands.Command, ...] = (admin_daily, admin_daily_off)
