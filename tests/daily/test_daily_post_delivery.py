"""The daily post never silently stops: failures are retried until the post is delivered, exactly once.

Faults are real: the database loses a table behind the bot's back, or SimCord's own error injection makes
Discord answer 500.
"""

from __future__ import annotations

import sqlite3
from datetime import timedelta

import discord

from cogs.daily.post import DailyPoster
from cogs.daily.schedule import retry_delay
from tests.daily.helpers import admin_of, restart
from tests.daily.test_daily_post import HOUR, at, posts, schedule

MINUTE = 60


def rename(database, old: str, new: str) -> None:
    with sqlite3.connect(database) as db:
        db.execute(f"ALTER TABLE {old} RENAME TO {new}")


def poster(world) -> DailyPoster:
    return world.bot.get_cog("DailyPoster")


async def test_a_database_error_while_building_the_post_is_retried_and_the_loop_lives_on(world, caplog):
    admin, daily = await schedule(world, "09:30")
    rename(world.database, "daily_challenges", "daily_challenges_away")  # the post cannot be built now
    await world.env.advance_time(10 * HOUR)  # 10:00
    assert posts(daily) == []
    assert poster(world).post_loop.is_running()
    [(guild, failures, _)] = await world.store.undelivered_daily_posts(1)
    assert guild == world.guild.id and failures >= 1
    assert any("daily 1 in guild" in r.getMessage() and "failed" in r.getMessage() for r in caplog.records)

    rename(world.database, "daily_challenges_away", "daily_challenges")  # the database is back
    await world.env.advance_time(16 * MINUTE)  # within the longest back-off
    [post] = posts(daily)
    assert post.embeds[0].title.endswith("#1")
    await world.env.advance_time(24 * HOUR)  # and the next day's post comes as usual
    assert [p.embeds[0].title[-2:] for p in posts(daily)] == ["#1", "#2"]
    assert posts(daily)[-1].created_at.replace(microsecond=0) == at(2, 9, 30)


async def test_discord_failing_to_send_the_post_is_retried_and_posts_once(world, caplog):
    admin, daily = await schedule(world, "09:30")
    world.env.inject_error("POST", f"/channels/{daily.id}/messages", status=500, times=3)
    await world.env.advance_time(9 * HOUR + 30 * MINUTE + 1)
    assert posts(daily) == []
    assert any("daily 1 in guild" in r.getMessage() and "500" in r.getMessage() for r in caplog.records)
    await world.env.advance_time(10 * MINUTE)
    [post] = posts(daily)
    assert post.embeds[0].title.endswith("#1")
    assert await world.store.daily_post_message(world.guild.id, 1) == (daily.id, post.id)
    await restart(world)  # delivered is delivered: no second copy after a restart
    await world.env.advance_time(HOUR)
    assert len(posts(daily)) == 1


async def test_a_post_left_claimed_by_a_dead_process_is_taken_over_once_its_lease_runs_out(world):
    admin, daily = await schedule(world, "09:30")
    await world.env.advance_time(9 * HOUR + 29 * MINUTE)
    # Another process claimed today's post at 09:29 and died before sending it.
    assert await world.store.claim_daily_post(world.guild.id, 1, "dead-process", timedelta(minutes=2))
    await world.env.advance_time(90)  # 09:30:30: our process must not post while that lease runs
    assert posts(daily) == []
    await world.env.advance_time(HOUR)  # the hourly watchdog sees it undelivered; the lease has run out
    [post] = posts(daily)
    assert post.embeds[0].title.endswith("#1")


async def test_a_stopped_post_loop_is_restarted_by_the_watchdog(world):
    admin, daily = await schedule(world, "09:30")
    poster(world).post_loop.cancel()
    await world.env.advance_time(MINUTE)
    assert not poster(world).post_loop.is_running()
    await world.env.advance_time(HOUR)  # the watchdog looks every hour
    assert poster(world).post_loop.is_running()
    await world.env.advance_time(10 * HOUR)
    [post] = posts(daily)
    assert post.embeds[0].title.endswith("#1")


def test_retry_back_off_grows_and_is_capped():
    assert [retry_delay(n).total_seconds() for n in (1, 2, 3, 4)] == [30, 60, 120, 240]
    assert retry_delay(50) == timedelta(minutes=15)


async def test_the_admin_is_told_truthfully_when_the_post_goes_out(world):
    await world.env.advance_time(10 * HOUR)  # 10:00, past today's 09:00
    admin, daily = await schedule(world, "09:00")
    [post] = posts(daily)
    result = await admin.slash(world.channel, "scoundrel-admin daily", channel=daily, time="09:00")
    # Today's post is out already: the confirmation links it and names tomorrow's time, not "in ~23 hours"
    # as if nothing would happen today.
    text = result.response.content
    assert f"/channels/{world.guild.id}/{daily.id}/{post.id}" in text
    assert "<t:1767344400:R>" in text  # 2026-01-02 09:00 UTC
    later = await admin.slash(world.channel, "scoundrel-admin daily", channel=daily, time="23:00")
    # Today's post is out, so a later time today changes nothing until tomorrow.
    assert "<t:1767394800:R>" in later.response.content  # 2026-01-02 23:00 UTC
    assert len(posts(daily)) == 1


async def test_setting_a_time_already_past_says_the_post_goes_out_now(world):
    await world.env.advance_time(10 * HOUR)
    admin = admin_of(world)
    daily = world.guild.create_text_channel("daily")
    result = await admin.slash(world.channel, "scoundrel-admin daily", channel=daily, time="09:00")
    [post] = posts(daily)
    text = result.response.content
    assert "Daily #1 is posted" in text and f"/{daily.id}/{post.id}" in text
    assert "<t:1767344400:R>" in text  # the next one: tomorrow 09:00


async def test_the_post_can_ping_a_role_and_only_that_role(world):
    admin = admin_of(world)
    daily = world.guild.create_text_channel("daily")
    players = world.guild.create_role("Daily players", mentionable=True)
    result = await admin.slash(world.channel, "scoundrel-admin daily", channel=daily, time="09:00", role=players)
    assert f"pinging <@&{players.id}>" in result.response.content
    await world.env.advance_time(10 * HOUR)
    [post] = posts(daily)
    assert post.content == f"<@&{players.id}>"
    stored = world.env.backend.get_message(daily.id, post.id)
    assert stored.allowed_mentions.allows_role(players.id)
    assert not stored.allowed_mentions.allows_user(world.alice.id)


async def test_a_role_that_cannot_be_pinged_is_refused_and_changes_nothing(world):
    admin = admin_of(world)
    # Here the bot may not ping roles that are not mentionable (no Mention @everyone).
    daily = world.guild.create_text_channel(
        "daily", overwrites={world.guild.me: discord.PermissionOverwrite(mention_everyone=False)})
    quiet = world.guild.create_role("Quiet", mentionable=False)
    refused = await admin.slash(world.channel, "scoundrel-admin daily", channel=daily, time="09:00", role=quiet)
    assert "can't be pinged" in refused.response.content and "Nothing was changed" in refused.response.content
    refused = await admin.slash(world.channel, "scoundrel-admin daily", channel=daily, time="09:00",
                                role=world.guild.default_role)
    assert "@everyone is not a role to ping" in refused.response.content
    assert not (await world.store.get_guild_settings(world.guild.id)).daily_scheduled
