"""The floor under a click's cost: the least a discord.py bot can do to answer the loopback benchmark's players.

    .venv/bin/python benchmarks/loopback_load.py --floor          # this bot measured beside the real one

Run by benchmarks/loopback_bot.py in place of ``python -m bot run`` (``LOOPBACK_MODULE``), with the same
transport as the bot: discord.py on uvloop, orjson, the ``guilds`` intent only, the bot's garbage-collector
settings. It keeps no database, runs no game and draws nothing: ``/scoundrel play`` answers with a game message
as the bot's looks (an embed, a table picture of a typical size as an attachment, six buttons whose custom ids
the players read), and a click answers by editing that message with the same picture, the buttons' version one
higher. After ``MOVES`` clicks the cards are disabled, so a player starts a new game, as at a game's end.

What it costs per interaction is what discord.py, aiohttp, the event loop and the interpreter take to receive
an interaction and upload its answer, before any of the bot's own work: the part of the CPU per click that
the bot's code cannot cut.
"""

from __future__ import annotations

import asyncio
import io
import os
import signal

import discord
from discord import app_commands

from bot.client import tune_collector  # the launcher puts the tree on PYTHONPATH
from bot.run import run_loop
from games.engine import apply, legal_actions, new_game
from games.engine.rules import CLASSIC
from games.picture import FILENAME, render_room

MOVES = 12  # clicks per game before its cards are disabled


def typical_table() -> bytes:
    """A mid-game table, drawn once: the picture every answer uploads."""
    state = new_game(CLASSIC, seed=5)
    for _ in range(6):
        state = apply(state, legal_actions(state)[0])
    return render_room(state)


PICTURE = typical_table()


class Unstored(discord.ui.View):
    """Buttons discord.py does not keep for dispatch, as the bot's (whose items are all dynamic): a click comes in
    as ``on_interaction`` only."""

    def is_dispatchable(self) -> bool:
        return False


def game_message(game: int, version: int) -> tuple[discord.Embed, discord.ui.View, discord.File]:
    embed = discord.Embed(title=f"Scoundrel — room {version // 3 + 1}", description="Play 3 of 4 cards, or avoid.",
                          colour=discord.Colour.dark_green())
    embed.set_image(url=f"attachment://{FILENAME}")
    embed.set_footer(text="Seed 5C3A-1F07 · classic")
    view = Unstored(timeout=None)
    over = version >= MOVES
    for code, label in (("T0", "♦️7 equip"), ("T1", "♥️2 +2"), ("T2", "♤4 −4"), ("T3", "♤5 −5")):
        view.add_item(discord.ui.Button(label=label, custom_id=f"sc:g:{game}:{version}:w:{code}", disabled=over,
                                        style=discord.ButtonStyle.primary))
    view.add_item(discord.ui.Button(label="♦️7", custom_id=f"sc:g:{game}:{version}:w:mode", row=1))
    view.add_item(discord.ui.Button(label="Avoid", custom_id=f"sc:g:{game}:{version}:w:A", row=1, disabled=True))
    return embed, view, discord.File(io.BytesIO(PICTURE), filename=FILENAME)


class Floor(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.tree = app_commands.CommandTree(self)
        self.games = 0
        group = app_commands.Group(name="scoundrel", description="Scoundrel")

        @group.command(name="play", description="A new game")
        async def play(interaction: discord.Interaction, seed: str | None = None) -> None:
            self.games += 1
            embed, view, picture = game_message(self.games, 0)
            await interaction.response.send_message(embed=embed, view=view, file=picture)

        self.tree.add_command(group)

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def on_ready(self) -> None:
        tune_collector()  # as the bot's own on_ready

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component or interaction.data is None:
            return
        _, _, game, version, _, _ = str(interaction.data.get("custom_id", "")).split(":")
        embed, view, picture = game_message(int(game), int(version) + 1)
        await interaction.response.edit_message(embed=embed, view=view, attachments=[picture])


async def main() -> None:
    client = Floor()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(client.close()))
    async with client:
        await client.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    run_loop(main())
