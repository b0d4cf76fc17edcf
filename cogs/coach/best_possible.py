"""The "Best possible" button under a finished game: par (the best score the deal allowed) and the line to it.

Both are hindsight, worked out seeing every card of the deal, and say so; the coach's Hint and Review judge
only what the player could see (``cogs.coach.advice``).

The button is a persistent ``DynamicItem`` (``sc:par:<game id>``), offered under finished games (cogs/offers.py).
A click is deferred at once (so Discord never times out) and answered privately with what the use case
``app.coach.best`` found (par from the store's cache, else solved in the solver's worker), or plainly with its
refusal: a game still being played gets no line, and a daily's only its own player (the line would spoil the
day's deal); the solver's queue full, or the player already waiting for an answer. A bot whose ``par_solver``
attribute is None (tests that are not about par) offers no button.
"""

from __future__ import annotations

import logging

import discord

from app.coach import access as coaching
from app.coach import best
from app.errors import CoachRefused
from app.solver.worker import ParTimeout, SolverBusy, close_par, solve_par
from cogs.plumbing.errors import GameIdButton
from cogs.plumbing.interaction import Interaction
from cogs.text.card_text import readable
from cogs.text.locale import for_reader
from games.engine import decode
from games.i18n import ENGLISH, N_, Messages
from games.solver import MOVE_MARKS, refusal, short_line

log = logging.getLogger(__name__)

EMBED_LIMIT = 4000  # characters of room lines per embed (Discord allows 4096 in a description)
_state = {"solver": solve_par}  # set by setup: the bot's par_solver, or None for no button


LEGEND = N_("One best line, a room a line: 🗡️ equip · ⚔️ with the weapon · 👊 barehanded · 🧪 drink · 🗑️ "
            "discard · 🏃 avoid · → health after the room")


def short_line_text(rules, deck, line) -> list[str]:
    """The optimal line, a short line per room (an avoided room joins the room after it): "**5–6** 🏃 ⚔️♧6 → 15"."""
    lines, avoided = [], None
    for number, moves, health in short_line(rules, deck, decode(line) if isinstance(line, str) else line):
        if moves == MOVE_MARKS["avoid"]:
            avoided = avoided or number
            continue
        rooms = f"{avoided}–{number}" if avoided else str(number)
        lines.append(readable(f"**{rooms}** {MOVE_MARKS['avoid'] + ' ' if avoided else ''}{moves} → {health}"))
        avoided = None
    return lines


def par_summary(best: int, score: int | None, tr: Messages = ENGLISH, hinted: bool = False) -> str:
    if best > 0:
        text = tr("Best possible seeing every card: {best} (winnable)", best=best)
    else:
        text = tr("Best possible seeing every card: {best} (not winnable: the best is to die late)", best=best)
    if score is not None:
        text += " — " + (tr("you scored {score}, a perfect game!", score=score) if score == best and not hinted else
                         tr("you scored {score}.", score=score))
    return text


def chunk_lines(lines: list[str], limit: int = EMBED_LIMIT) -> list[str]:
    """Room lines packed into texts of at most ``limit`` characters, never splitting a room."""
    chunks, current = [], ""
    for line in lines:
        line = line if len(line) <= limit else line[: limit - 1] + "…"
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks


class BestPossibleButton(GameIdButton, discord.ui.DynamicItem[discord.ui.Button]):
    PREFIX, LABEL, EMOJI, STYLE = "par", N_("Best possible"), "🏆", discord.ButtonStyle.secondary

    async def run(self, interaction: Interaction) -> None:
        await show_par(interaction, self.game_id)


# How each refusal of ``app.coach.best`` reads (a RULES refusal is the solver's own words, translated).
PAR_REFUSALS = {
    coaching.STILL_PLAYING: N_("Finish the game first: the best line is shown once it is over."),
    coaching.NOT_YOURS: N_("Play this daily yourself first: its best line would give the deal away."),
    coaching.UNAVAILABLE: N_("Par is not available on this bot."),
}


async def show_par(interaction: Interaction, game_id: int) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    tr, store, user_id = for_reader(interaction), interaction.client.store, interaction.user.id
    solver = _state["solver"]
    try:
        record = await best.check_best(store, game_id, user_id, solver=solver)
        assert solver is not None  # (check_best refuses without one)
        found = await best.best_possible(store, record, user_id, solver)
    except CoachRefused as refused:
        text = tr(refused.reason) if refused.code == coaching.RULES and refused.reason else \
            tr(PAR_REFUSALS[refused.code])
        await interaction.followup.send(text, ephemeral=True)
        return
    except SolverBusy as busy:  # the queue is full, or this player already waits for an answer
        await interaction.followup.send(tr(str(busy)), ephemeral=True)  # app.solver.worker's BUSY_* texts
        return
    except ParTimeout:
        await interaction.followup.send(tr("This deal is taking too long to solve; please try again later."),
                                        ephemeral=True)
        return
    rules, deck = record.rules, record.state.start_deck
    embeds = [discord.Embed(description=text) for text in chunk_lines(short_line_text(rules, deck, found.line))]
    embeds[0].title = par_summary(found.best, found.score, tr, found.hinted)
    embeds[-1].set_footer(text=tr(LEGEND))
    for embed in embeds:  # one embed per message keeps each well under Discord's 6000-character total
        await interaction.followup.send(embed=embed, ephemeral=True)


def par_extras(record, tr: Messages = ENGLISH) -> list[discord.ui.Item]:
    """Added to a finished game's buttons (in the player's language ``tr``): only when par can be solved for its
    rules."""
    if _state["solver"] is None or record.rules is None or refusal(record.rules):
        return []
    if record.status not in ("won", "dead") or record.kind == "daily":  # a daily's Review tells its par
        return []
    return [BestPossibleButton(record.id, tr)]


async def setup(bot) -> None:
    _state["solver"] = bot.par_solver
    bot.add_dynamic_items(BestPossibleButton)


async def teardown(bot) -> None:
    bot.remove_dynamic_items(BestPossibleButton)
    await close_par()  # the worker process ends with the bot
