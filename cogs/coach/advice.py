"""The coach: a **Review** button under every finished game (its moves judged room by room on what the player
could see at each move) and a **Hint** button in normal and practice games (the best move on what the player can
see now, with its chance to win; the game is then marked hinted). Neither looks at the face-down order of the
dungeon (``games.solver.fair``); only "Best possible" (``cogs.coach.best_possible``) shows the line seen in hindsight.

Both are persistent ``DynamicItem``s (``sc:review:<game id>``, ``sc:hint:<game id>``) added through the game
view's hooks, and both run in the solver's worker process under its bounded, fair queue: a busy solver is said
plainly. Only a game's own player may review it or ask for a hint. A daily's review waits until the player's
counted attempt is over; since only that player sees it, the line of a day still running reaches nobody else.
A bot whose ``par_solver`` attribute is None (tests that are not about the solver) offers neither button.
Every answer is private and in the language of the player who pressed the button; the solver's words come back
as ``Phrase``s and are translated here.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from app.coach import access as coaching
from app.coach import reviews
from app.coach.advice import hint_for, review_game
from app.errors import CoachRefused, HintNeedsConsent
from app.solver.progress import Progress, Watch
from app.solver.worker import ParTimeout, SolverBusy
from cogs.coach.best_possible import chunk_lines
from cogs.coach.progress import ProgressEdits, hint_progress, review_progress
from cogs.plumbing.errors import GameIdButton
from cogs.plumbing.interaction import Interaction
from cogs.text.card_text import readable
from cogs.text.locale import for_reader
from games.i18n import ENGLISH, N_, Messages, translated
from games.solver import refusal

log = logging.getLogger(__name__)
T = TypeVar("T")

_state: dict[str, Any] = {"review": review_game, "hint": hint_for}  # set by setup; None when the bot has no solver

NOT_YOURS_REVIEW = N_("Only the player of this game can review it.")
NOT_YOURS_HINT = N_("Only the player of this game can ask for a hint.")
STILL_PLAYING = N_("Finish the game first: the review is shown once it is over.")
TOO_LONG = N_("This is taking the solver too long; please try again later.")
HINT_KINDS = coaching.HINT_KINDS  # never a counted daily
NO_HINT_DAILY = N_("There are no hints in a counted daily: it is your own play that counts.")
NO_HINT_CHALLENGE = N_("There are no hints in a challenge: everyone plays this deal on their own.")
HINT_GAME_OVER = N_("This game is over: use Review to see where the best moves were.")
HINT_MOVED_ON = N_("The game moved on while the hint was being found; ask again for the position as it is now.")
HINT_WARNING = N_("💡 A hint shows the best move now, but this game will then no longer count on the boards or "
                  "in your stats.")
HINTED_MARK = N_("(hinted — not counted)")
HINTED_VERDICT = N_("No clear mistakes, with a hint (hinted — not counted).")
# games.solver.fair_review's verdict for a finished game without a clear mistake
PERFECT_VERDICT = "No clear mistakes: on what you could see, no other move was clearly better ({decided})."
NO_REVIEWS = N_("Reviews are not available on this bot.")
NO_HINTS = N_("Hints are not available on this bot.")


def review_text(record, text, tr: Messages = ENGLISH, hinted: bool = False) -> list[discord.Embed]:
    """The review as one embed in ``tr``'s language: what mattered, then the verdict in bold (a hinted game's
    verdict says so, and never calls it perfect)."""
    lines = [readable(translated(line, tr)) for line in text.lines]
    verdict = lines.pop() if lines else ""
    summary = text.summary
    if hinted and getattr(summary, "template", None) == PERFECT_VERDICT:
        verdict = tr(HINTED_VERDICT)
    elif hinted:
        verdict += " " + tr(HINTED_MARK)
    embeds = [discord.Embed(description=chunk) for chunk in chunk_lines(lines + [f"**{verdict}**"])]
    embeds[0].title = "🎓 " + tr("Review")
    return embeds


class ReviewButton(GameIdButton, discord.ui.DynamicItem[discord.ui.Button]):
    PREFIX, LABEL, EMOJI, STYLE = "review", N_("Review"), "🎓", discord.ButtonStyle.secondary

    async def run(self, interaction: Interaction) -> None:
        await show_review(interaction, self.game_id)


async def show_review(interaction: Interaction, game_id: int) -> None:
    """The review: at once when it is kept, else worked out (or joined, when already under way) with its progress
    shown in the deferred answer."""
    store, tr = interaction.client.store, for_reader(interaction)
    reviewer = _state["review"]
    try:
        record = await coaching.check_review(store, game_id, interaction.user.id, reviewer=reviewer)
    except CoachRefused as refused:
        await interaction.response.send_message(refusal_text(refused, tr, REVIEW_REFUSALS), ephemeral=True)
        return
    assert reviewer is not None  # (check_review refuses without one)
    embeds = None
    kept = await reviews.kept(store, record)
    if kept is not None:  # worked out before: shown at once, no deferral
        embeds = review_text(record, kept.text, tr, kept.hinted)
        await interaction.response.send_message(embed=embeds[0], ephemeral=True)
    else:
        reviewed = await ask_solver(interaction, lambda watch: reviews.review(
            store, record, interaction.user.id, reviewer, watch=watch), review_progress(tr))
        if reviewed is None:
            return
        embeds = review_text(record, reviewed.text, tr, reviewed.hinted)
        await interaction.edit_original_response(content=None, embed=embeds[0])
    # One embed per message keeps each under Discord's total limit.
    for embed in embeds[1:]:
        await interaction.followup.send(embed=embed, ephemeral=True)


async def ask_solver(interaction: Interaction, work: Callable[[Watch], Awaitable[T]],
                     text: Callable[[Progress], str]) -> T | None:
    """``work``'s answer (a request to the solver's queue, given a watch of its progress); None once the player
    has been told the solver is busy or the position took too long. The interaction is deferred first (it may take
    a while), and its deferred answer shows the progress (``text``) until the answer replaces it."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    tr = for_reader(interaction)
    edits = ProgressEdits(interaction, text)
    try:
        return await work(edits)
    except SolverBusy as busy:
        await edits.close()
        await interaction.edit_original_response(content=tr(str(busy)))  # app.solver.worker's BUSY_* texts
    except ParTimeout:
        await edits.close()
        await interaction.edit_original_response(content=tr(TOO_LONG))
    finally:
        await edits.close()
    return None


# How each refusal of ``app.coach.access`` reads (a RULES refusal is the solver's own words, translated).
REVIEW_REFUSALS = {coaching.NOT_YOURS: NOT_YOURS_REVIEW, coaching.STILL_PLAYING: STILL_PLAYING,
                   coaching.DAILY_RUNNING: N_("Finish your counted attempt at Daily #{day} first."),
                   coaching.UNAVAILABLE: NO_REVIEWS}
HINT_REFUSALS = {coaching.NOT_YOURS: NOT_YOURS_HINT, coaching.COUNTED_DAILY: NO_HINT_DAILY,
                 coaching.IN_CHALLENGE: NO_HINT_CHALLENGE, coaching.OVER: HINT_GAME_OVER,
                 coaching.UNAVAILABLE: NO_HINTS,
                 coaching.MOVED_ON: HINT_MOVED_ON}


def refusal_text(refused: CoachRefused, tr: Messages, texts: dict[str, str]) -> str:
    if refused.code == coaching.RULES and refused.reason:
        return tr(refused.reason)
    return tr(texts[refused.code], day=refused.day)


def review_extras(record, tr: Messages = ENGLISH) -> list[discord.ui.Item]:
    if _state["review"] is None or record.rules is None or refusal(record.rules):
        return []
    if record.status not in ("won", "dead"):
        return []
    return [ReviewButton(record.id, tr)]


class HintButton(GameIdButton, discord.ui.DynamicItem[discord.ui.Button]):
    PREFIX, LABEL, EMOJI, STYLE = "hint", N_("Hint"), "💡", discord.ButtonStyle.secondary

    async def run(self, interaction: Interaction) -> None:
        await show_hint(interaction, self.game_id)


class HintConfirmButton(GameIdButton, discord.ui.DynamicItem[discord.ui.Button]):
    """Under the warning before a game's first hint: the hint itself, the game no longer counted."""

    PREFIX, LABEL, EMOJI, STYLE = "hintok", N_("Show the hint"), "💡", discord.ButtonStyle.primary

    async def run(self, interaction: Interaction) -> None:
        await show_hint(interaction, self.game_id, confirmed=True)


def hint_text(hint, tr: Messages = ENGLISH) -> str:
    """The best move on what the player can see, its chance to win and its expected score, as sure as the coach is."""
    return readable(translated(hint.sentence, tr)) + "\n" + tr(HINTED_MARK)


async def show_hint(interaction: Interaction, game_id: int, confirmed: bool = False) -> None:
    store, tr = interaction.client.store, for_reader(interaction)
    hinter, user_id = _state["hint"], interaction.user.id
    try:
        record = await coaching.check_hint(store, game_id, user_id, hinter=hinter, confirmed=confirmed)
    except CoachRefused as refused:
        await interaction.response.send_message(refusal_text(refused, tr, HINT_REFUSALS), ephemeral=True)
        return
    except HintNeedsConsent:  # never silent: the first hint of a counted game says what it costs, and waits
        view = discord.ui.View(timeout=None)
        view.add_item(HintConfirmButton(game_id, tr))
        await interaction.response.send_message(tr(HINT_WARNING), view=view, ephemeral=True)
        return
    assert hinter is not None  # (check_hint refuses without one)
    try:
        hint = await ask_solver(interaction, lambda watch: coaching.hint(store, record, user_id, hinter, watch=watch),
                                hint_progress(tr))
    except CoachRefused as refused:  # the game moved on meanwhile: no stale hint
        await interaction.edit_original_response(content=refusal_text(refused, tr, HINT_REFUSALS))
        return
    if hint is not None:
        await interaction.edit_original_response(content=hint_text(hint, tr))


def hint_extras(record, tr: Messages = ENGLISH) -> list[discord.ui.Item]:
    """The Hint button (💡 and the word, so a first-time player knows it) beside the fight switch, in normal and
    practice games whose rules the solver can play."""
    if _state["hint"] is None or record.kind not in HINT_KINDS or record.rules is None or refusal(record.rules):
        return []
    button = HintButton(record.id, tr)
    button.item.row = 1
    return [button]


async def setup(bot) -> None:
    solver = bot.par_solver is not None
    _state["review"] = review_game if solver else None
    _state["hint"] = hint_for if solver else None
    bot.add_dynamic_items(ReviewButton, HintButton, HintConfirmButton)


async def teardown(bot) -> None:
    bot.remove_dynamic_items(ReviewButton, HintButton, HintConfirmButton)
