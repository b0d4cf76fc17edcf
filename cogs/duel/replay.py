"""The Replay button under a finished duel's board: the whole duel as an animated GIF (``games.picture.duel_replay``).

The button is a persistent ``DynamicItem`` (``sc:dreplay:<duel id>``) that ``cogs.duel.view.render_board`` puts on
the board of every duel played to its end (won, or resigned), as cogs/offers.py declares. Anyone who can see the
board may press it: the duel was played in the open on that board, so its replay is posted for all to see, as a
finished solo game's is (``cogs/game/replay.py``; only a daily's deal, still the day's challenge, is kept private).
A click is deferred while the replay service (``app.replays.gifs``: one worker thread, a bounded queue, one replay per
player at a time, rendered replays kept) draws it; a busy service, a duel still being played, a declined
challenge and a duel that no longer exists are each said plainly and privately.

``/scoundrel replay duel:<number>`` (``cogs/game/replay.py``) posts the same for one of the caller's own duels,
through ``replay_own_duel`` (handed to it by the bot: ``bot.offers.replay_duel``, cogs/offers.py).

The GIF names the players "Player 1" and "Player 2" as the board does; the post's text says who they are.
"""

from __future__ import annotations

import io

import discord

from app.errors import ReplayRefused
from app.play import duels
from app.play.duels import DuelError
from app.replays import access as replay_access
from app.replays.gifs import ReplayBusy, shared
from cogs.duel.board import board_content, refused_text, status_line
from cogs.plumbing.errors import GameIdButton, send_private
from cogs.plumbing.interaction import Interaction
from cogs.text.locale import for_reader
from games.engine import seed_to_text
from games.i18n import ENGLISH, N_, Messages
from games.picture import DUEL_REPLAY_FILENAME as FILENAME

_state = {"replays": shared()}  # the replay service (a test puts its own here)
NOT_OVER = N_("This duel is still being played: its replay is drawn once it is over.")
NEVER_PLAYED = N_("That challenge was never played, so there is nothing to replay.")
NOT_YOUR_DUEL = N_("You played no duel #{number}: a duel's number is in the title of its board.")
REFUSALS = {replay_access.DUEL_NOT_OVER: NOT_OVER, replay_access.NEVER_PLAYED: NEVER_PLAYED,
            replay_access.NOT_YOUR_DUEL: NOT_YOUR_DUEL}


class DuelReplayButton(GameIdButton, discord.ui.DynamicItem[discord.ui.Button]):
    PREFIX, LABEL, EMOJI, STYLE = "dreplay", N_("Replay"), "🎞️", discord.ButtonStyle.secondary

    async def run(self, interaction: Interaction) -> None:
        try:
            record = await replay_access.duel_replay(interaction.client.store, self.game_id)  # the duel's id
        except DuelError as refused:  # a forged id, or a duel gone with an older backup restored
            await send_private(interaction, refused_text(refused, for_reader(interaction)))
            return
        except ReplayRefused as refused:
            await refuse(interaction, refused)
            return
        await post_duel_replay(interaction, record)


def duel_replay_extras(record, tr: Messages = ENGLISH) -> list[discord.ui.Item]:
    """The Replay button under a finished duel's board (in the board's language ``tr``)."""
    return [DuelReplayButton(record.id, tr)] if duels.finished(record) else []


async def refuse(interaction: Interaction, refused: ReplayRefused) -> None:
    await send_private(interaction, for_reader(interaction)(REFUSALS[refused.code], number=refused.number))


async def replay_own_duel(interaction: Interaction, duel_id: int) -> None:
    """``/scoundrel replay duel:<number>``: one of the caller's own duels. Someone else's is refused as if it did
    not exist: a duel played in another server is not shown by its number."""
    try:
        record = await replay_access.own_duel_replay(interaction.client.store, duel_id, interaction.user.id)
    except ReplayRefused as refused:
        await refuse(interaction, refused)
        return
    await post_duel_replay(interaction, record)


async def post_duel_replay(interaction: Interaction, record) -> None:
    """Post a finished duel's replay (``app.replays.access`` has checked it has one)."""
    tr = for_reader(interaction)
    service = _state["replays"]
    busy = service.refusal(interaction.user.id)
    if busy:  # said before the click is answered: the deferred answer is public
        await send_private(interaction, tr(busy))
        return
    await interaction.response.defer(thinking=True)
    state = record.state
    try:
        title = tr("Scoundrel duel #{number}", number=record.id) + " · " + \
            tr("Seed {seed}", seed=seed_to_text(record.seed))
        gif = await service.render_duel(record.seed, state.history, dealer=state.dealer, title=title, tr=tr,
                                        requester=interaction.user.id)
    except ReplayBusy as late:  # filled up meanwhile: rare, and said in the deferred answer
        await interaction.followup.send(tr(str(late)), ephemeral=True)
        return
    embed = discord.Embed(title=tr("Replay · Scoundrel duel #{number}", number=record.id),
                          description=f"{board_content(record, tr)}\n{status_line(record, tr)}",
                          colour=discord.Colour.dark_gold())
    embed.set_image(url=f"attachment://{FILENAME}")
    await interaction.followup.send(embed=embed, file=discord.File(io.BytesIO(gif), FILENAME),
                                    allowed_mentions=discord.AllowedMentions.none())


async def setup(bot) -> None:
    bot.add_dynamic_items(DuelReplayButton)


async def teardown(bot) -> None:
    bot.remove_dynamic_items(DuelReplayButton)
