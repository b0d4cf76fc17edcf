"""Replays: the Replay button under a finished game and ``/scoundrel replay``, the whole game as an animated GIF.

The button is a persistent ``DynamicItem`` (``sc:replay:<game id>``) offered (cogs/offers.py) under every
finished solo game (normal, daily, practice; won, died or given up). A click loads the game, is deferred, and is
answered with the GIF once the replay service (``scoundrel.replays``: one worker thread, a bounded queue, one replay per
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

from cogs.commands.group import add_subcommands, remove_subcommands
from cogs.duel.replay import MAX_DUEL, replay_own_duel
from cogs.game.commands import how_it_went, recent_for_suggestions
from cogs.game.embed import rules_label
from cogs.plumbing import clock
from cogs.plumbing.errors import GameIdButton, report_error, send_private
from cogs.plumbing.interaction import Interaction
from cogs.text.locale import for_reader
from games.engine import decode, seed_to_text
from games.i18n import N_
from games.i18n.messages import ENGLISH, Messages
from games.picture.replay import FILENAME
from scoundrel.daily import day_of
from scoundrel.replays import ReplayBusy, close_replays, shared
from storage import errors as store_errors

FINISHED = ("won", "dead", "abandoned")
DAILY_KINDS = ("daily", "practice")  # storage's kinds whose deal is a day's challenge
SUGGESTED = 25  # Discord shows at most 25 choices
_state = {"replays": shared()}  # the replay service (a test puts its own here)
NOT_YOURS = N_("That is not one of your games: `/scoundrel replay` lists yours.")


class ReplayButton(GameIdButton, discord.ui.DynamicItem[discord.ui.Button]):
    PREFIX, LABEL, EMOJI, STYLE = "replay", N_("Replay"), "🎞️", discord.ButtonStyle.secondary

    async def run(self, interaction: Interaction) -> None:
        record = await interaction.client.store.load_game(self.game_id)
        await post_replay(interaction, record)


def replay_extras(record, tr: Messages = ENGLISH) -> list[discord.ui.Item]:
    """The Replay button under a finished solo game (in the player's language ``tr``)."""
    if record.status not in FINISHED or record.rules is None or record.damaged:
        return []
    return [ReplayButton(record.id, tr)]


def day_running(record) -> bool:
    """A daily (or practice) game whose day is not over yet: its deal is still the day's challenge."""
    return record.kind in DAILY_KINDS and record.day is not None and record.day >= day_of(clock.now())


async def pars_line(store, record):
    """Par's line of a daily's deal once its day is over (never before), when it was solved; else None."""
    if record.kind not in DAILY_KINDS or record.day is None or day_running(record):
        return None
    challenge = await store.get_daily(record.day)
    if challenge is None or not challenge.par_line:
        return None
    return decode(challenge.par_line)


async def post_replay(interaction: Interaction, record) -> None:
    tr = for_reader(interaction)
    if record.status not in FINISHED:
        await send_private(interaction, tr("Finish the game first: its replay is drawn once it is over."))
        return
    private = day_running(record)
    if private and interaction.user.id != record.user_id:
        await send_private(interaction, tr("Play this daily yourself first: its replay would give the deal away."))
        return
    service = _state["replays"]
    busy = service.refusal(interaction.user.id)
    if busy:  # said before the click is answered: the deferred answer would be public
        await send_private(interaction, tr(busy))
        return
    await interaction.response.defer(ephemeral=private, thinking=True)
    par = await pars_line(interaction.client.store, record)
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
    player = (await interaction.client.store.names_for([record.user_id])).get(record.user_id)
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
    tr = for_reader(interaction)
    store = interaction.client.store
    try:
        if duel is not None:
            await replay_own_duel(interaction, duel)
            return
        if daily is not None:
            record = await store.daily_attempt(interaction.user.id, daily)
            if record is None:
                await send_private(interaction, tr("You have no attempt at daily #{day}.", day=daily))
                return
        elif game is not None:
            record = await _own_game(store, game)
            if record is None or record.user_id != interaction.user.id:
                await send_private(interaction, tr(NOT_YOURS))
                return
        else:
            record = next((r for r in await store.recent_games(interaction.user.id, SUGGESTED)
                           if r.status in FINISHED and not r.damaged), None)
            if record is None:
                await send_private(interaction, tr("You have no finished game to replay yet."))
                return
        await post_replay(interaction, record)
    except Exception as error:
        await report_error(interaction, error, where="/scoundrel replay")


async def _own_game(store, typed: str):
    """The game a typed or suggested id names, or None when it names none."""
    if not typed.strip().isdigit():
        return None
    try:
        return await store.load_game(int(typed))
    except store_errors.GameNotFound:
        return None


@replay.autocomplete("game")
async def game_suggestions(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The player's recent finished games, newest first: rules (or daily number), how it went, when it ended."""
    games = await recent_for_suggestions(interaction, "replay")
    tr = for_reader(interaction)
    typed = current.strip().casefold()
    out = []
    for record in games:
        if record.status not in FINISHED or record.damaged or record.rules is None:
            continue
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
