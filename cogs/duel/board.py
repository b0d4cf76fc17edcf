"""A duel's public board, in words and picture: who plays, the state of play, the refusals; no controls.

The board is shared by two players: it is written in the language of the person whose click or command produced
it (the challenger's for the challenge, the mover's after a move), and its picture too. Its buttons are
``cogs.duel.view``'s.
"""

from __future__ import annotations

import asyncio
import functools
import io

import discord

from app.play import duels
from app.play.duels import ABANDONED, CHALLENGED, DECLINED, FORGOTTEN_PLAYER, DuelError, DuelRefused, has_picture
from cogs.text.card_text import readable
from cogs.text.command_text import slash
from games.duel import PLACING, PLAYER_NAMES, event_text
from games.engine import seed_to_text
from games.i18n import ENGLISH, N_, Messages, translated
from games.picture import DUEL_FILENAME, render_duel

GOAL = N_("Goal: finish one column of 4+ cards, two of 5+ and one of 6+.")
# Why the store refused (DuelError.code), in words.
STORE_REFUSALS = {
    duels.NOT_FOUND: N_("that duel no longer exists"),
    duels.NOT_IN_DUEL: N_("only the two players of this duel can do that"),
    duels.NOT_YOUR_TURN: N_("it is not your turn: wait for your opponent"),
    duels.STORE_OVER: N_("this duel is over"),
    duels.STALE: N_("that board is out of date: someone moved first"),
    duels.STORE_SELF_DUEL: N_("you can't duel yourself"),
    duels.ONLY_CHALLENGED_ACCEPTS: N_("only the challenged player can accept"),
    duels.RESIGN_FOR_OTHER: N_("you can only resign for yourself"),
}
# Why app.play.duels refused (DuelRefused.code), where it says the same as the store would.
RULE_REFUSALS = {duels.OUTSIDER: duels.NOT_IN_DUEL, duels.OVER: duels.STORE_OVER,
                 duels.SELF_DUEL: duels.STORE_SELF_DUEL, duels.WAITING: duels.ONLY_CHALLENGED_ACCEPTS}


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def player_name(record, seat: int) -> str:
    """A player as the duel's texts name them: the name kept with the duel, in bold. A mention that pings no one
    resolves only for readers whose client already knows the user (others see a raw id); a duel from before names
    were kept falls back to it."""
    name = record.names[seat]
    if not name and record.players[seat] == FORGOTTEN_PLAYER:  # a player who deleted their data: no name, no mention
        return "**—**"
    return f"**{discord.utils.escape_markdown(name)}**" if name else mention(record.players[seat])


def refusal_reason(refused: Exception, tr: Messages) -> str:
    """Why the duel engine or the duel store refused, in ``tr``'s language."""
    if isinstance(refused, DuelRefused):
        return tr(STORE_REFUSALS[RULE_REFUSALS.get(refused.code, duels.STALE)])
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


def outsider_text(record, tr: Messages) -> str:
    return tr("This duel is between {first} and {second} — challenge someone with `{command}`.",
              first=player_name(record, 0), second=player_name(record, 1), command=slash(tr, "duel"))
