"""The gateway's echoes of the bot's own messages are dropped before discord.py parses them; other people's
messages are parsed as before."""

from __future__ import annotations

from bot.echoes import ECHOED


async def test_the_bots_own_sends_and_edits_are_not_parsed_but_a_players_message_is(world):
    parsed = []
    for event in ECHOED:  # count what reaches discord.py's own parser, behind the filter
        others_only = world.bot._connection.parsers[event]

        def counting(data, parse=others_only.parse, event=event):
            parsed.append((event, data["author"]["id"]))
            parse(data)

        others_only.parse = counting
    await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")  # the bot posts its table
    game = world.channel.last_message
    await world.alice.click(game, custom_id=next(b.custom_id for row in game.components for b in row.children
                                                 if (b.custom_id or "").endswith(":T0")))  # and edits it
    assert parsed == [] and not any(m.author.id == world.bot.user.id for m in world.bot.cached_messages)
    await world.alice.send(world.channel, "good luck")
    assert parsed == [("MESSAGE_CREATE", str(world.alice.id))]
