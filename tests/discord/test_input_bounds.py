"""Bad input and abuse: every option and custom_id part is bounded, refused briefly, and changes nothing."""

from __future__ import annotations

import discord
import pytest
import simcord
from discord import app_commands

from cogs.plumbing.bounds import SEED_LENGTH
from cogs.plumbing.clicks import UNKNOWN_BUTTON
from cogs.plumbing.errors import UNEXPECTED
from tests.daily.helpers import admin_of
from tests.discord.harness import button_by_code, click_on_snapshot, private_notes, snapshot

LONG = "K" * 2500


def option(world, command: str, name: str) -> dict:
    """An option of a slash command as it is synced to Discord (what the client enforces)."""
    group, sub = command.split()
    payload = world.bot.tree.get_command(group).to_dict(world.bot.tree)
    sub_payload = next(o for o in payload["options"] if o["name"] == sub)
    return next(o for o in sub_payload["options"] if o["name"] == name)


async def test_text_options_declare_a_max_length_that_discord_enforces(world):
    assert option(world, "scoundrel play", "seed")["max_length"] == SEED_LENGTH
    assert option(world, "scoundrel duel", "seed")["max_length"] == SEED_LENGTH
    assert option(world, "scoundrel-admin daily", "time")["max_length"] == 8
    with pytest.raises(simcord.SetupError):  # Discord's client refuses it before the bot ever sees it
        await world.alice.slash(world.channel, "scoundrel play", seed=LONG)
    assert await world.store.active_game(world.alice.id, "normal") is None


@pytest.mark.parametrize("text", ["K" * SEED_LENGTH, "ÜÜÜÜ-ÜÜÜÜ", "@everyone", "`x`" * 5])
async def test_a_bad_seed_is_refused_briefly_without_echoing_it_in_full(world, text):
    result = await world.alice.slash(world.channel, "scoundrel play", seed=text)
    [note] = private_notes(result)
    assert "is not a seed" in note and "K7Q2-M9XD" in note and len(note) < 200
    assert note != UNEXPECTED and "@everyone" not in note.replace("`@everyone`", "")
    assert await world.store.active_game(world.alice.id, "normal") is None
    assert world.channel.history() == []


async def test_a_bad_post_time_is_refused_briefly(world):
    admin = admin_of(world)
    result = await admin.slash(world.channel, "scoundrel-admin daily", channel=world.channel, time="99:99:99")
    [note] = private_notes(result)
    assert "is not a time" in note and "Nothing was changed" in note and len(note) < 200
    assert not (await world.store.get_guild_settings(world.guild.id)).daily_scheduled


@pytest.mark.parametrize("custom_id", [
    "sc:g:" + "9" * 40 + ":0:w:T0",  # a game id no database holds (and no 64-bit integer)
    "sc:g:1:0:w:" + "T" * 60,  # an action code that does not exist
    "sc:rules:" + "9" * 50,
    "sc:nonsense",
    "someone-elses-button",
])
async def test_a_forged_or_unknown_custom_id_gets_a_short_answer(world, custom_id):
    message = (await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")).response.message
    result = await click_on_snapshot(world.alice, snapshot(world.alice, message), custom_id)
    assert result.acknowledged
    assert private_notes(result) == [UNKNOWN_BUTTON]
    assert (await world.store.active_game(world.alice.id, "normal")).version == 0


async def test_a_forged_game_id_in_bounds_is_answered_as_a_missing_game(world):
    message = (await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")).response.message
    forged = button_by_code(message, "T0").custom_id.replace("sc:g:1:", "sc:g:424242:")
    result = await click_on_snapshot(world.alice, snapshot(world.alice, message), forged)
    [note] = private_notes(result)
    assert "no longer exists" in note
    assert (await world.store.active_game(world.alice.id, "normal")).version == 0


def expect_cooldown(world) -> None:
    """The refusal went through the tree's error handler, which SimCord records: acknowledge exactly that."""
    with pytest.raises(ExceptionGroup) as caught:
        world.env.raise_errors()
    assert all(isinstance(e, app_commands.CommandOnCooldown) for e in caught.value.exceptions)


async def test_public_commands_have_a_cooldown(world):
    await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")
    for _ in range(3):
        result = await world.alice.slash(world.channel, "scoundrel resume")
        assert not result.ephemeral
    refused = await world.alice.slash(world.channel, "scoundrel resume")
    [note] = private_notes(refused)
    assert note.startswith("Slow down a little")
    expect_cooldown(world)
    posted = len(world.channel.history())
    assert posted == 4  # the game, and its three reposts
    # Another member is not slowed down by alice.
    assert not (await world.bob.slash(world.channel, "scoundrel stats")).ephemeral


async def test_duel_challenges_cannot_ping_someone_over_and_over(world):
    first = await world.alice.slash(world.channel, "scoundrel duel", opponent=world.bob)
    stored = world.env.backend.get_message(world.channel.id, first.response.message.id)
    assert stored.allowed_mentions.allows_user(world.bob.id)  # the challenge is for bob: it may ping him
    assert not stored.allowed_mentions.allows_user(world.alice.id)
    await world.alice.slash(world.channel, "scoundrel duel")  # reposts: no ping
    again = await world.alice.slash(world.channel, "scoundrel duel", opponent=world.bob)
    assert private_notes(again)[0].startswith("Slow down a little")
    expect_cooldown(world)


async def test_messages_ping_no_one_by_default(world):
    assert world.bot.allowed_mentions.to_dict() == discord.AllowedMentions.none().to_dict()
    message = (await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")).response.message
    result = await world.bob.click(message, custom_id=button_by_code(message, "T0").custom_id)
    assert f"<@{world.alice.id}>" in private_notes(result)[0]  # names the owner, without pinging her
    stored = world.env.backend.get_message(world.channel.id, result.response.message.id)
    assert not stored.allowed_mentions.allows_user(world.alice.id)
