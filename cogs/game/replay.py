"""Replays: the Replay button under a finished game and ``/scoundrel replay``, the whole game as an animated GIF.

The button is a persistent ``DynamicItem`` (``sc:replay:<game id>``) offered (cogs/offers.py) under every
finished solo game (normal, daily, practice; won, died or given up). A click loads the game and posts its replay
(``cogs.game_message.replay``: deferred while it is drawn, private while a daily's day runs).

``/scoundrel replay`` takes one of the player's recent finished games (autocomplete), a daily's number (their
attempt at it) or a duel's number (one they played: posted by ``cogs/duel/replay.py``, whose Replay button is under
every finished duel's board, reached through ``bot.offers.replay_duel``); with none, their latest finished game.
"""

from __future__ import annotations

import discord
from discord import app_commands

from app.errors import ReplayRefused
from app.play import solo
from app.replays import access as replay_access
from app.replays.access import DAILY_KINDS, SUGGESTED
from app.replays.gifs import close_replays
from cogs.commands.group import add_subcommands, remove_subcommands
from cogs.game.commands import recent_for_suggestions
from cogs.game_message.embed import how_it_went, rules_label
from cogs.game_message.replay import post_replay, refuse
from cogs.plumbing.bounds import MAX_DUEL
from cogs.plumbing.errors import GameIdButton, report_error, send_private
from cogs.plumbing.interaction import Interaction, lent
from cogs.text.locale import for_reader
from games.i18n import ENGLISH, N_, Messages

NO_DUELS = N_("Duels are not available on this bot.")


class ReplayButton(GameIdButton, discord.ui.DynamicItem[discord.ui.Button]):
    PREFIX, LABEL, EMOJI, STYLE = "replay", N_("Replay"), "🎞️", discord.ButtonStyle.secondary

    async def run(self, interaction: Interaction) -> None:
        record = await solo.game(interaction.client.store, self.game_id)
        await post_replay(interaction, record)


def replay_extras(record, tr: Messages = ENGLISH) -> list[discord.ui.Item]:
    """The Replay button under a finished solo game (in the player's language ``tr``)."""
    return [ReplayButton(record.id, tr)] if replay_access.replayable(record) else []


@app_commands.command(name="replay", description="Watch one of your finished games or duels again, move by move")
@app_commands.describe(game="One of your recent finished games (default: the latest)",
                       daily="A daily's number: your attempt at it",
                       duel="A duel's number (in its board's title): one you played")
async def replay(interaction: Interaction, game: str | None = None,
                 daily: app_commands.Range[int, 1, 1_000_000] | None = None,
                 duel: app_commands.Range[int, 1, MAX_DUEL] | None = None) -> None:
    store = interaction.client.store
    try:
        if duel is not None:
            replay_own_duel = lent(interaction.client, interaction.client.offers.replay_duel)
            if replay_own_duel is None:  # the duel's extension is not loaded
                await send_private(interaction, for_reader(interaction)(NO_DUELS))
            else:
                await replay_own_duel(interaction, duel)
            return
        try:
            record = await replay_access.asked_game(store, interaction.user.id, game=game, daily=daily)
        except ReplayRefused as refused:
            await refuse(interaction, refused)
            return
        await post_replay(interaction, record)
    except Exception as error:
        await report_error(interaction, error, where="/scoundrel replay")


@replay.autocomplete("game")
async def game_suggestions(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The player's recent finished games, newest first: rules (or daily number), how it went, when it ended."""
    games = await recent_for_suggestions(interaction, "replay")
    tr = for_reader(interaction)
    typed = current.strip().casefold()
    out = []
    for record in replay_access.suggested(games):
        assert record.rules is not None  # (a replayable game's rules are read)
        ended = record.ended_at or record.started_at
        what = tr("Daily #{day}", day=record.day) if record.kind in DAILY_KINDS and record.day else \
            rules_label(record.rules, tr)
        name = f"{what} · {how_it_went(record, tr)} · {ended:%Y-%m-%d %H:%M} UTC"[:100]
        if typed and typed not in name.casefold():
            continue
        out.append(app_commands.Choice(name=name, value=str(record.id)))
    return out[:SUGGESTED]


async def setup(bot) -> None:
    add_subcommands(replay)
    bot.add_dynamic_items(ReplayButton)


async def teardown(bot) -> None:
    remove_subcommands(replay)
    bot.remove_dynamic_items(ReplayButton)
    await close_replays()
