"""The bot asks the gateway for its servers (the ``guilds`` intent) and nothing more: no message event reaches it,
neither the echo of its own table on every click nor a player's chat, and the game is played all the same."""

from __future__ import annotations

MESSAGE_EVENTS = ("MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE", "TYPING_START", "MESSAGE_REACTION_ADD")


async def test_no_message_event_reaches_the_bot_and_the_game_plays_on(world):
    bot = world.bot
    parsed = []
    parsers = bot._connection.parsers
    for event in MESSAGE_EVENTS:  # what reaches discord.py's own parsers from the (simulated) gateway
        def counting(data, parse=parsers[event], event=event):
            parsed.append(event)
            parse(data)

        parsers[event] = counting
    await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")  # the bot posts its table
    game = world.channel.last_message
    first = next(b.custom_id for row in game.components for b in row.children if (b.custom_id or "").endswith(":T0"))
    await world.alice.click(game, custom_id=first)  # and edits it
    edited = world.channel.last_message
    assert edited.id == game.id and ":1:" in edited.components[0].children[0].custom_id  # the move was made
    await world.alice.send(world.channel, "good luck")  # a player's chat
    assert parsed == [] and list(bot.cached_messages) == []
    guild = bot.get_guild(world.guild.id)  # the servers and their channels are still known (daily posts need them)
    assert guild is not None and guild.get_channel(world.channel.id) is not None
    assert bot.intents.guilds and not (bot.intents.guild_messages or bot.intents.dm_messages or bot.intents.typing)
