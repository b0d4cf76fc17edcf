"""The scheduled daily post and its admin commands, through SimCord with virtual time."""

from __future__ import annotations

from datetime import UTC, datetime

import discord
import simcord

from app.daily.days import daily_seed, room_marks
from cogs.commands.admin_group import NOT_A_MANAGER
from games.engine import seed_to_text
from tests.daily.helpers import admin_of, play_to_end, restart
from tests.discord.harness import buttons

HOUR = 3600


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 1, day, hour, minute, tzinfo=UTC)


def posts(channel) -> list[discord.Message]:
    return [m for m in channel.history() if m.embeds and "Scoundrel Daily #" in (m.embeds[0].title or "")]


async def schedule(world, time: str = "09:30"):
    admin = admin_of(world)
    daily = world.guild.create_text_channel("daily")
    result = await admin.slash(world.channel, "scoundrel-admin daily", channel=daily, time=time)
    assert result.ephemeral and f"at {time} UTC" in result.response.content
    return admin, daily


async def test_the_post_fires_at_the_set_time_and_not_twice_after_a_restart(world):
    admin, daily = await schedule(world, "09:30")
    await world.env.advance_time(9 * HOUR)  # 09:00
    assert posts(daily) == []
    await world.env.advance_time(HOUR)  # 10:00
    [post] = posts(daily)
    assert post.created_at.replace(microsecond=0) == at(1, 9, 30)
    embed = post.embeds[0]
    assert embed.title.endswith("Scoundrel Daily #1") and "<t:1767312000:R>" in embed.description
    assert [b.label for b in buttons(post)] == ["Play today's daily"]

    await restart(world)
    await world.env.advance_time(HOUR)
    assert len(posts(daily)) == 1  # the restart made no second post

    await world.env.advance_time(24 * HOUR)  # 2026-01-02 11:00
    assert [p.embeds[0].title[-2:] for p in posts(daily)] == ["#1", "#2"]
    assert posts(daily)[-1].created_at.replace(microsecond=0) == at(2, 9, 30)


async def test_a_missed_post_is_made_once_when_the_bot_comes_back(world):
    admin, daily = await schedule(world, "06:00")
    await world.bot.close()  # the bot is down from 00:00 …
    await world.env.advance_time(12 * HOUR)  # … past 06:00, to 12:00
    assert posts(daily) == []
    await restart(world)
    [post] = posts(daily)
    assert post.created_at.replace(microsecond=0) == at(1, 12)
    await restart(world)
    await world.env.advance_time(HOUR)
    assert len(posts(daily)) == 1


async def test_the_post_shows_yesterdays_results_and_seed_and_plays_today(world):
    admin, daily = await schedule(world, "08:00")
    first = await world.alice.slash(world.channel, "scoundrel daily")
    await play_to_end(world.alice, first.response)
    attempt = await world.store.daily_attempt(world.alice.id, 1)
    await world.env.advance_time(33 * HOUR)  # 2026-01-02 09:00
    post = posts(daily)[-1]
    fields = {f.name: f.value for f in post.embeds[0].fields}
    grid = "".join(room_marks(attempt.state))  # her share grid: no card named
    # the name kept with the result: a mention in an embed may show as a raw id
    assert fields["Yesterday's best here (Daily #1)"] == f"🥇 **alice** {attempt.score} {grid}"
    seed = seed_to_text(daily_seed(await world.store.daily_secret(), 1))
    assert seed in fields["Daily #1's seed, now revealed"]
    assert seed_to_text(daily_seed(await world.store.daily_secret(), 2)) not in str(post.embeds[0].to_dict())

    played = await world.bob.click(post, label="Play today's daily")
    assert played.ephemeral and played.response.message.embeds[0].title == "Daily #2 — room 1"
    assert (await world.store.active_game(world.bob.id, "daily")).day == 2


async def test_setting_a_time_already_past_today_posts_today_once(world):
    await world.env.advance_time(10 * HOUR)
    admin, daily = await schedule(world, "09:00")
    [post] = posts(daily)
    assert post.embeds[0].title.endswith("#1")
    await admin.slash(world.channel, "scoundrel-admin daily", channel=daily, time="09:15")
    assert len(posts(daily)) == 1


async def test_daily_off_stops_the_posts(world):
    admin, daily = await schedule(world, "09:30")
    off = await admin.slash(world.channel, "scoundrel-admin daily-off")
    assert off.ephemeral and "off" in off.response.content
    await world.env.advance_time(30 * HOUR)
    assert posts(daily) == []
    settings = await world.store.get_guild_settings(world.guild.id)
    assert not settings.daily_scheduled


async def test_a_non_admin_cannot_change_settings(world):
    daily = world.guild.create_text_channel("daily")
    assert "scoundrel-admin daily" not in world.alice.available_commands(world.channel)
    # Even when a server lets her past Discord's default permission, the bot itself refuses.
    command = next(c for c in await world.bot.tree.fetch_commands() if c.name == "scoundrel-admin")
    world.guild.set_command_permissions(command, {world.alice: True})
    for name, options in (("scoundrel-admin daily", {"channel": daily, "time": "09:30"}),
                          ("scoundrel-admin daily-off", {})):
        refused = await world.alice.slash(world.channel, name, **options)
        simcord.assert_responded(refused, content=NOT_A_MANAGER, ephemeral=True)
    assert not (await world.store.get_guild_settings(world.guild.id)).daily_scheduled
    await world.env.advance_time(24 * HOUR)
    assert posts(daily) == []


async def test_a_bad_time_is_refused_and_changes_nothing(world):
    admin, daily = await schedule(world, "09:30")
    bad = await admin.slash(world.channel, "scoundrel-admin daily", channel=daily, time="25:00")
    assert bad.ephemeral and "Nothing was changed" in bad.response.content
    settings = await world.store.get_guild_settings(world.guild.id)
    assert settings.daily_time_text == "09:30" and settings.daily_channel_id == daily.id


async def test_a_time_set_before_the_loop_first_fires_is_kept(world):
    # discord.py re-times a loop only once it has fired; a fresh bot at 14:00 has not fired yet.
    await world.env.advance_time(14 * HOUR)
    await restart(world)
    admin, daily = await schedule(world, "16:00")
    assert posts(daily) == []
    await world.env.advance_time(3 * HOUR)
    [post] = posts(daily)
    assert post.created_at.replace(microsecond=0) == at(1, 16)


async def test_without_a_time_the_configured_post_time_is_used(world):
    admin = admin_of(world)
    daily = world.guild.create_text_channel("daily")
    await world.env.advance_time(HOUR)
    result = await admin.slash(world.channel, "scoundrel-admin daily", channel=daily)
    assert "every day at 00:00 UTC" in result.response.content and "<t:1767312000:R>" in result.response.content
    settings = await world.store.get_guild_settings(world.guild.id)
    assert settings.daily_time_text == "00:00"
    [post] = posts(daily)  # today's 00:00 had passed: posted at once
    assert post.created_at.replace(microsecond=0) == at(1, 1)
