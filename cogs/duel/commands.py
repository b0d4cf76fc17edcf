"""``/scoundrel duel opponent:@user``: challenge someone to the two-player duel (``games.duel``, docs/RULES.md).

Without ``opponent`` the command posts the caller's open duel (challenge or game) here again, so a lost or
buried board is never the end of a duel.
"""

from __future__ import annotations

import discord
from discord import app_commands

from app.play import duels
from app.play.duels import CHALLENGED, DuelError, DuelRefused, OpponentBusy
from cogs.commands.group import add_subcommands, bot_can_post, remove_subcommands
from cogs.duel.board import board_content, board_files, duel_url, mention, player_name, refusal_reason
from cogs.duel.view import DYNAMIC_ITEMS, render_board
from cogs.plumbing.bounds import CHALLENGES, SEED_LENGTH
from cogs.plumbing.errors import seed_option, send_private
from cogs.plumbing.interaction import Interaction
from cogs.plumbing.respond import send_message
from cogs.text.command_text import slash
from cogs.text.locale import for_reader
from games.i18n import N_, Messages


@app_commands.command(name="duel", description="Challenge someone to a two-player Scoundrel duel (cards and dice)")
@app_commands.describe(opponent="Who you want to duel (leave out to post your open duel here again)",
                       seed="Replay a deal: the 8-character seed shown under a duel, like K7Q2-M9XD")
@CHALLENGES
async def duel(interaction: Interaction, opponent: discord.User | None = None,
               seed: app_commands.Range[str, 1, SEED_LENGTH] | None = None) -> None:
    if opponent is None:
        await repost(interaction)
        return
    await challenge(interaction, opponent, seed)


async def challenge(interaction: Interaction, opponent: discord.abc.User, seed: str | None) -> None:
    """Challenge ``opponent`` (the slash command and the member menu): refusals are private, the board public
    (written in the challenger's language: the challenger's command posts it)."""
    store, tr = interaction.client.store, for_reader(interaction)
    if not in_a_server_with_the_bot(interaction):
        await send_private(interaction, tr(DUEL_NEEDS_SERVER))
        return
    try:
        duels.check_opponent(interaction.user.id, opponent.id, opponent_is_bot=opponent.bot)
    except DuelRefused as refused:
        await send_private(interaction, tr("You can't duel yourself: challenge someone else.")
                           if refused.code == duels.SELF_DUEL else tr("Bots don't duel: challenge a person."))
        return
    read, seed_value = await seed_option(interaction, seed, tr)
    if not read:
        return
    try:
        record = await duels.challenge(store, interaction.user.id, opponent.id, opponent_is_bot=opponent.bot,
                                       guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                                       seed=seed_value, names=(account_name(interaction.user), account_name(opponent)))
    except OpponentBusy as busy:
        await send_private(interaction, busy_text(tr, busy, interaction.user.id))
        return
    except DuelError as refused:
        text = refusal_reason(refused, tr)
        await send_private(interaction, text[:1].upper() + text[1:] + ".")
        return
    await post_board(interaction, record, content=tr("{opponent}, you are challenged!", opponent=mention(opponent.id)),
                     mentions=discord.AllowedMentions(users=[opponent]))


def account_name(user: discord.abc.User) -> str:
    """The name kept with a duel: the account's, never a server nickname (the same name in every server)."""
    return user.global_name or user.name


def busy_text(tr: Messages, busy: OpponentBusy, user_id: int) -> str:
    """Why a challenge was refused: a player (``busy.user_id``) already has an open duel (``busy.record``), linked
    when its board is known."""
    open_duel = busy.record
    url = duel_url(open_duel)
    if busy.user_id == user_id:
        text = tr("You already have an open duel (a challenge or a game): finish, decline or resign it first.")
    else:
        seat = open_duel.seat(busy.user_id)
        text = tr("{player} already has an open duel (a challenge or a game): finish, decline or resign it first.",
                  player=mention(busy.user_id) if seat is None else player_name(open_duel, seat))
    return text + " " + tr("[Jump to it]({url}).", url=url) if url else text


DUEL_NEEDS_SERVER = N_("Duels are played in a server channel that has the bot: both players watch one board there, "
                       "and the bot keeps it up to date. Challenge from such a server.")


def in_a_server_with_the_bot(interaction: Interaction) -> bool:
    return interaction.guild_id is not None and bot_can_post(interaction)


async def repost(interaction: Interaction) -> None:
    tr = for_reader(interaction)
    if not in_a_server_with_the_bot(interaction):
        await send_private(interaction, tr(DUEL_NEEDS_SERVER))
        return
    record = await duels.open_duel(interaction.client.store, interaction.user.id)
    if record is None:
        await send_private(interaction, tr("You have no open duel — challenge someone with `{command}@someone`.",
                                           command=slash(tr, "duel", "opponent")))
        return
    # A copy pings no one, so it names the opponent (the first post's mention pinged them).
    content = tr("{opponent}, you are challenged!", opponent=player_name(record, 1)) \
        if record.status == CHALLENGED else None
    await post_board(interaction, record, content=content, mentions=discord.AllowedMentions.none())


async def post_board(interaction: Interaction, record, *, content: str | None,
                     mentions: discord.AllowedMentions) -> None:
    """Send the board and make it the duel's live message: moves update this copy (older copies' buttons still
    work, but their pictures are no longer kept up to date). It is written in the language of whoever posts it."""
    tr = for_reader(interaction)
    embed, view = render_board(record, tr, interaction.client)
    content = content if content is not None else board_content(record, tr)  # a challenge's content pings
    message = await send_message(interaction, content=content, embed=embed, view=view, allowed_mentions=mentions,
                                 files=await board_files(record, tr))
    await duels.board_posted(interaction.client.store, record.id, message.channel.id, message.id)


async def setup(bot) -> None:
    add_subcommands(duel)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)


async def teardown(bot) -> None:
    remove_subcommands(duel)
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
