"""Duel messages: the public board, the private hand with its controls, and their persistent buttons.

Every control is a ``DynamicItem`` whose custom_id holds what the click needs, so it works after a restart::

    sc:duelc:<duel id>:<acc|dec>               challenge: accept / decline (or withdraw)
    sc:duel:<duel id>:<version>:<what>         hand (show my hand), resign (ask), or an action code (P02, F1, D, R0)
    sc:duelp:<duel id>:<version>:<n>           select menu n of card plays; each option's value is an action code
    sc:dreplay:<duel id>                       a finished duel's Replay (cogs/duel/replay.py, offered by cogs/offers.py)

A click whose version is not the duel's is refused as out of date; ``store.duels.play_duel`` lets exactly one of
two racing clicks through.

Languages: a duel is read by two players. A private answer (the hand, a refusal, the rules) is in its reader's
language. The public board is shared: it is written in the language of the person whose click or command
produced it (the challenger's for the challenge, the mover's after a move), and the picture on it too.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import re

import discord

from cogs.plumbing.bounds import ID, VERSION
from cogs.plumbing.errors import report_error, send_private
from cogs.plumbing.interaction import Bot, Interaction, offered
from cogs.plumbing.respond import edit_message, in_time
from cogs.text.card_text import readable
from cogs.text.command_text import slash
from cogs.text.locale import for_reader
from games.duel import PAIRS, PLACING, DuelAction, IllegalDuelAction, legal_actions, refusal
from games.duel.game import ANY_CARD_DIE
from games.duel.text import PLAYER_NAMES, event_text, hand_text, rules_text
from games.engine.seeds import seed_to_text
from games.i18n import N_
from games.i18n.messages import ENGLISH, Messages
from games.i18n.phrase import translated
from games.picture.duel import FILENAME as DUEL_FILENAME
from games.picture.duel import render_duel
from storage import duels
from storage.duels import (
    ABANDONED,
    CHALLENGED,
    DECLINED,
    WON,
    DuelError,
    resign_action,
)
from storage.forget import FORGOTTEN

log = logging.getLogger(__name__)

SELECT_LIMIT = 25  # options per Discord select menu
FINISHED = (WON, ABANDONED)  # a duel played to its end (won, or resigned): not a declined challenge
GOAL = N_("Goal: finish one column of 4+ cards, two of 5+ and one of 6+.")
# Why storage.duels refused (DuelError.code), in words.
STORE_REFUSALS = {
    duels.NOT_FOUND: N_("that duel no longer exists"),
    duels.NOT_IN_DUEL: N_("only the two players of this duel can do that"),
    duels.NOT_YOUR_TURN: N_("it is not your turn: wait for your opponent"),
    duels.OVER: N_("this duel is over"),
    duels.STALE: N_("that board is out of date: someone moved first"),
    duels.SELF_DUEL: N_("you can't duel yourself"),
    duels.ONLY_CHALLENGED_ACCEPTS: N_("only the challenged player can accept"),
    duels.RESIGN_FOR_OTHER: N_("you can only resign for yourself"),
}


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def player_name(record, seat: int) -> str:
    """A player as the duel's texts name them: the name kept with the duel, in bold. A mention that pings no one
    resolves only for readers whose client already knows the user (others see a raw id); a duel from before names
    were kept falls back to it."""
    name = record.names[seat]
    if not name and record.players[seat] == FORGOTTEN:  # a player who deleted their data: no name, no mention
        return "**—**"
    return f"**{discord.utils.escape_markdown(name)}**" if name else mention(record.players[seat])


def refusal_reason(refused: Exception, tr: Messages) -> str:
    """Why the duel engine or the duel store refused, in ``tr``'s language."""
    if isinstance(refused, DuelError):
        return tr(STORE_REFUSALS.get(refused.code, STORE_REFUSALS[duels.STALE]))
    reason = refused.args[0] if refused.args and isinstance(refused.args[0], str) else str(refused)
    return translated(reason, tr)


def refused_text(refused: Exception, tr: Messages) -> str:
    """A refusal of the duel engine or the duel store, in ``tr``'s language."""
    return tr("You can't do that: {reason}", reason=refusal_reason(refused, tr)) + "."


def seat_name(record, seat: int, tr: Messages) -> str:
    """How the board's text names a player: a started duel's board says "Player 1" as its picture does (the
    message's content says who that is); a challenge names the players."""
    return tr(PLAYER_NAMES[seat]) if has_picture(record) else player_name(record, seat)


def board_content(record, tr: Messages = ENGLISH) -> str | None:
    """The message text above a started duel's board: who Player 1 and Player 2 are, by the names kept with the
    duel (the board pings no one, and a mention that pings no one may show as a raw id)."""
    if not has_picture(record):
        return None
    return tr("Player 1: {first} · Player 2: {second}", first=player_name(record, 0),
              second=player_name(record, 1))


def status_line(record, tr: Messages = ENGLISH) -> str:
    state = record.state
    if record.status == CHALLENGED:
        return tr("{challenger} challenges {opponent} to a Scoundrel duel.", challenger=player_name(record, 0),
                  opponent=player_name(record, 1))
    if record.status == DECLINED:
        return tr("The challenge was declined.")
    if state.over:
        if record.status == ABANDONED:
            return tr("🏆 {winner} wins (the other player resigned)!", winner=seat_name(record, state.winner, tr))
        return tr("🏆 {winner} wins!", winner=seat_name(record, state.winner, tr))
    who = seat_name(record, state.actor, tr)
    if state.phase == PLACING:
        return tr("{player} rolled **{dice}** and places the dice.", player=who, dice=" ".join(map(str, state.dice)))
    if state.actor == state.roller:
        return tr("{player} (roller) plays cards. Press **My hand** to see yours.", player=who)
    return tr("{player} (non-roller) plays cards. Press **My hand** to see yours.", player=who)


def has_picture(record) -> bool:
    """A started duel's board is a picture; a challenge is only words."""
    return record.status not in (CHALLENGED, DECLINED)


def counts_line(state, tr: Messages = ENGLISH) -> str:
    """The dice still to place, the cards in the stock and the stolen pile, and each player's hand."""
    counts = tr("stock {stock} · stolen pile {stolen} · hands {first} / {second}", stock=len(state.stock),
                stolen=len(state.stolen), first=len(state.hands[0]), second=len(state.hands[1]))
    free = [str(v) for v, where in zip(state.dice, state.placed, strict=True) if where == -1]
    if state.phase == PLACING and free and not state.over:
        return tr("to place: {dice} · {rest}", dice=" ".join(free), rest=counts)
    return counts


def board_embed(record, tr: Messages = ENGLISH) -> discord.Embed:
    state = record.state
    lines = [status_line(record, tr)]
    if has_picture(record):  # "Player 1" and "Player 2", as on the picture; the message's text says who they are
        lines += [f"· {readable(event_text(event, None, tr))}" for event in state.events]
    embed = discord.Embed(title=tr("Scoundrel duel #{number}", number=record.id), description="\n".join(lines),
                          colour=discord.Colour.dark_gold() if state.over else discord.Colour.dark_purple())
    if record.status == CHALLENGED:
        embed.add_field(name=tr("How it goes"),
                        value=tr("Two players, one deck, three dice. {goal} Accept to start; the challenger rolls "
                                 "first.", goal=tr(GOAL)), inline=False)
        return embed
    embed.set_image(url=f"attachment://{DUEL_FILENAME}")
    # the dice to place, the stock, the stolen pile and the hands: too many words for the picture on a phone
    embed.set_footer(text=f"{counts_line(state, tr)} · " +
                     tr("Turn {turn} · seed {seed}", turn=state.turn, seed=seed_to_text(record.seed)))
    return embed


def render_board(record, tr: Messages = ENGLISH, bot: Bot | None = None) -> tuple[discord.Embed, discord.ui.View]:
    """The board's embed and buttons; with ``bot``, a finished duel's offers (``bot.offers``, cogs/offers.py)."""
    view = discord.ui.View(timeout=None)
    if record.status == CHALLENGED:
        view.add_item(ChallengeButton(record.id, "acc", tr))
        view.add_item(ChallengeButton(record.id, "dec", tr))
    elif record.open:
        view.add_item(DuelButton(record.id, record.version, "hand", label=tr("My hand"), emoji="🂠",
                                 style=discord.ButtonStyle.primary))
        view.add_item(DuelButton(record.id, record.version, "resign", label=tr("Resign"), emoji="🏳️"))
    if record.open:
        view.add_item(DuelRulesButton(tr))
    elif record.status in FINISHED:
        for item in offered(bot, bot.offers.duel_over if bot else (), record, tr):
            view.add_item(item)
    return board_embed(record, tr), view


async def board_files(record, tr: Messages = ENGLISH) -> list[discord.File]:
    """The board's picture as the message's attachments (none for a challenge), drawn in a worker thread."""
    if not has_picture(record):
        return []
    png = await asyncio.to_thread(_board_png, record.state, tr)
    return [discord.File(io.BytesIO(png), filename=DUEL_FILENAME, description=tr("The duel board"))]


@functools.lru_cache(maxsize=64)
def _board_png(state, tr: Messages) -> bytes:  # a move redraws the public board and the mover's hand: one drawing
    return render_duel(state, tr)


def duel_url(record) -> str | None:
    if record.message_id is None or record.channel_id is None:
        return None
    return f"https://discord.com/channels/{record.guild_id or '@me'}/{record.channel_id}/{record.message_id}"


# --- the private hand -------------------------------------------------------------------------------------
def _play_label(state, action: DuelAction, tr: Messages) -> str:
    mine = state.columns[state.actor][action.pair]
    theirs = state.columns[1 - state.actor][action.pair]
    assert action.card is not None  # a build or a steal plays a card
    if action.kind == "B":
        die = state.die_on(action.pair)
        left = (1 if die == ANY_CARD_DIE else die) - state.usage[action.pair]
        if mine.top:
            text = tr("{card} on your pair {pair} (on {top}; 🎲{die}: {left} more allowed)", card=action.card.label,
                      pair=action.pair + 1, top=mine.top.label, die=die, left=left)
        else:
            text = tr("{card} on your pair {pair} (empty column; 🎲{die}: {left} more allowed)",
                      card=action.card.label, pair=action.pair + 1, die=die, left=left)
        return readable(text)
    return readable(tr.plural("{card}: steal pair {pair} ({n} card)", "{card}: steal pair {pair} ({n} cards)",
                              len(theirs.cards), card=action.card.label, pair=action.pair + 1))


def render_hand(record, seat: int, tr: Messages = ENGLISH) -> tuple[discord.Embed, discord.ui.View]:
    state = record.state
    view = discord.ui.View(timeout=None)
    yours = record.open and not state.over and state.actor == seat
    line = (tr("Your turn: place the dice.") if state.phase == PLACING else tr("Your turn to play cards.")) if yours \
        else status_line(record, tr)
    embed = discord.Embed(title=tr("Your hand · duel #{number}", number=record.id), colour=discord.Colour.dark_teal(),
                          description=tr("**{hand}** · you are player {seat}",
                                         hand=readable(hand_text(state.hands[seat], tr)), seat=seat + 1)
                          + f"\n{line}")
    embed.set_image(url=f"attachment://{DUEL_FILENAME}")  # the board, as on the public message
    if not record.open or state.over:
        return embed, view
    if state.actor != seat:
        embed.set_footer(text=tr("Not your turn yet: press My hand again when it is."))
        return embed, view
    make = lambda code, **kw: DuelButton(record.id, record.version, code, **kw)  # noqa: E731
    if state.phase == PLACING:
        die = state.placed.index(-1)
        value = state.dice[die]
        for pair in range(PAIRS):
            code = f"P{die}{pair}"
            view.add_item(make(code, label=tr("🎲{value} → pair {pair}", value=value, pair=pair + 1),
                               style=discord.ButtonStyle.primary,
                               disabled=refusal(state, DuelAction.parse(code)) is not None, row=0))
        embed.set_footer(text=tr("Place the {value} (dice left: {left}). {goal}", value=value,
                                 left=sum(p == -1 for p in state.placed), goal=tr(GOAL)))
        return embed, view
    legal = legal_actions(state)
    plays = [a for a in legal if a.kind in ("B", "S")]
    for n in range(0, min(len(plays), 3 * SELECT_LIMIT), SELECT_LIMIT):
        chunk = plays[n:n + SELECT_LIMIT]
        options = [discord.SelectOption(label=_play_label(state, a, tr), value=a.code) for a in chunk]
        view.add_item(DuelPlaySelect(record.id, record.version, n // SELECT_LIMIT, options=options,
                                     placeholder=tr("Play a card…") if n == 0 else tr("More plays…")))
    for action in legal:
        if action.kind == "F":
            view.add_item(make(action.code, label=tr("Finish pair {pair}", pair=action.pair + 1), emoji="✅",
                               style=discord.ButtonStyle.success, row=3))
    view.add_item(make("D", label=tr("Done"), emoji="⏭️", style=discord.ButtonStyle.danger, row=3))
    embed.set_footer(text=(tr("No card fits anywhere: press Done.") if not plays else
                           tr("Pick a card and where it goes; Finish a column of 4+ when you like; Done ends your "
                              "play.")) + " " + tr(GOAL))
    return embed, view


# --- clicks -----------------------------------------------------------------------------------------------
async def refresh_board(client: Bot, record, tr: Messages = ENGLISH) -> None:
    """Edit the public board message to match ``record`` (it may have been deleted: then just log), in the
    language of whoever moved (``tr``)."""
    if record.channel_id is None or record.message_id is None:
        return
    embed, view = render_board(record, tr, client)
    files = await board_files(record, tr)
    try:
        channel = client.get_channel(record.channel_id) or await client.fetch_channel(record.channel_id)
        message = channel.get_partial_message(record.message_id)  # type: ignore[union-attr]
        await message.edit(content=board_content(record, tr), embed=embed, view=view, attachments=files)
    except discord.HTTPException:
        log.warning("could not update the board of duel %s", record.id, exc_info=True)


def outsider_text(record, tr: Messages) -> str:
    return tr("This duel is between {first} and {second} — challenge someone with `{command}`.",
              first=player_name(record, 0), second=player_name(record, 1), command=slash(tr, "duel"))


STALE = N_("The duel had moved on, so that did nothing: here is your hand as it is now.")
OVER = N_("This duel is over.")


async def handle_action(interaction: Interaction, duel_id: int, version: int, code: str) -> None:
    """A move from a player's hand, answered with the hand redrawn (one request) unless the work is slow.
    A move made on an older hand than the duel's (a double press, or the other device) redraws the hand."""
    store, tr = interaction.client.store, for_reader(interaction)
    record = await in_time(interaction, store.duels.load_duel(duel_id))
    seat = record.seat(interaction.user.id)
    if seat is None:
        await send_private(interaction, outsider_text(record, tr))
        return
    if not record.open:
        await send_private(interaction, tr(OVER))
        return
    if code == "R":
        version = record.version  # resigning stands whatever has happened meanwhile
    if record.version != version:
        embed, view = render_hand(record, seat, tr)
        await edit_message(interaction, content=tr(STALE), embed=embed, view=view,
                           attachments=await board_files(record, tr))
        return
    try:
        action = resign_action(record, interaction.user.id) if code == "R" else DuelAction.parse(code)
        record = await in_time(interaction, store.duels.play_duel(duel_id, interaction.user.id, version, action))
    except (DuelError, IllegalDuelAction) as refused:
        await send_private(interaction, refused_text(refused, tr))
        return
    if code == "R":
        await edit_message(interaction, content=tr("You resigned."), embed=None, view=None, attachments=[])
    else:
        embed, view = render_hand(record, seat, tr)
        await edit_message(interaction, content=None, embed=embed, view=view,
                           attachments=await board_files(record, tr))
    await refresh_board(interaction.client, record, tr)


class DuelButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"sc:duel:(?P<duel>{ID}):(?P<version>{VERSION}):(?P<what>hand|resign|R|D|P[0-9]{{2}}|F[0-9])"):
    def __init__(self, duel_id: int, version: int, what: str, *, label: str = "", emoji: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or None, emoji=emoji, style=style, disabled=disabled, row=row,
                                           custom_id=f"sc:duel:{duel_id}:{version}:{what}"))
        self.duel_id, self.version, self.what = duel_id, version, what

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["duel"]), int(match["version"]), match["what"])

    async def callback(self, interaction: Interaction) -> None:
        try:
            if self.what == "hand":
                await show_hand(interaction, self.duel_id)
            elif self.what == "resign":
                await ask_resign(interaction, self.duel_id)
            else:
                await handle_action(interaction, self.duel_id, self.version, self.what)
        except DuelError as refused:  # e.g. the duel was deleted: a refusal, not a failure
            await send_private(interaction, refused_text(refused, for_reader(interaction)))
        except Exception as error:  # discord.py only logs DynamicItem errors; the player must hear too
            await report_error(interaction, error, where=f"duel button {self.custom_id}")


class DuelPlaySelect(discord.ui.DynamicItem[discord.ui.Select],
                     template=rf"sc:duelp:(?P<duel>{ID}):(?P<version>{VERSION}):(?P<n>[0-9])"):
    def __init__(self, duel_id: int, version: int, n: int, *, options=(), placeholder: str = "Play a card…") -> None:
        super().__init__(discord.ui.Select(custom_id=f"sc:duelp:{duel_id}:{version}:{n}", options=list(options),
                                           placeholder=placeholder, row=n))
        self.duel_id, self.version = duel_id, version

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Select, match: re.Match[str]):
        return cls(int(match["duel"]), int(match["version"]), int(match["n"]))

    async def callback(self, interaction: Interaction) -> None:
        try:
            code = self.item.values[0]
            if not re.fullmatch(r"[BS][0-9][CDHS][0-9]{1,2}", code):
                tr = for_reader(interaction)
                await send_private(interaction, tr("That choice is not a card play."))
                return
            await handle_action(interaction, self.duel_id, self.version, code)
        except DuelError as refused:  # e.g. the duel was deleted: a refusal, not a failure
            await send_private(interaction, refused_text(refused, for_reader(interaction)))
        except Exception as error:
            await report_error(interaction, error, where=f"duel select {self.custom_id}")


async def show_hand(interaction: Interaction, duel_id: int) -> None:
    tr = for_reader(interaction)
    record = await interaction.client.store.duels.load_duel(duel_id)
    seat = record.seat(interaction.user.id)
    if seat is None:
        await send_private(interaction, outsider_text(record, tr))
        return
    embed, view = render_hand(record, seat, tr)
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True,
                                            files=await board_files(record, tr))


async def ask_resign(interaction: Interaction, duel_id: int) -> None:
    tr = for_reader(interaction)
    record = await interaction.client.store.duels.load_duel(duel_id)
    if record.seat(interaction.user.id) is None:
        await send_private(interaction, outsider_text(record, tr))
        return
    if not record.open:
        await send_private(interaction, tr(OVER))
        return
    view = discord.ui.View(timeout=None)
    view.add_item(DuelButton(record.id, record.version, "R", label=tr("Yes, resign"),
                             style=discord.ButtonStyle.danger))
    await send_private(interaction, tr("Resign this duel? Your opponent wins."), view=view)


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=rf"sc:duelc:(?P<duel>{ID}):(?P<answer>acc|dec)"):
    def __init__(self, duel_id: int, answer: str, tr: Messages = ENGLISH) -> None:
        accept = answer == "acc"
        super().__init__(discord.ui.Button(label=tr("Accept") if accept else tr("Decline"),
                                           emoji="⚔️" if accept else None,
                                           style=discord.ButtonStyle.success if accept else
                                           discord.ButtonStyle.secondary, custom_id=f"sc:duelc:{duel_id}:{answer}"))
        self.duel_id, self.accept = duel_id, accept

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["duel"]), match["answer"])

    async def callback(self, interaction: Interaction) -> None:
        try:
            store, tr = interaction.client.store, for_reader(interaction)
            record = await store.duels.load_duel(self.duel_id)
            seat = record.seat(interaction.user.id)
            if seat is None or (self.accept and seat != 1):
                await send_private(interaction, tr("This challenge is for {opponent}.",
                                                   opponent=player_name(record, 1)) if seat is None
                                   else tr("Waiting for your opponent to accept."))
                return
            try:
                record = await store.duels.answer_challenge(self.duel_id, interaction.user.id, self.accept)
            except DuelError as refused:
                await send_private(interaction, refused_text(refused, tr))
                return
            embed, view = render_board(record, tr, interaction.client)  # in the language of whoever answered
            await interaction.response.edit_message(content=board_content(record, tr), embed=embed, view=view,
                                                    attachments=await board_files(record, tr))
        except DuelError as refused:  # e.g. the duel no longer exists (an older backup restored)
            await send_private(interaction, refused_text(refused, for_reader(interaction)))
        except Exception as error:
            await report_error(interaction, error, where=f"duel challenge {self.custom_id}")


class DuelRulesButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sc:duelrules"):
    """Shows the duel's rules privately to whoever presses it."""

    def __init__(self, tr: Messages = ENGLISH) -> None:
        super().__init__(discord.ui.Button(label=tr("Rules"), emoji="📖", style=discord.ButtonStyle.secondary,
                                           custom_id="sc:duelrules"))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls()

    async def callback(self, interaction: Interaction) -> None:
        try:
            tr = for_reader(interaction)
            embed = discord.Embed(title=tr("Scoundrel duel — rules"), description=rules_text(tr),
                                  colour=discord.Colour.dark_teal())
            await interaction.response.send_message(embed=embed, ephemeral=True)
        except Exception as error:
            await report_error(interaction, error, where="duel rules")


DYNAMIC_ITEMS = (DuelButton, DuelPlaySelect, ChallengeButton, DuelRulesButton)
