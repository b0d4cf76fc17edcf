"""A finished game's review, worked out once and kept: every later ask is answered from the database at once.

A review judges every move of a finished game, which never changes again, so the first ask's answer is the answer
(the store keeps it, in the words' templates, so it reads in any language: ``app.coach.kept``). While it is being
worked out, a second ask (the same player tapping again, in chat or at the table) joins the one running instead
of starting another; each asker may watch its progress. A game in progress is never reviewed
(``app.coach.access.check_review``), so no review of a game in progress is kept.

The running reviews live in this process: each is a task that keeps the answer once it has it, even if nobody
waits for it any more (a table closed mid-review finds it kept when opened again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.coach.access import Reviewed
from app.coach.kept import review_from_json, review_to_json
from app.solver.progress import Progress, Watch
from storage.models import GameRecord
from storage.store import Store

log = logging.getLogger(__name__)

Reviewer = Callable[..., Any]  # (rules, deck, moves, *, requester, watch) -> awaitable ReviewText


@dataclass
class _Running:
    task: asyncio.Task | None = None  # set as it starts
    progress: Progress = Progress(0)
    watchers: list[Watch] = field(default_factory=list)

    def update(self, progress: Progress) -> None:
        self.progress = progress
        for watch in list(self.watchers):
            try:
                watch(progress)
            except Exception:  # a surface's drawing never stops the review
                log.exception("a review's progress could not be shown")


_running: dict[int, _Running] = {}  # game id -> its review being worked out


async def kept(store: Store, record: GameRecord) -> Reviewed | None:
    """The game's review as kept, or None when it has not been worked out yet."""
    text = review_from_json(await store.kept_review(record.id))
    return None if text is None else Reviewed(text, await store.is_hinted(record.id))


def _running_review(store: Store, record: GameRecord, user_id: int, reviewer: Reviewer) -> _Running:
    running = _running.get(record.id)
    if running is None:
        running = _running[record.id] = _Running()
        running.task = asyncio.create_task(_work_out(store, record, user_id, reviewer, running))
        running.task.add_done_callback(lambda task: task.cancelled() or task.exception())  # its askers are told
    return running


async def _work_out(store: Store, record: GameRecord, user_id: int, reviewer: Reviewer, running: _Running) -> Any:
    try:
        state = record.state
        text = await reviewer(record.rules, state.start_deck, state.history, requester=user_id, watch=running.update)
        await store.keep_review(record.id, review_to_json(text))
        return text
    finally:
        _running.pop(record.id, None)


async def review(store: Store, record: GameRecord, user_id: int, reviewer: Reviewer, *,
                 watch: Watch | None = None) -> Reviewed:
    """The review of a game ``check_review`` allowed: kept, else joined while it runs, else worked out in the
    solver's worker and kept; ``watch`` sees its progress meanwhile (the solver's ``SolverBusy`` and
    ``ParTimeout`` come through, and nothing is kept: the next ask tries again)."""
    found = await kept(store, record)
    if found is not None:
        return found
    running = _running_review(store, record, user_id, reviewer)
    assert running.task is not None
    if watch is not None:
        running.watchers.append(watch)
        watch(running.progress)
    try:
        await asyncio.wait({running.task})  # not cancelled with this asker: another may wait for it, and it is kept
        text = running.task.result()
    finally:
        if watch is not None and watch in running.watchers:
            running.watchers.remove(watch)
    return Reviewed(text, await store.is_hinted(record.id))


async def review_within(store: Store, record: GameRecord, user_id: int, reviewer: Reviewer, wait: float
                        ) -> Reviewed | Progress:
    """The review if it is kept or ready within ``wait`` seconds, else how far it is (it goes on, and is kept):
    for a surface that asks again rather than waits."""
    found = await kept(store, record)
    if found is not None:
        return found
    running = _running_review(store, record, user_id, reviewer)
    assert running.task is not None
    done, _ = await asyncio.wait({running.task}, timeout=wait)
    if not done:
        return running.progress
    return Reviewed(running.task.result(), await store.is_hinted(record.id))
