"""The challenge message's controls: Join, Close (its starter's) and, once closed, a menu of the players' replays.

Persistent ``DynamicItem``\\ s whose custom_id holds the challenge's id, so they work after a restart::

    sc:chjoin:<challenge>      join: the player's own game of the deal, shown to them alone
    sc:chclose:<challenge>     close it now (the starter only)
    sc:chtable:<challenge>     join, and open the table (the Activity) in the channel on the player's game of it
    sc:chreplay:<challenge>    the final standings' menu: a player's game as a replay

None of them edits the standings: the keeper does (cogs/challenge/keeper.py), from the bot's request budget.
Where the bot cannot edit the message itself (a user install), a click is deferred on the challenge's message and
hands the keeper its token, which edits that message for 15 minutes.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from app.challenges import play
from app.errors import ChallengeRefused
from app.play import solo
from cogs.challenge.board import CLOSED_WORDS
from cogs.commands.group import bot_can_post
from cogs.game_message.private import send_private_game
from cogs.game_message.replay import post_replay
from cogs.plumbing.bounds import ID
from cogs.plumbing.errors import NOT_OFFERED, NOT_OPENED, report_error, send_private
from cogs.plumbing.interaction import Interaction
from cogs.text.locale import for_reader
from games.i18n import ENGLISH, N_, Messages

log = logging.getLogger(__name__)
BUSY_WORDS = N_("You are already in a running challenge in this server ([jump to it]({url})): finish it, or wait "
                "for it to close, before joining another.")
BUSY_WORDS_NO_LINK = N_("You are already in a running challenge in this server: finish it, or wait for it to close, "
                        "before joining another.")
JOINED_NOTE = N_("You joined the challenge. Only you can see this game; the standings show your room and health.")
AGAIN_NOTE = N_("You have joined this challenge already: here is your game.")
NOT_PART = N_("That replay is not part of this challenge.")
ONLY_STARTER = N_("Only the player who started this challenge can close it early.")


def refusal_words(refused: ChallengeRefused, tr: Messages, url: str | None = None) -> str:
    if refused.code == play.CLOSED:
        return tr(CLOSED_WORDS)
    if refused.code == play.BUSY:
        return tr(BUSY_WORDS, url=url) if url else tr(BUSY_WORDS_NO_LINK)
    if refused.code == play.NOT_STARTER:
        return tr(ONLY_STARTER)
    return tr("Challenges last from {low} to {high} minutes.", low=play.MIN_MINUTES, high=play.MAX_MINUTES)


def challenge_url(challenge) -> str | None:
    if challenge.channel_id is None or challenge.message_id is None:
        return None
    return f"https://discord.com/channels/{challenge.guild_id or '@me'}/{challenge.channel_id}/{challenge.message_id}"


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=r"sc:ch(?P<what>join|close|table):(?P<id>" + ID + ")"):
    LOOKS = {"join": (N_("Join"), "⚔️", discord.ButtonStyle.success),
             "table": (N_("Play at the table"), "🃏", discord.ButtonStyle.primary),
             "close": (N_("Close now"), "🏁", discord.ButtonStyle.secondary)}

    def __init__(self, what: str, challenge_id: int, tr: Messages = ENGLISH) -> None:
        label, emoji, style = self.LOOKS[what]
        super().__init__(discord.ui.Button(label=tr(label), emoji=emoji, style=style,
                                           custom_id=f"sc:ch{what}:{challenge_id}"))
        self.what, self.challenge_id = what, challenge_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /):
        return cls(match["what"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            if self.what == "table":  # answered with the launch itself: never deferred
                await self.table(interaction)
                return
            keeper: Any = interaction.client.get_cog("StandingsKeeper")
            if keeper is not None and not bot_can_post(interaction):
                # Where the bot cannot post (a user install), the click is deferred on the challenge's message,
                # so this interaction's token edits it for 15 minutes; the answer comes as a private follow-up.
                await interaction.response.defer()
                keeper.token_from(interaction, self.challenge_id)
            await (self.join(interaction) if self.what == "join" else self.close(interaction))
        except Exception as error:
            await report_error(interaction, error, where=f"challenge button {self.custom_id}")

    async def join(self, interaction: Interaction) -> None:
        tr, store = for_reader(interaction), interaction.client.store
        user = interaction.user
        try:
            joined = await play.join(store, self.challenge_id, user.id, user.display_name)
        except ChallengeRefused as refused:
            if refused.code == play.CLOSED:
                self.keeper(interaction, "finish_soon")  # where a token is needed, this click's writes the final
            url = None
            if refused.other is not None:
                url = challenge_url(await play.challenge(store, refused.other))
            await send_private(interaction, refusal_words(refused, tr, url))
            return
        if joined.new:
            self.keeper(interaction, "schedule")  # the standings show the newcomer, in their turn
        game = joined.game
        if game.over:  # joined before and finished: their game, as it ended
            game = await solo.game(store, game.id)
        await send_private_game(interaction, game, tr(JOINED_NOTE if joined.new else AGAIN_NOTE))

    async def table(self, interaction: Interaction) -> None:
        """Join (or find the game already joined), then open the Activity in this channel: the table opens on the
        player's game of the challenge running here (``web.play.challenge_here``), as it does for everyone in the
        challenge who opens it in this channel, so they play its deal together and see each other go."""
        tr, store = for_reader(interaction), interaction.client.store
        if getattr(interaction.client.config, "activity", None) is None:
            await send_private(interaction, tr(NOT_OFFERED))
            return
        try:
            joined = await play.join(store, self.challenge_id, interaction.user.id, interaction.user.display_name)
        except ChallengeRefused as refused:
            url = challenge_url(await play.challenge(store, refused.other)) if refused.other is not None else None
            await send_private(interaction, refusal_words(refused, tr, url))
            return
        if joined.new:
            self.keeper(interaction, "schedule")
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as refused:  # no Activity enabled on the app: the game is in chat all the same
            log.warning("Discord refused to launch the Activity: %s %s", refused.status, refused.text)
            await send_private_game(interaction, joined.game, tr(NOT_OPENED))
        except discord.InteractionResponded:  # deferred by the deadline before it could launch
            await send_private_game(interaction, joined.game, tr(NOT_OPENED))

    def keeper(self, interaction: Interaction, what: str) -> None:
        keeper: Any = interaction.client.get_cog("StandingsKeeper")
        if keeper is not None:
            getattr(keeper, what)(self.challenge_id)

    async def close(self, interaction: Interaction) -> None:
        tr, store = for_reader(interaction), interaction.client.store
        try:
            closed = await play.close(store, self.challenge_id, by=interaction.user.id)
        except ChallengeRefused as refused:
            await send_private(interaction, refusal_words(refused, tr))
            return
        self.keeper(interaction, "finish_soon")  # its final standings: written by the keeper, once
        await send_private(interaction, tr("The challenge is closed: the final standings are on its message.")
                           if closed is not None else tr(CLOSED_WORDS))


class ReplayMenu(discord.ui.DynamicItem[discord.ui.Select], template=r"sc:chreplay:(?P<id>" + ID + ")"):
    """The final standings' menu of replays: one option per player (the first 25), the value their game's id."""

    def __init__(self, challenge_id: int, options: list[discord.SelectOption] | None = None,
                 tr: Messages = ENGLISH) -> None:
        super().__init__(discord.ui.Select(custom_id=f"sc:chreplay:{challenge_id}", placeholder=tr("Watch a replay"),
                                           options=options or [discord.SelectOption(label="-", value="0")]))
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /):
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            data: dict[str, Any] = dict(interaction.data or {})
            values = data.get("values") or ["0"]
            store = interaction.client.store
            challenge = await play.challenge(store, self.challenge_id)
            value = str(values[0])
            record = await solo.game(store, int(value)) if value.isdigit() and len(value) <= 18 else None
            if record is None or record.challenge_id != challenge.id or challenge.running:
                await send_private(interaction, for_reader(interaction)(NOT_PART))
                return
            await post_replay(interaction, record)
        except Exception as error:
            await report_error(interaction, error, where=f"challenge replay {self.custom_id}")


DYNAMIC_ITEMS = (ChallengeButton, ReplayMenu)


def controls(board, tr: Messages, table: bool = False) -> discord.ui.View:
    """Join (and Play at the table, when the bot serves the Activity: ``table``) and Close while the challenge
    runs; the menu of replays once it is closed."""
    from app.challenges.standings import UNFINISHED
    from app.records import DEAD, WON

    view = discord.ui.View(timeout=None)
    challenge = board.challenge
    if challenge.running:
        view.add_item(ChallengeButton("join", challenge.id, tr))
        if table:
            view.add_item(ChallengeButton("table", challenge.id, tr))
        view.add_item(ChallengeButton("close", challenge.id, tr))
        return view
    outcomes = {WON: tr("survived"), DEAD: tr("died"), UNFINISHED: tr("did not finish")}
    options = [discord.SelectOption(label=row.name[:80], value=str(row.game_id),
                                    description=f"{outcomes[row.outcome]}"
                                                + (f" · {row.score}" if row.score is not None else ""))
               for row in board.rows if row.outcome in outcomes][:25]
    if options:
        view.add_item(ReplayMenu(challenge.id, options, tr))
    return view
