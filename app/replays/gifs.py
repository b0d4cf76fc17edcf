"""Replays for the bot: GIFs rendered in one worker thread, off the event loop, queued and bounded like par.

``await shared().render(rules, deck, actions, ..., requester=user_id)`` → a solo game's GIF (``games.picture.replay``);
``await shared().render_duel(seed, actions, dealer=..., requester=user_id)`` → a duel's (``games.picture.duel_replay``).
Both kinds share one thread that renders one replay at a time (a solo game's is about 80 ms of CPU, a whole duel's
about 0.4 s, mostly in Pillow's C code, which lets the event loop run); at most ``capacity`` wait behind it, each
player has at most one waiting or rendering, and a request past either limit raises ``ReplayBusy`` with a message
for the player. Rendered replays are kept, keyed by the deal, the line(s) shown and the language: the same game
asked for again is answered at once.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from games.engine import Action, Rules
from games.engine.cards import Card
from games.i18n import N_
from games.i18n.messages import ENGLISH, Messages
from games.picture.duel_replay import render_duel_replay
from games.picture.replay import render_replay

DEFAULT_CAPACITY = 8  # replays waiting behind the one rendering; more are told to try again
KEPT = 64  # rendered replays remembered (a 40-move game's is about 300 KB)
KEPT_BYTES = 32 << 20  # and at most this many bytes of them (a whole duel's replay is about 0.8 MB)

BUSY_FULL = N_("Many replays are being drawn right now; please try again in a minute.")
BUSY_YOURS = N_("Your previous replay is still being drawn; it will be posted first.")


class ReplayBusy(RuntimeError):
    """The replay was not queued; ``str()`` is a plain message (to translate) for the player."""


class ReplayService:
    def __init__(self, capacity: int = DEFAULT_CAPACITY, kept: int = KEPT, kept_bytes: int = KEPT_BYTES) -> None:
        self.capacity = capacity
        self.kept, self.kept_bytes = kept, kept_bytes
        self._thread: ThreadPoolExecutor | None = None
        self._pending = 0  # replays queued or rendering
        self._players: set[int] = set()
        self._done: OrderedDict[tuple, bytes] = OrderedDict()
        self._done_bytes = 0

    @property
    def pending(self) -> int:
        return self._pending

    def refusal(self, requester: int | None) -> str | None:
        """Why a new replay for ``requester`` would not be queued now (a message to translate), or None: asked
        before the click is answered, so a refusal can be private."""
        if requester is not None and requester in self._players:
            return BUSY_YOURS
        if self._pending > self.capacity:  # the one rendering and ``capacity`` waiting
            return BUSY_FULL
        return None

    async def render(self, rules: Rules, deck: Sequence[Card], actions: Sequence[Action], *,
                     seed: int | None = None, par: Sequence[Action] | None = None, abandoned: bool = False,
                     title: str | None = None, tr: Messages = ENGLISH, requester: int | None = None) -> bytes:
        """A solo game's replay (``games.picture.replay.render_replay``), ``title`` naming the game on its first
        frame."""
        key = (rules, tuple(deck), seed, tuple(actions), None if par is None else tuple(par), abandoned, title,
               tr.locale)
        job = partial(render_replay, rules, tuple(deck), tuple(actions), seed=seed,
                      par=None if par is None else tuple(par), abandoned=abandoned, title=title, tr=tr)
        return await self._drawn(key, job, requester)

    async def render_duel(self, seed: int, actions: Sequence[str], *, dealer: int = 1, title: str | None = None,
                          tr: Messages = ENGLISH, requester: int | None = None) -> bytes:
        """A duel's replay (``games.picture.duel_replay.render_duel_replay``), ``actions`` its action codes."""
        key = ("duel", seed, dealer, tuple(actions), title, tr.locale)
        job = partial(render_duel_replay, seed, tuple(actions), dealer=dealer, title=title, tr=tr)
        return await self._drawn(key, job, requester)

    async def _drawn(self, key: tuple, job: Callable[[], bytes], requester: int | None) -> bytes:
        """The kept replay of ``key``, or ``job`` run in the worker thread within the limits, then kept."""
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            return done
        reason = self.refusal(requester)
        if reason:
            raise ReplayBusy(reason)
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="replay")
        self._pending += 1
        if requester is not None:
            self._players.add(requester)
        try:
            gif = await asyncio.get_running_loop().run_in_executor(self._thread, job)
        finally:
            self._pending -= 1
            self._players.discard(requester)
        if key not in self._done:  # (two players may have asked for the same replay at once)
            self._done[key] = gif
            self._done_bytes += len(gif)
        while len(self._done) > self.kept or (self._done_bytes > self.kept_bytes and len(self._done) > 1):
            self._done_bytes -= len(self._done.popitem(last=False)[1])
        return gif

    async def close(self) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:
            await asyncio.to_thread(thread.shutdown, True, cancel_futures=True)


_service = ReplayService()


def shared() -> ReplayService:
    """The process's one replay service."""
    return _service


async def close_replays() -> None:
    await _service.close()
