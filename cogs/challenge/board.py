"""The challenge's one message: the invite, the live standings under it, and the final standings.

Everyone reads the same message, so it is written in one language: the server's (the starter's outside a
server), kept with the challenge. It shows each player's room, health and outcome, never a card or a move
(``app.challenges.standings``); once closed, par, the coach's score and the seed to play the deal again.
"""

from __future__ import annotations

import discord

from app.challenges.standings import UNFINISHED, Board, Standing
from app.records import DEAD, PLAYING, WON
from cogs.game_message.embed import rules_label
from cogs.text.command_text import slash
from games.engine import seed_to_text
from games.i18n import N_, Messages

SHOWN_PLAYERS = 30  # lines of standings in the message; the rest are counted (an embed field holds 1,024 characters)
COLOUR, FINAL_COLOUR = discord.Colour.dark_gold(), discord.Colour.dark_green()

CLOSED_WORDS = N_("This challenge is closed: its final standings are on its message.")


def name_of(row: Standing, tr: Messages) -> str:
    name = discord.utils.escape_markdown(row.name)
    return tr("{name} (left the server)", name=name) if row.gone else f"**{name}**"


def starter_of(board: Board, known: str | None) -> str:
    """The starter as the invite names them: in bold, by the name they joined with, else ``known`` (their name as
    the bot sees them now), else a mention (which pings no one here, and may show as a raw id where the reader's
    client does not know them)."""
    name = next((row.name for row in board.rows if row.user_id == board.challenge.starter_id), known)
    return f"**{discord.utils.escape_markdown(name)}**" if name else f"<@{board.challenge.starter_id}>"


def line(row: Standing, tr: Messages) -> str:
    """One player's line: what anyone may see of their game."""
    who = name_of(row, tr)
    if row.outcome == WON:
        return tr("{place}. {who} — survived, score {score}", place=row.place, who=who, score=row.score)
    if row.outcome == DEAD:
        return tr("{place}. {who} — died in room {room}, score {score}", place=row.place, who=who, room=row.room,
                  score=row.score)
    if row.outcome == PLAYING:
        return tr("{who} — room {room}, ❤️ {health}", who=who, room=row.room, health=row.health)
    return tr("{who} — did not finish (room {room})", who=who, room=row.room)


def standings_text(board: Board, tr: Messages) -> str:
    rows = board.rows
    if not rows:
        return tr("Nobody has joined yet: press Join to play.")
    lines = [line(row, tr) for row in rows[:SHOWN_PLAYERS]]
    if len(rows) > SHOWN_PLAYERS:
        lines.append(tr.plural("…and {n} more player", "…and {n} more players", len(rows) - SHOWN_PLAYERS))
    return "\n".join(lines)


def embed(board: Board, tr: Messages, starter: str) -> discord.Embed:
    """The message's embed: the invite while the challenge runs, the final standings once it is closed."""
    challenge = board.challenge
    rules = rules_label(challenge.rules, tr)
    if board.final:
        shown = discord.Embed(title=tr("🏆 Challenge over: final standings"), colour=FINAL_COLOUR)
        facts = [tr("Par on this deal: {par}.", par=challenge.par) if challenge.par is not None
                 else tr("Par on this deal was not worked out.")]
        if challenge.coach_score is not None:
            facts.append(tr("The coach, seeing only what a player sees, scored {score}.", score=challenge.coach_score))
        facts.append(tr("Play this deal again: `{play}{seed}`.", play=slash(tr, "play", "seed"),
                        seed=seed_to_text(challenge.seed)))
        shown.description = "\n".join(facts)
    else:
        shown = discord.Embed(title=tr("⚔️ Challenge: one deal for everyone"), colour=COLOUR)
        shown.description = "\n".join([
            tr("{starter} challenges the channel. Everyone who joins plays the same deal in a game of their own, "
               "and nobody sees anyone else's cards.", starter=starter),
            tr("Closes {when}: games still being played then end where they are.",
               when=discord.utils.format_dt(challenge.closes_at, "R")),
        ])
    shown.add_field(name=tr("Rules"), value=rules, inline=True)
    shown.add_field(name=tr("Players"), value=tr("{joined} joined · {finished} finished", joined=len(board.rows),
                                                 finished=board.finished), inline=True)
    shown.add_field(name=tr("Standings"), value=standings_text(board, tr)[:1024], inline=False)
    return shown


def replayable(board: Board) -> list[Standing]:
    """The players whose game may be replayed from the final standings: played (at least one room)."""
    return [row for row in board.rows if row.outcome in (WON, DEAD, UNFINISHED)][:25]
