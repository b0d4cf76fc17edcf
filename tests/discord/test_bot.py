"""The bot process: intents, command sync, the central error handler, the game-over extension point."""

from __future__ import annotations

import dataclasses
import gc
import logging
import sqlite3

import discord
import simcord

from cogs.plumbing.errors import DATABASE_DOWN
from cogs.plumbing.interaction import Offer
from tests.discord.harness import buttons, make_bot, private_notes

GUILD_ID = 900000000000000001


async def test_only_the_guilds_intent(world):
    intents = world.bot.intents
    assert intents == discord.Intents(guilds=True)  # what test_intents.py shows it needs, and nothing privileged
    assert not (intents.members or intents.presences or intents.message_content)


async def test_only_a_bot_that_owns_its_process_freezes_the_garbage_collector(tmp_path):
    # A frozen object is never collected: a bot among others (tests, a benchmark's second bot) must not freeze,
    # or every closed bot would stay in memory; the process's own bot freezes what start-up made.
    for own_process in (False, True):
        gc.unfreeze()
        thresholds = gc.get_threshold()
        bot = make_bot(tmp_path / f"{own_process}.sqlite3", own_process=own_process)
        env = simcord.Env(bot)
        await env.start()
        try:
            assert (gc.get_freeze_count() > 0) is own_process
            assert (gc.get_threshold() != thresholds) is own_process
        finally:
            await env.shutdown()
            await bot.close()
            gc.unfreeze()
            gc.set_threshold(*thresholds)


async def test_dev_guild_sync_puts_the_commands_in_that_guild_only(tmp_path):
    bot = make_bot(tmp_path / "dev.sqlite3", dev_guild_id=GUILD_ID)
    env = simcord.Env(bot)
    dev = env.create_guild("Dev", id=GUILD_ID)  # before start: the bot syncs to this id in setup_hook
    other = env.create_guild("Elsewhere")
    await env.start()
    try:
        with env.time_context():
            alice = dev.add_member(env.create_user("alice"))
            bob = other.add_member(env.create_user("bob"))
            assert "scoundrel play" in alice.available_commands(dev.create_text_channel("dev"))
            assert "scoundrel play" not in bob.available_commands(other.create_text_channel("general"))
    finally:
        await env.shutdown()
        await bot.close()


async def test_a_failing_command_gets_a_private_apology_and_the_traceback_is_logged(world, caplog):
    await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")
    record = await world.store.active_game(world.alice.id, "normal")
    with sqlite3.connect(world.database) as db:
        db.execute("UPDATE games SET snapshot = 'garbage', deck = 'Z99' WHERE id = ?", (record.id,))
    result = await world.alice.slash(world.channel, "scoundrel resume")
    simcord.assert_error(world.env, Exception, contains="damaged")  # went through tree.on_error
    assert result.ephemeral and "saved data is damaged" in result.response.content
    assert any(r.name == "cogs.plumbing.errors" and r.exc_info for r in caplog.records)

    # The way out the message names: abandon works on a damaged game, then a new game can start.
    ask = await world.alice.slash(world.channel, "scoundrel abandon")
    assert "its saved data is damaged" in ask.response.content
    await world.alice.click(ask.response, label="Abandon game")
    assert ask.response.content.startswith("Game abandoned")
    fresh = await world.alice.slash(world.channel, "scoundrel play")
    assert not fresh.ephemeral and fresh.response.embeds[0].title == "Scoundrel — room 1"


async def test_a_database_that_is_down_is_answered_plainly_and_logged(world, caplog):
    await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")
    message = world.channel.last_message
    await world.bot.store.close()  # the database goes away under the bot
    cid = next(b.custom_id for b in buttons(message) if b.custom_id.endswith(":T0"))
    click = await world.alice.click(message, custom_id=cid)
    assert private_notes(click) == [DATABASE_DOWN]
    # one line an operator reads, not a traceback (cogs/plumbing/outages.py)
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.name for r in logged] == ["cogs.plumbing.outages"] and logged[0].exc_info is None
    assert "the store is closed" in logged[0].getMessage()


async def test_a_finished_game_offers_what_is_declared_in_order(world, monkeypatch):
    async def finish(seed):
        await world.alice.slash(world.channel, "scoundrel play", seed=seed)
        record = await world.store.active_game(world.alice.id, "normal")
        message = world.channel.last_message
        while True:  # play the leftmost card until the game ends
            ids = [b.custom_id for b in buttons(message) if b.custom_id and not b.disabled
                   and b.custom_id.startswith("sc:g:") and b.custom_id.split(":")[-1] not in ("mode", "A")]
            if not ids:
                break
            await world.alice.click(message, custom_id=ids[0])
            message = world.channel.last_message
        return record, [b.label for b in buttons(message)]

    _, labels = await finish("0000-0004")
    assert labels == ["New game", "Replay"]  # (Review and Best possible need the solver, which this bot lacks)
    # in the order declared
    monkeypatch.setattr(world.bot, "offers", dataclasses.replace(world.bot.offers, finished=(
        Offer("cogs.game.replay", "replay_extras"), Offer("cogs.game.commands", "new_game_extras"))))
    _, labels = await finish("0000-0005")
    assert labels == ["Replay", "New game"]
    # an offer goes with its extension: unloaded, its button is no longer offered
    await world.bot.unload_extension("cogs.game.replay")
    _, labels = await finish("0000-0006")
    assert labels == ["New game"]
