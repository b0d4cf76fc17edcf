"""A finished solo game's replay posted as an animated GIF: what the Replay button (``cogs/game/replay.py``),
``/scoundrel replay`` and a challenge's replay menu (``cogs/challenge/buttons.py``) answer with.

The replay service (``app.replays.gifs``: one worker thread, a bounded queue, one replay per player at a time,
rendered replays kept) draws it while the click is deferred; a busy service says so plainly. A daily's deal is
the day's challenge: while its day runs, only its player may see the replay, and privately. Once the day is over
the replay is posted for all to see and, when the day's par line is known, plays the player's line and then
par's ("you against par"), never before.
"""

from __future__ import annotations

import io

import discord

from app.errors import ReplayRefused
from app.replays import access as replay_access
from app.replays.access import DAILY_KINDS
from app.replays.gifs import ReplayBusy, shared
from cogs.game_message.embed import how_it_went, rules_label
from cogs.plumbing import clock
from cogs.plumbing.errors import send_private
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
