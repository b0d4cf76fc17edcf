"""Right-click a member (Scoundrel stats, Challenge to a duel) and /scoundrel help's full command list."""

from __future__ import annotations

import pytest
from discord import app_commands

from tests.daily.helpers import admin_of
from tests.discord.harness import private_notes


async def test_member_menu_shows_their_stats_privately(world):
    daily = await world.bob.slash(world.channel, "scoundrel daily")
    from tests.daily.helpers import play_to_end

    await play_to_end(world.bob, daily.response)
    result = await world.alice.context_menu(world.channel, "Scoundrel stats", world.bob)
    assert result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == "📊 bob's Scoundrel" and embed.description.startswith("🎲 **1 game** (classic) · ")


async def test_member_menu_challenges_to_a_duel_and_shares_the_challenge_cooldown(world):
    result = await world.alice.context_menu(world.channel, "Challenge to a duel", world.bob)
    assert not result.ephemeral and f"<@{world.bob.id}>, you are challenged!" == result.response.content
    yourself = await world.alice.context_menu(world.channel, "Challenge to a duel", world.alice)
    assert private_notes(yourself) == ["You can't duel yourself: challenge someone else."]
    # Two challenges in five minutes, whichever way they are made: the slash command is refused now.
    again = await world.alice.slash(world.channel, "scoundrel duel", opponent=world.bob)
    assert private_notes(again)[0].startswith("Slow down a little")
    with pytest.raises(ExceptionGroup) as caught:
        world.env.raise_errors()
    assert all(isinstance(e, app_commands.CommandOnCooldown) for e in caught.value.exceptions)


async def all_commands(actor, channel):
    """/scoundrel help turned to its second page, every command (the first is for newcomers)."""
    helped = await actor.slash(channel, "scoundrel help")
    await actor.click(helped.response, custom_id="sc:help:1")
    return helped


async def test_help_starts_with_what_a_newcomer_needs_within_a_phone_screen(world):
    helped = await world.alice.slash(world.channel, "scoundrel help")
    start = helped.response.embeds[0]
    assert start.title == "Scoundrel — start here" and not start.fields
    lines = start.description.split("\n")
    assert lines[0].startswith("A solo dungeon crawl with a deck of cards")
    assert [line.split("`")[1].split(" [")[0] for line in lines[2:]] == [
        "/scoundrel play", "/scoundrel daily", "/scoundrel rules"]
    assert len(start.description) < 600  # a few short lines: one phone screen, not a list of every command
    assert [b.label for b in helped.response.message.components[0].children] == ["All commands"]
    await world.alice.click(helped.response, label="All commands")
    assert helped.response.embeds[0].title == "Scoundrel — commands"
    await world.alice.click(helped.response, label="◀ Start here")
    assert helped.response.embeds[0].title == "Scoundrel — start here"


async def test_help_lists_every_command_with_its_options_and_admin_commands_only_to_admins(world):
    helped = await all_commands(world.alice, world.channel)
    fields = {f.name: f.value for f in helped.response.embeds[0].fields}
    shown = [(f.name, f.value) for f in helped.response.embeds[0].fields]
    start = [name for name, _ in shown].index("Playing")  # the list goes on in unnamed fields past 1,024 characters
    playing = "\n".join(value for name, value in shown[start:] if name in ("Playing", "\u200b"))
    assert "`/scoundrel play [preset] [seed] [health]`" in playing
    assert "`/scoundrel leaderboard [board] [scope] [day] [month]`" in playing
    assert "`/scoundrel remind [when]`" in playing
    for sub in ("daily", "duel", "resume", "abandon", "rules", "stats", "help"):
        assert f"`/scoundrel {sub}" in playing
    assert not any(name.startswith("Server admins") for name in fields)

    admin = admin_of(world)
    fields = {f.name: f.value for f in (await all_commands(admin, world.channel)).response.embeds[0].fields}
    admin_text = fields["Server admins (Manage Server)"]
    assert "`/scoundrel-admin daily channel [time] [role]`" in admin_text
    assert "`/scoundrel-admin daily-off`" in admin_text
    assert "`/scoundrel-admin preset preset`" in admin_text


async def test_seed_suggests_the_players_recent_deals_but_never_a_running_daily(world):
    await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")
    record = await world.store.active_game(world.alice.id, "normal")
    await world.store.abandon(record.id, world.alice.id)
    await world.alice.slash(world.channel, "scoundrel play", seed="K7Q2-M9XD")
    await world.alice.slash(world.channel, "scoundrel daily")  # today's deal: never suggested
    offered = await world.alice.autocomplete(world.channel, "scoundrel play", "seed", "")
    assert [c["value"] for c in offered] == ["K7Q2-M9XD", "0000-0004"]  # newest first
    assert offered[0]["name"] == "K7Q2-M9XD · classic · in progress, room 1"
    assert offered[1]["name"] == "0000-0004 · classic · given up"
    narrowed = await world.alice.autocomplete(world.channel, "scoundrel play", "seed", "k7q")
    assert [c["value"] for c in narrowed] == ["K7Q2-M9XD"]
    assert await world.bob.autocomplete(world.channel, "scoundrel play", "seed", "") == []  # only your own


async def test_leaderboard_day_suggests_recent_dailies_with_their_dates(world):
    await world.env.advance_time(2 * 24 * 3600)  # 2026-01-03: Daily #3
    offered = await world.alice.autocomplete(world.channel, "scoundrel leaderboard", "day", "")
    assert offered == [{"name": "Daily #3 — Sat 03 Jan 2026 (today)", "value": 3},
                       {"name": "Daily #2 — Fri 02 Jan 2026", "value": 2},
                       {"name": "Daily #1 — Thu 01 Jan 2026", "value": 1}]  # nothing before Daily #1
    narrowed = await world.alice.autocomplete(world.channel, "scoundrel leaderboard", "day", "#2")
    assert [c["value"] for c in narrowed] == [2]
