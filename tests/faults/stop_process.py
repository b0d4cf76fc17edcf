"""A bot process under load that is stopped by a real signal, for tests/faults/test_clean_stop.py.

    python -m tests.faults.stop_process DATABASE PLAYERS

The real ``ScoundrelBot`` on the SQLite file DATABASE under SimCord, with ``bot.run``'s own signal handling
(``stop_on_signals``). PLAYERS players each start a game and click its moves as fast as they are answered, in turn,
until the bot stops. Prints ``{"ready": true}`` once the clicking has begun, and, when the stop is done,
one JSON line: per player, the game id and each click's outcome (``moved`` when the game message was edited as
the answer, else the private text the player was told).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from pathlib import Path

import simcord

from bot.run import stop_on_signals
from tests.discord.harness import answer_kind, make_bot, private_notes
from tests.discord.shard_process import move_button


def say(**fields) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


async def keep_clicking(bot, players, channel, outcomes: list[list[str]], begun: asyncio.Event) -> None:
    """The players in turn (SimCord runs one interaction at a time), each clicking a move of their game."""
    shown = {}
    while not bot.stopping:
        for n, player in enumerate(players):
            if bot.stopping:
                return
            message = shown.get(n)
            try:
                custom_id = move_button(message) if message is not None else None
            except StopIteration:  # the game ended
                custom_id = None
            if custom_id is None:
                await player.slash(channel, "scoundrel play")
                shown[n] = channel.last_message
                continue
            result = await player.click(message, custom_id=custom_id)
            kind = answer_kind(result)
            notes = private_notes(result)
            outcomes[n].append("moved" if kind in ("update", "deferred_update") and not notes else (notes or [kind])[0])
            if all(outcomes):
                begun.set()
            shown[n] = next(m for m in channel.history() if m.id == message.id)


async def main(database: str, players: int) -> None:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    bot = make_bot(Path(database))
    async with simcord.run(bot, settle_timeout=30) as env:
        stopped = stop_on_signals(bot)
        guild = env.create_guild("Dungeon Hall")
        channel = guild.create_text_channel("general")
        actors = [guild.add_member(env.create_user(f"player{n}")) for n in range(players)]
        outcomes: list[list[str]] = [[] for _ in actors]
        begun = asyncio.Event()  # every player has clicked once
        clicking = asyncio.create_task(keep_clicking(bot, actors, channel, outcomes, begun))
        await asyncio.wait({clicking, asyncio.ensure_future(begun.wait())}, return_when=asyncio.FIRST_COMPLETED)
        say(ready=True, users=[actor.id for actor in actors])
        await stopped.wait()
        results = await asyncio.gather(clicking, return_exceptions=True)
        say(outcomes=outcomes, errors=[repr(r) for r in results if isinstance(r, BaseException)],
            closed=bot.is_closed())


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
