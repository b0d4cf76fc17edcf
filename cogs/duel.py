"""``/scoundrel duel opponent:@user``: challenge someone to the two-player duel (seed 002, ``bot.duel``)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.engine.seeds import SeedError, seed_from_text
from cogs.duel_view import DYNAMIC_ITEMS, mention, render_board
from cogs.errors import send_private
from cogs.group import add_subcommands, remove_subcommands
from storage.duels import DuelBusy, DuelError, create_challenge, set_duel_message


@app_commands.command(name="duel", description="Challenge someone to a two-player Scoundrel duel (cards and dice)")
@app_commands.describe(opponent="Who you want to duel",
                       seed="Replay a deal: the 8-character seed shown under a duel, like K7Q2-M9XD")
async def duel(interaction: discord.Interaction, opponent: discord.User, seed: str | None = None) -> None:
    if opponent.bot:
        await send_private(interaction, "Bots don't duel: challenge a person.")
        return
    try:
        seed_value = seed_from_text(seed) if seed is not None else None
    except SeedError as bad:  # bad input: say what a seed looks like, start nothing
        await send_private(interaction, f"{bad}. Leave `seed` out for a new deal.")
        return
    store = interaction.client.store
    try:
        record = await create_challenge(store, interaction.user.id, opponent.id, interaction.guild_id,
                                        interaction.channel_id, seed=seed_value)
    except DuelBusy as busy:
        who = "You already have" if busy.user_id == interaction.user.id else f"{mention(busy.user_id)} already has"
        await send_private(interaction, f"{who} an open duel (a challenge or a game): finish, decline or resign "
                                        "it first.")
        return
    except DuelError as refused:
        await send_private(interaction, str(refused)[:1].upper() + str(refused)[1:] + ".")
        return
    embed, view = render_board(record)
    await interaction.response.send_message(content=f"{mention(opponent.id)}, you are challenged!", embed=embed,
                                            view=view, allowed_mentions=discord.AllowedMentions(users=[opponent]))
    message = await interaction.original_response()
    await set_duel_message(store, record.id, message.channel.id, message.id)


async def setup(bot) -> None:
    add_subcommands(duel)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)


async def teardown(bot) -> None:
    remove_subcommands(duel)
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
