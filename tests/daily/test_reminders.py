"""Streak reminders through SimCord with virtual time: opt-in only, at most one a day, closed DMs, two senders."""

from __future__ import annotations

import discord

from tests.daily.helpers import play_to_end
from tests.discord.harness import buttons

HOUR = 3600


def dms(actor) -> list[discord.Message]:
    return [m for m in actor.user.dm_channel.history() if m.author.bot and "Daily #" in (m.content or "")]


async def play_today(world, actor) -> None:
    started = await actor.slash(world.channel, "scoundrel daily")
    await play_to_end(actor, started.response)


async def test_an_opted_in_player_gets_one_reminder_at_the_chosen_time_and_none_after_playing(world):
    await play_today(world, world.alice)  # Daily #1: a 1-day streak to keep
    chosen = await world.alice.slash(world.channel, "scoundrel remind", when=4)
    assert chosen.ephemeral and "4 hours before it ends" in chosen.response.content
    assert "<t:1767297600:R>" in chosen.response.content  # next check: 2026-01-01 20:00 UTC
    await world.env.advance_time(24 * HOUR + 19 * HOUR)  # 2026-01-02 19:00
    assert dms(world.alice) == []
    await world.env.advance_time(HOUR + 60)  # 20:01
    [reminder] = dms(world.alice)
    assert reminder.content.startswith("🔥 Your **1-day** daily streak ends at <t:1767398400:t>")
    assert "Daily #2" in reminder.content
    assert [b.label for b in buttons(reminder)] == ["Play today's daily", "Turn reminders off"]
    await world.env.advance_time(3 * HOUR + 58 * 60)  # 23:59: the other reminder times send nothing more
    assert len(dms(world.alice)) == 1
    # Day 3: she plays in the morning, so no reminder that evening.
    await world.env.advance_time(9 * HOUR)
    await play_today(world, world.alice)
    await world.env.advance_time(14 * HOUR)
    assert len(dms(world.alice)) == 1


async def test_never_opted_in_and_turned_off_players_get_nothing(world):
    await world.bob.slash(world.channel, "scoundrel remind", when=1)
    off = await world.bob.slash(world.channel, "scoundrel remind", when=0)
    assert "Reminders are off" in off.response.content
    await world.env.advance_time(48 * HOUR)
    assert dms(world.alice) == [] and dms(world.bob) == []
    assert await world.store.reminders.get(world.alice.id) is None  # never opted in: no row at all


async def test_the_reminders_buttons_start_the_daily_and_turn_reminders_off(world):
    await world.alice.slash(world.channel, "scoundrel remind", when=8)
    await world.env.advance_time(16 * HOUR + 60)
    [reminder] = dms(world.alice)
    assert reminder.content.startswith("🗝️ Daily #1 ends at")  # no streak yet
    played = await world.alice.user.click(reminder, label="Play today's daily")
    assert played.ephemeral and played.response.message.embeds[0].title == "Daily #1 — room 1"
    assert (await world.store.active_game(world.alice.id, "daily")).day == 1
    off = await world.alice.user.click(reminder, label="Turn reminders off")
    assert "Reminders are off" in off.response.content
    assert await world.store.reminders.get(world.alice.id) is None
    await world.env.advance_time(48 * HOUR)
    assert len(dms(world.alice)) == 1


async def test_closed_dms_are_not_retried_that_day_and_the_player_is_told_once(world):
    await world.alice.slash(world.channel, "scoundrel remind", when=2)
    world.env.inject_error("POST", f"/channels/{world.alice.user.dm_channel.id}/messages", status=403, code=50007,
                           message="Cannot send messages to this user", times=None)
    await world.env.advance_time(23 * HOUR + 59 * 60)  # 2026-01-01 23:59
    assert dms(world.alice) == []
    assert await world.store.reminders.outcome(world.alice.id, 1) == "closed"
    told = await world.alice.slash(world.channel, "scoundrel remind")
    assert "Your reminder for Daily #1 could not be delivered" in told.response.content
    assert "2 hours before it ends" in told.response.content  # still on
    again = await world.alice.slash(world.channel, "scoundrel remind")
    assert "could not be delivered" not in again.response.content  # told once


async def test_the_reminder_is_written_in_the_language_the_player_chose_it_in(world, locales):
    locales.speak(world.alice, "de")
    chosen = await world.alice.slash(world.channel, "scoundrel remind", when=1)
    assert chosen.response.content.startswith("🔔 An Tagen, an denen du das Tagesspiel nicht gespielt hast")
    await world.env.advance_time(23 * HOUR + 60)
    [reminder] = [m for m in world.alice.user.dm_channel.history() if m.author.bot]
    assert reminder.content.startswith("🗝️ Tagesspiel #1 endet um <t:1767312000:t>")
    assert [b.label for b in buttons(reminder)] == ["Heutiges Tagesspiel starten", "Erinnerungen ausschalten"]


async def test_a_passing_failure_is_tried_again_at_the_next_reminder_time_that_day(world):
    await world.alice.slash(world.channel, "scoundrel remind", when=8)
    world.env.inject_error("POST", f"/channels/{world.alice.user.dm_channel.id}/messages", status=503, times=1)
    await world.env.advance_time(16 * HOUR + 60)  # 16:01: Discord failed the send
    assert dms(world.alice) == [] and await world.store.reminders.outcome(world.alice.id, 1) is None
    await world.env.advance_time(4 * HOUR)  # 20:01: the next reminder time sends it
    assert len(dms(world.alice)) == 1 and await world.store.reminders.outcome(world.alice.id, 1) == "sent"
    await world.env.advance_time(4 * HOUR)
    assert len(dms(world.alice)) == 1
