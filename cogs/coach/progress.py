"""A slow answer shows how far it is: the deferred answer ("thinking…") edited with the solver's progress.

Edits stay within Discord's limits (5 edits per 5 s per channel): one answer is edited at most once every
``EDIT_EVERY`` seconds, with the progress of that moment, and never after the answer itself (``close`` first).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import discord

from app.solver.progress import Progress
from cogs.plumbing.interaction import Interaction
from games.i18n import Messages

log = logging.getLogger(__name__)

EDIT_EVERY = 2.0  # seconds between two edits of one answer
FIRST_EDIT = 1.0  # seconds before the first (Discord's "thinking…" says enough for a quick answer)
BAR = 10  # cells of the progress bar


def bar(fraction: float) -> str:
    """``▰▰▰▱▱▱▱▱▱▱``: ``fraction`` (0 to 1) of the cells full."""
    full = round(BAR * max(0.0, min(1.0, fraction)))
    return "▰" * full + "▱" * (BAR - full)


def waiting_text(progress: Progress, tr: Messages) -> str:
    return tr.plural("Waiting for the solver: {n} request ahead of yours.",
                     "Waiting for the solver: {n} requests ahead of yours.", progress.ahead)


def review_progress(tr: Messages) -> Callable[[Progress], str]:
    """The review's progress: its place in the queue, then a bar of the moves judged."""
    def text(progress: Progress) -> str:
        if progress.ahead:
            return "🎓 " + waiting_text(progress, tr)
        if not progress.total:
            return "🎓 " + tr("Reviewing your game…")
        return ("🎓 " + tr("Reviewing your game: {done}/{total} moves judged.", done=progress.done,
                           total=progress.total) + "\n" + bar(progress.fraction))
    return text


def hint_progress(tr: Messages) -> Callable[[Progress], str]:
    """The hint's progress: its place in the queue, then that the coach is judging the moves."""
    def text(progress: Progress) -> str:
        if progress.ahead:
            return "💡 " + waiting_text(progress, tr)
        if progress.done:  # orders solved so far (a hint stops once sure: no total to show)
            return "💡 " + tr("Judging each move on the orders of the dungeon you could be in… {orders} solved so far",
                             orders=progress.done)
        return "💡 " + tr("Judging each move on the orders of the dungeon you could be in…")
    return text


class ProgressEdits:
    """Called with the ``Progress`` of the job an interaction waits for (again and again while it runs); edits its
    deferred answer to ``text(progress)`` when that changed, at most once every ``EDIT_EVERY`` seconds and not in
    its first ``FIRST_EDIT``. Real time: a quick answer needs no edit, whatever the clock of the event loop."""

    def __init__(self, interaction: Interaction, text: Callable[[Progress], str]) -> None:
        self.interaction, self.text = interaction, text
        self._shown: str | None = None
        self._next = time.perf_counter() + FIRST_EDIT
        self._task: asyncio.Task | None = None
        self._closed = False

    def __call__(self, progress: Progress) -> None:
        if self._closed or time.perf_counter() < self._next or (self._task is not None and not self._task.done()):
            return
        text = self.text(progress)
        if text == self._shown:
            return
        self._next, self._shown = time.perf_counter() + EDIT_EVERY, text
        self._task = asyncio.create_task(self._edit(text))

    async def _edit(self, text: str) -> None:
        try:
            await self.interaction.edit_original_response(content=text)
        except discord.HTTPException:  # progress is a courtesy: the answer itself still comes
            log.debug("a progress edit failed", exc_info=True)

    async def close(self) -> None:
        """No more edits: the answer comes next (after the edit under way, never before it)."""
        self._closed = True
        if self._task is not None:
            await self._task
