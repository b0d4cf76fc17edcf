"""``/scoundrel challenge [preset] [seed] [minutes]``: a challenge in the channel (an extension).

The command posts the challenge's one message: the invite with Join (and Close, for the starter), which then
carries the standings and, once closed, the final standings (cogs/challenge/board.py). The keeper
(cogs/challenge/keeper.py) keeps it; this extension adds the command, the persistent buttons and the keeper.
"""

from __future__ import annotations

import discord
from discord import app_commands

from app.challenges import play, standings
from app.errors import ChallengeRefused
from cogs.challenge.board import embed, starter_of
from cogs.challenge.buttons import DYNAMIC_ITEMS, challenge_url, controls, refusal_words
from cogs.challenge.keeper import StandingsKeeper
from cogs.commands.group import add_subcommands, bot_can_post, remove_subcommands
from cogs.commands.presets import default_preset, preset_choices
from cogs.plumbing.bounds import PUBLIC_POSTS, SEED_LENGTH
from cogs.plumbing.errors import seed_option, send_private
from cogs.plumbing.interaction import Interaction
from cogs.plumbing.respond import send_message
from cogs.text.locale import for_reader
from games.engine import preset as preset_rules
from games.i18n import messages_for


@app_commands.command(name="challenge", description="Challenge the channel: everyone who joins plays the same deal")
@app_commands.describe(preset="Which rules to play (default: this server's preset, else classic)",
                       seed="Play a given deal: the 8-character seed shown under a game, like K7Q2-M9XD",
                       minutes=f"How long it stays open, in minutes (default {play.DEFAULT_MINUTES})")
@app_commands.choices(preset=preset_choices())
@app_commands.checks.cooldown(**PUBLIC_POSTS)
async def challenge(interaction: Interaction, preset: str | None = None,
                    seed: app_commands.Range[str, 1, SEED_LENGTH] | None = None,
                    minutes: app_commands.Range[int, play.MIN_MINUTES, play.MAX_MINUTES] | None = None) -> None:
    tr, store = for_reader(interaction), interaction.client.store
    read, seed_value = await seed_option(interaction, seed, tr)
    if not read:
        return
    rules = preset_rules(preset or await default_preset(interaction))
    # Everyone reads the one message: the server's language where the bot is a member, else the starter's.
    guild = interaction.guild
    locale = str(guild.preferred_locale if guild is not None else interaction.locale)
    try:
        started = await play.start(store, interaction.user.id, rules, guild_id=interaction.guild_id,
                                   channel_id=interaction.channel_id, locale=locale, minutes=minutes,
                                   seed=seed_value)
    except ChallengeRefused as refused:
        url = challenge_url(await play.challenge(store, refused.other)) if refused.other else None
        await send_private(interaction, refusal_words(refused, tr, url))
        return
    board = await standings.board(store, started.id)
    words = messages_for(locale)
    table = getattr(interaction.client.config, "activity", None) is not None  # the bot serves the Activity
    starter = starter_of(board, interaction.user.display_name)
    message = await send_message(interaction, embed=embed(board, words, starter),
                                 view=controls(board, words, table), allowed_mentions=discord.AllowedMentions.none())
    await play.posted(store, started.id, message.channel.id, message.id)
    keeper = interaction.client.get_cog("StandingsKeeper")
    if isinstance(keeper, StandingsKeeper):
        keeper.started(await play.challenge(store, started.id))
        if not bot_can_post(interaction):
            keeper.token_from(interaction, started.id)


async def setup(bot) -> None:
    add_subcommands(challenge)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(StandingsKeeper(bot))


async def teardown(bot) -> None:
    remove_subcommands(challenge)
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
