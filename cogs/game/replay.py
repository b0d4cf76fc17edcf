"""Replays: the Replay button under a finished game and ``/scoundrel replay``, the whole game as an animated GIF.

The button is a persistent ``DynamicItem`` (``sc:replay:<game id>``) offered (cogs/offers.py) under every
finished solo game (normal, daily, practice; won, died or given up). A click loads the game, is deferred, and is
answered with the GIF once the replay service (``app.replays.gifs``: one worker thread, a bounded queue, one replay per
player at a time, rendered replays kept) has drawn it; a busy service says so plainly.

A daily's deal is the day's challenge: while its day runs, only its player may see the replay, and privately.
Once the day is over the replay is posted for all to see and, when the day's par line is known, plays the
player's line and then par's ("you against par"), never before.

``/scoundrel replay`` takes one of the player's recent finished games (autocomplete), a daily's number (their
attempt at it) or a duel's number (one they played: ``cogs/duel/replay.py``, whose Replay button is under every
finished duel's board); with none, their latest finished game.
"""

from __future__ import annotations

import io

import discord
from discord import app_commands

from app.errors import ReplayRefused
from app.play import solo
from app.replays import access as replay_access
from app.replays.access import DAILY_KINDS, SUGGESTED
from app.replays.gifs import ReplayBusy, close_replays, shared
from cogs.commands.group import add_subcommands, remove_subcommands
from cogs.duel.replay import MAX_DUEL, replay_own_duel
from cogs.game.commands import how_it_went, recent_for_suggestions
from cogs.game.embed import rules_label
from cogs.plumbing import clock
from cogs.plumbing.errors import GameIdButton, report_error, send_private
from cogs.plumbing.interaction import Interaction
from cogs.text.locale import for_reader
from games.engine import seed_to_text
from games.i18n import ENGLISH, N_, Messages
from games.picture import REPLAY_FILENAME as FILENAME

_state = {"replays": shared()}  # the replay service (a test puts its own here)
NOT_YOURS = N_("That is not one of your games: `/scoundrel replay` lists yours.")
# Why app.replays.access refused, in words.
REFUSALS = {
    replay_access.NOT_OVER: N_("Finish the game first: its replay is drawn once it is over."),
    replay_access.DAY_RUNNING: N_("Play this daily yourself first: its replay would give the deal away."),
    replay_access.CHALLENGE_RUNNING: N_("This game is part of a challenge still running: its replay comes once the "
                                        "challenge closes."),
    replay_access.NOT_YOURS: NOT_YOURS,
    replay_access.NO_ATTEMPT: N_("You have no attempt at daily #{day}."),
    replay_access.NOTHING_YET: N_("You have no finished game to replay yet."),
}


class ReplayButton(GameIdButton, discord.ui.DynamicItem[discord.ui.Button]):
    PREFIX, LABEL, EMOJI, STYLE = "replay", N_("Replay"), "🎞️", discord.ButtonStyle.secondary

    async def run(self, interaction: Interaction) -> None:
        record = await solo.game(interaction.client.store, self.game_id)
        await post_replay(interaction, record)


def replay_extras(record, tr: Messages = ENGLISH) -> list[discord.ui.Item]:
    """The Replay button under a finished solo game (in the player's language ``tr``)."""
    return [ReplayButton(record.id, tr)] if replay_access.replayable(record) else []


async def refuse(interaction: Interaction, refused: ReplayRefused) -> None:
    await send_private(interaction, for_reader(interaction)(REFUSALS[refused.code], day=refused.number))


async def post_replay(interaction: Interaction, record) -> None:
    tr = for_reader(interaction)
    try:
        private = await replay_access.check_game(interaction.client.store, record, interaction.user.id, clock.now())
    except ReplayRefused as refused:
        await refuse(interaction, refused)
        return
    service = _state["replays"]
    busy = service.refusal(interaction.user.id)
    if busy:  # said before the click is answered: the deferred answer would be public
        await send_private(interaction, tr(busy))
        return
    await interaction.response.defer(ephemeral=private, thinking=True)
    par = await replay_access.pars_line(interaction.client.store, record, clock.now())
    state = record.state
    try:
        gif = await service.render(state.rules, state.start_deck, state.history, seed=state.rng_seed, par=par,
                                   abandoned=record.status == "abandoned", title=await first_frame_title(
                                       interaction, record, tr), tr=tr, requester=interaction.user.id)
    except ReplayBusy as late:  # filled up while the game was read: rare, and said in the deferred answer
        await interaction.followup.send(tr(str(late)), ephemeral=True)
        return
    embed = discord.Embed(title=replay_title(record, tr), colour=discord.Colour.dark_green())
    if par is not None:
        embed.description = tr("Your line, then par's: see where the best line went another way.")
    embed.set_image(url=f"attachment://{FILENAME}")
    await interaction.followup.send(embed=embed, file=discord.File(io.BytesIO(gif), FILENAME), ephemeral=private)


async def first_frame_title(interaction: Interaction, record, tr: Messages = ENGLISH) -> str:
    """What the replay's first frame names: the player (the name kept with their games, else their name here)
    and the game (the daily's number, or its seed and preset: two lines of the picture at most)."""
    player = await replay_access.kept_name(interaction.client.store, record.user_id)
    if player is None:  # a game from before names were kept: the player's Discord name, whoever watches
        user = interaction.client.get_user(record.user_id)
        try:
            user = user or await interaction.client.fetch_user(record.user_id)
        except discord.HTTPException:
            user = None
        player = user.display_name if user is not None else None
    if record.kind in DAILY_KINDS and record.day:
        game = tr("Daily #{day}", day=record.day)
    elif record.seed is not None:
        game = tr("Seed {seed}", seed=seed_to_text(record.seed)) + " · " + rules_label(record.rules.with_health(20), tr)
    else:
        game = rules_label(record.rules, tr)
    return f"{player} · {game}" if player else game


def replay_title(record, tr: Messages = ENGLISH) -> str:
    what = tr("Daily #{day}", day=record.day) if record.kind in DAILY_KINDS and record.day else \
        rules_label(record.rules, tr)
    return tr("Replay · {game} · {outcome}", game=what, outcome=how_it_went(record, tr))


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
