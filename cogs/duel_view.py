"""Duel messages: the public board, the private hand with its controls, and their persistent buttons.

Every control is a ``DynamicItem`` whose custom_id holds what the click needs, so it works after a restart::

    sc:duelc:<duel id>:<acc|dec>               challenge: accept / decline (or withdraw)
    sc:duel:<duel id>:<version>:<what>         hand (show my hand), resign (ask), or an action code (P02, F1, D, R0)
    sc:duelp:<duel id>:<version>:<n>           select menu n of card plays; each option's value is an action code

A click whose version is not the duel's is refused as out of date; ``storage.duels.play_duel`` lets exactly one of
two racing clicks through.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import re

import discord

from bot.duel import PAIRS, PLACING, DuelAction, IllegalDuelAction, legal_actions, refusal
from bot.duel.game import ANY_CARD_DIE
from bot.duel.text import event_text, hand_text, rules_text
from bot.engine.seeds import seed_to_text
from bot.picture.duel import FILENAME as DUEL_FILENAME
from bot.picture.duel import render_duel
from cogs.bounds import ID, VERSION
from cogs.card_text import readable
from cogs.errors import report_error, send_private
from cogs.respond import edit_message, in_time
from storage.duels import (
    ABANDONED,
    CHALLENGED,
    DECLINED,
    DuelError,
    answer_challenge,
    load_duel,
    play_duel,
    resign_action,
)

log = logging.getLogger(__name__)

SELECT_LIMIT = 25  # options per Discord select menu
GOAL = "Goal: finish one column of 4+ cards, two of 5+ and one of 6+."


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def status_line(record) -> str:
    state, players = record.state, record.players
    if record.status == CHALLENGED:
        return f"{mention(players[0])} challenges {mention(players[1])} to a Scoundrel duel."
    if record.status == DECLINED:
        return "The challenge was declined."
    if state.over:
        how = " (the other player resigned)" if record.status == ABANDONED else ""
        return f"🏆 {mention(players[state.winner])} wins{how}!"
    who = mention(players[state.actor])
    if state.phase == PLACING:
        return f"{who} rolled **{' '.join(map(str, state.dice))}** and places the dice."
    role = "roller" if state.actor == state.roller else "non-roller"
    return f"{who} ({role}) plays cards. Press **My hand** to see yours."


def has_picture(record) -> bool:
    """A started duel's board is a picture; a challenge is only words."""
    return record.status not in (CHALLENGED, DECLINED)


def board_embed(record) -> discord.Embed:
    state = record.state
    lines = [status_line(record)]
    if has_picture(record):
        names = tuple(mention(user) for user in record.players)
        lines.insert(0, f"Player 1: {names[0]} · Player 2: {names[1]}")
        lines += [f"· {readable(event_text(event, names))}" for event in state.events]
    embed = discord.Embed(title=f"Scoundrel duel #{record.id}", description="\n".join(lines),
                          colour=discord.Colour.dark_gold() if state.over else discord.Colour.dark_purple())
    if record.status == CHALLENGED:
        embed.add_field(name="How it goes", value=f"Two players, one deck, three dice. {GOAL} "
                                                  "Accept to start; the challenger rolls first.", inline=False)
        return embed
    embed.set_image(url=f"attachment://{DUEL_FILENAME}")
    # stock, stolen pile and hand sizes are on the picture
    embed.set_footer(text=f"Turn {state.turn} · seed {seed_to_text(record.seed)}")
    return embed


def render_board(record) -> tuple[discord.Embed, discord.ui.View]:
    view = discord.ui.View(timeout=None)
    if record.status == CHALLENGED:
        view.add_item(ChallengeButton(record.id, "acc"))
        view.add_item(ChallengeButton(record.id, "dec"))
    elif record.open:
        view.add_item(DuelButton(record.id, record.version, "hand", label="My hand", emoji="🂠",
                                 style=discord.ButtonStyle.primary))
        view.add_item(DuelButton(record.id, record.version, "resign", label="Resign", emoji="🏳️"))
    if record.open:
        view.add_item(DuelRulesButton())
    return board_embed(record), view


async def board_files(record) -> list[discord.File]:
    """The board's picture as the message's attachments (none for a challenge), drawn in a worker thread."""
    if not has_picture(record):
        return []
    png = await asyncio.to_thread(_board_png, record.state)
    return [discord.File(io.BytesIO(png), filename=DUEL_FILENAME, description="The duel board")]


@functools.lru_cache(maxsize=64)
def _board_png(state) -> bytes:  # a move redraws the public board and the mover's hand: one drawing for both
    return render_duel(state)


def duel_url(record) -> str | None:
    if record.message_id is None or record.channel_id is None:
        return None
    return f"https://discord.com/channels/{record.guild_id or '@me'}/{record.channel_id}/{record.message_id}"


# --- the private hand -------------------------------------------------------------------------------------
def _play_label(state, action: DuelAction) -> str:
    mine = state.columns[state.actor][action.pair]
    theirs = state.columns[1 - state.actor][action.pair]
    if action.kind == "B":
        on = f"on {mine.top.label}" if mine.top else "empty column"
        die = state.die_on(action.pair)
        left = (1 if die == ANY_CARD_DIE else die) - state.usage[action.pair]
        return readable(f"{action.card.label} on your pair {action.pair + 1} ({on}; 🎲{die}: {left} more allowed)")
    count = len(theirs.cards)
    return readable(f"{action.card.label}: steal pair {action.pair + 1} ({count} card{'s' if count != 1 else ''})")


def render_hand(record, seat: int) -> tuple[discord.Embed, discord.ui.View]:
    state = record.state
    view = discord.ui.View(timeout=None)
    yours = record.open and not state.over and state.actor == seat
    line = ("Your turn: place the dice." if state.phase == PLACING else "Your turn to play cards.") if yours \
        else status_line(record)
    embed = discord.Embed(title=f"Your hand · duel #{record.id}", colour=discord.Colour.dark_teal(),
                          description=f"**{readable(hand_text(state.hands[seat]))}** · you are player {seat + 1}"
                                      f"\n{line}")
    embed.set_image(url=f"attachment://{DUEL_FILENAME}")  # the board, as on the public message
    if not record.open or state.over:
        return embed, view
    if state.actor != seat:
        embed.set_footer(text="Not your turn yet: press My hand again when it is.")
        return embed, view
    make = lambda code, **kw: DuelButton(record.id, record.version, code, **kw)  # noqa: E731
    if state.phase == PLACING:
        die = state.placed.index(-1)
        value = state.dice[die]
        for pair in range(PAIRS):
            code = f"P{die}{pair}"
            view.add_item(make(code, label=f"🎲{value} → pair {pair + 1}", style=discord.ButtonStyle.primary,
                               disabled=refusal(state, DuelAction.parse(code)) is not None, row=0))
        embed.set_footer(text=f"Place the {value} (dice left: {sum(p == -1 for p in state.placed)}). {GOAL}")
        return embed, view
    legal = legal_actions(state)
    plays = [a for a in legal if a.kind in ("B", "S")]
    for n in range(0, min(len(plays), 3 * SELECT_LIMIT), SELECT_LIMIT):
        chunk = plays[n:n + SELECT_LIMIT]
        options = [discord.SelectOption(label=_play_label(state, a), value=a.code) for a in chunk]
        view.add_item(DuelPlaySelect(record.id, record.version, n // SELECT_LIMIT, options=options,
                                     placeholder="Play a card…" if n == 0 else "More plays…"))
    for action in legal:
        if action.kind == "F":
            view.add_item(make(action.code, label=f"Finish pair {action.pair + 1}", emoji="✅",
                               style=discord.ButtonStyle.success, row=3))
    view.add_item(make("D", label="Done", emoji="⏭️", style=discord.ButtonStyle.danger, row=3))
    embed.set_footer(text=("No card fits anywhere: press Done." if not plays else
                           "Pick a card and where it goes; Finish a column of 4+ when you like; Done ends your play.")
                     + f" {GOAL}")
    return embed, view


# --- clicks -----------------------------------------------------------------------------------------------
async def refresh_board(client: discord.Client, record) -> None:
    """Edit the public board message to match ``record`` (it may have been deleted: then just log)."""
    if record.channel_id is None or record.message_id is None:
        return
    embed, view = render_board(record)
    files = await board_files(record)
    try:
        channel = client.get_channel(record.channel_id) or await client.fetch_channel(record.channel_id)
        await channel.get_partial_message(record.message_id).edit(embed=embed, view=view, attachments=files)
    except discord.HTTPException:
        log.warning("could not update the board of duel %s", record.id, exc_info=True)


def outsider_text(record) -> str:
    return (f"This duel is between {mention(record.players[0])} and {mention(record.players[1])} — "
            "challenge someone with `/scoundrel duel`.")


STALE = "The duel had moved on, so that did nothing: here is your hand as it is now."


async def handle_action(interaction: discord.Interaction, duel_id: int, version: int, code: str) -> None:
    """A move from a player's hand, answered with the hand redrawn (one request) unless the work is slow.
    A move made on an older hand than the duel's (a double press, or the other device) redraws the hand."""
    store = interaction.client.store
    record = await in_time(interaction, load_duel(store, duel_id))
    seat = record.seat(interaction.user.id)
    if seat is None:
        await send_private(interaction, outsider_text(record))
        return
    if not record.open:
        await send_private(interaction, "This duel is over.")
        return
    if code == "R":
        version = record.version  # resigning stands whatever has happened meanwhile
    if record.version != version:
        embed, view = render_hand(record, seat)
        await edit_message(interaction, content=STALE, embed=embed, view=view, attachments=await board_files(record))
        return
    try:
        action = resign_action(record, interaction.user.id) if code == "R" else DuelAction.parse(code)
        record = await in_time(interaction, play_duel(store, duel_id, interaction.user.id, version, action))
    except (DuelError, IllegalDuelAction) as refused:
        await send_private(interaction, f"You can't do that: {refused}.")
        return
    if code == "R":
        await edit_message(interaction, content="You resigned.", embed=None, view=None, attachments=[])
    else:
        embed, view = render_hand(record, seat)
        await edit_message(interaction, content=None, embed=embed, view=view, attachments=await board_files(record))
    await refresh_board(interaction.client, record)


class DuelButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"sc:duel:(?P<duel>{ID}):(?P<version>{VERSION}):(?P<what>hand|resign|R|D|P[0-9]{{2}}|F[0-9])"):
    def __init__(self, duel_id: int, version: int, what: str, *, label: str = "", emoji: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or None, emoji=emoji, style=style, disabled=disabled, row=row,
                                           custom_id=f"sc:duel:{duel_id}:{version}:{what}"))
        self.duel_id, self.version, self.what = duel_id, version, what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["duel"]), int(match["version"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if self.what == "hand":
                await show_hand(interaction, self.duel_id)
            elif self.what == "resign":
                await ask_resign(interaction, self.duel_id)
            else:
                await handle_action(interaction, self.duel_id, self.version, self.what)
        except DuelError as refused:  # e.g. the duel was deleted: a refusal, not a failure
            await send_private(interaction, f"You can't do that: {refused}.")
        except Exception as error:  # discord.py only logs DynamicItem errors; the player must hear too
            await report_error(interaction, error, where=f"duel button {self.custom_id}")


class DuelPlaySelect(discord.ui.DynamicItem[discord.ui.Select],
                     template=rf"sc:duelp:(?P<duel>{ID}):(?P<version>{VERSION}):(?P<n>[0-9])"):
    def __init__(self, duel_id: int, version: int, n: int, *, options=(), placeholder: str = "Play a card…") -> None:
        super().__init__(discord.ui.Select(custom_id=f"sc:duelp:{duel_id}:{version}:{n}", options=list(options),
                                           placeholder=placeholder, row=n))
        self.duel_id, self.version = duel_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]):
        return cls(int(match["duel"]), int(match["version"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            code = self.item.values[0]
            if not re.fullmatch(r"[BS][0-9][CDHS][0-9]{1,2}", code):
                await send_private(interaction, "That choice is not a card play.")
                return
            await handle_action(interaction, self.duel_id, self.version, code)
        except Exception as error:
            await report_error(interaction, error, where=f"duel select {self.custom_id}")


async def show_hand(interaction: discord.Interaction, duel_id: int) -> None:
    record = await load_duel(interaction.client.store, duel_id)
    seat = record.seat(interaction.user.id)
    if seat is None:
        await send_private(interaction, outsider_text(record))
        return
    embed, view = render_hand(record, seat)
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True, files=await board_files(record))


async def ask_resign(interaction: discord.Interaction, duel_id: int) -> None:
    record = await load_duel(interaction.client.store, duel_id)
    if record.seat(interaction.user.id) is None:
        await send_private(interaction, outsider_text(record))
        return
    if not record.open:
        await send_private(interaction, "This duel is over.")
        return
    view = discord.ui.View(timeout=None)
    view.add_item(DuelButton(record.id, record.version, "R", label="Yes, resign", style=discord.ButtonStyle.danger))
    await send_private(interaction, "Resign this duel? Your opponent wins.", view=view)


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=rf"sc:duelc:(?P<duel>{ID}):(?P<answer>acc|dec)"):
    def __init__(self, duel_id: int, answer: str) -> None:
        accept = answer == "acc"
        super().__init__(discord.ui.Button(label="Accept" if accept else "Decline", emoji="⚔️" if accept else None,
                                           style=discord.ButtonStyle.success if accept else
                                           discord.ButtonStyle.secondary, custom_id=f"sc:duelc:{duel_id}:{answer}"))
        self.duel_id, self.accept = duel_id, accept

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["duel"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            store = interaction.client.store
            record = await load_duel(store, self.duel_id)
            seat = record.seat(interaction.user.id)
            if seat is None or (self.accept and seat != 1):
                await send_private(interaction, f"This challenge is for {mention(record.players[1])}." if seat is None
                                   else "Waiting for your opponent to accept.")
                return
            try:
                record = await answer_challenge(store, self.duel_id, interaction.user.id, self.accept)
            except DuelError as refused:
                await send_private(interaction, f"You can't do that: {refused}.")
                return
            embed, view = render_board(record)
            await interaction.response.edit_message(content=None, embed=embed, view=view,
                                                    attachments=await board_files(record))
        except Exception as error:
            await report_error(interaction, error, where=f"duel challenge {self.custom_id}")


class DuelRulesButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sc:duelrules"):
    """Shows the duel's rules privately to whoever presses it."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Rules", emoji="📖", style=discord.ButtonStyle.secondary,
                                           custom_id="sc:duelrules"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            embed = discord.Embed(title="Scoundrel duel — rules", description=rules_text(),
                                  colour=discord.Colour.dark_teal())
            await interaction.response.send_message(embed=embed, ephemeral=True)
        except Exception as error:
            await report_error(interaction, error, where="duel rules")


DYNAMIC_ITEMS = (DuelButton, DuelPlaySelect, ChallengeButton, DuelRulesButton)
