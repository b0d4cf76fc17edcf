"""Answering an interaction in one request when the work is quick, and still in time when it is not.

Discord wants the first answer to an interaction within 3 seconds. A click normally answers with the edited
message itself (``response.edit_message``: one request, no flicker). If the work behind it is still running
after ``DEFER_AFTER`` seconds (a slow disk, a busy database), the interaction is deferred first and the answer
becomes an edit of the original response.

The same holds for every interaction, whatever its code does (``answer_in_time``, called by the bot as each
interaction arrives): one that is still unanswered ``DEFER_AFTER`` seconds after it arrived is deferred, and its
answer, when it comes, is sent the way a deferred interaction needs (``PatientResponse``). No store call waits
forever either: the store itself gives up after its time limit (``storage/time_limit.py``) with ``StoreTimeout``,
which the player hears plainly (cogs/plumbing/errors.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import heapq
import itertools
import logging
import threading
import time
from collections.abc import Awaitable
from typing import TypeVar

import discord

from cogs.plumbing.interaction import Interaction

log = logging.getLogger(__name__)

T = TypeVar("T")
DEFER_AFTER = 2.0  # seconds; leaves a second of Discord's three for the deferral itself
# Commands whose answer is a public message: deferred publicly, so that the answer stays public (the first
# follow-up replaces the "thinking…" message and keeps its visibility, so a slow one's refusal is public too).
# Any other command is deferred privately.
PUBLIC_COMMANDS = frozenset({"scoundrel play", "scoundrel resume", "scoundrel duel", "scoundrel leaderboard",
                             "scoundrel stats"})


async def in_time(interaction: Interaction, work: Awaitable[T], *, thinking: bool = False,
                  ephemeral: bool = False) -> T:
    """The result of ``work``; defers the interaction if the answer is not ready ``DEFER_AFTER`` seconds after the
    first ``in_time`` of this interaction.

    ``work`` is never cancelled by the deadline: a move being committed finishes whatever Discord does.
    """
    if isinstance(interaction.response, PatientResponse):
        return await work  # answer_in_time keeps this interaction's deadline already (every dispatched one)
    loop = asyncio.get_running_loop()
    # One deadline per interaction, however many steps its answer takes (load, move, picture).
    answer_by = interaction.extras.setdefault("answer_by", loop.time() + DEFER_AFTER)
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=max(0.0, answer_by - loop.time()))
    if not done and not interaction.response.is_done():
        await interaction.response.defer(thinking=thinking, ephemeral=ephemeral)
    return await task


async def edit_message(interaction: Interaction, **fields) -> None:
    """Edit the message the component is on: as the interaction's response, or after a deferral."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


async def send_message(interaction: Interaction, *args, **fields) -> discord.Message:
    """Answer with a new message and return it. Discord sends the message back with the answer, so it is not
    fetched again (a request less); it is fetched only when the answer did not carry it (a follow-up after
    ``answer_in_time`` deferred: the message is then the deferred answer's)."""
    sent = await interaction.response.send_message(*args, **fields)
    resource = getattr(sent, "resource", None)
    if isinstance(resource, discord.Message):
        return resource
    return await interaction.original_response()


# --- every interaction answered in time ----------------------------------------------------------------------

class PatientResponse(discord.InteractionResponse):
    """``interaction.response`` that still works after ``answer_in_time`` deferred it: a message becomes a
    follow-up, an edit of the clicked message an edit of the original response. Any answer begun before the
    deferral is due stops the deferral (no double acknowledgement)."""

    def __init__(self, parent: discord.Interaction) -> None:
        super().__init__(parent)
        self.answering = False  # an answer (or the code's own deferral) is on its way
        self.late: asyncio.Task | None = None  # answer_in_time's deferral, once begun
        self.deferred_late = False  # answer_in_time's deferral went through
        self.due: _Due | None = None  # what the wall clock holds until the deadline (answer_in_time)

    def _begin(self) -> None:
        self.answering = True
        if self.due is not None:
            self.due.interaction = None  # answered: the clock has nothing left to keep

    async def _was_deferred_late(self) -> bool:
        if self.late is not None and not self.late.done():
            await asyncio.shield(self.late)  # a deferral on its way: answer after it, the way it needs
        return self.deferred_late

    async def send_message(self, content=None, **fields):
        if await self._was_deferred_late():
            fields.pop("delete_after", None)
            return await self._parent.followup.send(content, **fields)
        self._begin()
        return await super().send_message(content, **fields)

    async def edit_message(self, **fields):
        if await self._was_deferred_late():
            for unsupported in ("delete_after", "suppress_embeds"):
                fields.pop(unsupported, None)
            return await self._parent.edit_original_response(**fields)
        self._begin()
        return await super().edit_message(**fields)

    async def defer(self, **options):
        if await self._was_deferred_late():
            return None
        self._begin()
        return await super().defer(**options)

    async def launch_activity(self):
        # Only ever a first answer: once the deadline has deferred, the Activity cannot be opened any more.
        if await self._was_deferred_late():
            raise discord.InteractionResponded(self._parent)
        self._begin()
        return await super().launch_activity()


class WallClock:
    """Calls made on their event loop after a delay of wall-clock time, kept by one thread for all.

    Discord's three seconds are wall-clock seconds. The event loop's own timers follow the loop's clock, which a
    simulated Discord (SimCord, in the tests) stops while the bot waits on its database, and its stopped clock
    is ``time.monotonic`` too: the deadline must not stop with it, so it is kept with ``time.perf_counter``.

    Every interaction adds a call, so the thread is woken only when a new call is due before all the others, and
    wakes ``SLACK`` after a call is due to hand every call then due to its loop at once (one wake-up for many)."""

    SLACK = 0.05  # seconds a call may run late; the deadline it keeps leaves a second to spare

    def __init__(self) -> None:
        self._due: list = []  # heap of (when, order, loop, callback, context)
        self._order = itertools.count()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def call_later(self, delay: float, loop: asyncio.AbstractEventLoop, callback) -> None:
        with self._changed:
            # (run in the caller's context, as the loop's own call_later would)
            entry = (time.perf_counter() + delay, next(self._order), loop, callback, contextvars.copy_context())
            heapq.heappush(self._due, entry)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="answer-deadlines", daemon=True)
                self._thread.start()
            if self._due[0] is entry:  # due first: the thread sleeps until a later time, or for ever
                self._changed.notify()

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._due or self._due[0][0] > time.perf_counter():
                    self._changed.wait(self._due[0][0] - time.perf_counter() + self.SLACK if self._due else None)
                now = time.perf_counter()
                by_loop: dict[asyncio.AbstractEventLoop, list] = {}
                while self._due and self._due[0][0] <= now:
                    _, _, loop, callback, context = heapq.heappop(self._due)
                    by_loop.setdefault(loop, []).append((callback, context))
            for loop, calls in by_loop.items():
                with contextlib.suppress(RuntimeError):  # the loop has closed: nothing left to answer
                    loop.call_soon_threadsafe(_call_each, calls)


def _call_each(calls: list) -> None:
    for callback, context in calls:
        try:
            context.run(callback)
        except Exception:  # noqa: BLE001 - one failing call must not stop the others (as with the loop's own)
            log.exception("a wall-clock call failed")


WALL_CLOCK = WallClock()


def answer_in_time(interaction: Interaction) -> None:
    """Called as ``interaction`` arrives (before its code runs): defer it if it is unanswered ``DEFER_AFTER``
    seconds from now. Autocomplete is left alone (it cannot be deferred)."""
    if interaction.type is discord.InteractionType.autocomplete:
        return None
    response = PatientResponse(interaction)
    # discord.py caches the response object in this slot (``Interaction.response``)
    setattr(interaction, "_cs_response", response)  # noqa: B010 - a private slot
    loop = asyncio.get_running_loop()
    interaction.extras.setdefault("answer_by", loop.time() + DEFER_AFTER)  # the deadline in_time keeps too
    response.due = _Due(interaction)
    WALL_CLOCK.call_later(DEFER_AFTER, loop, functools.partial(_when_due, response.due))


def release(interaction: Interaction) -> None:
    """Called once everything an interaction started has ended: its response object is dropped. discord.py's
    interaction and its response refer to each other, so without this every interaction (its message, member,
    embeds, buttons) outlived its click until the garbage collector's next pass found the cycle; now it is freed
    as the click ends, and the collector runs less often and finds less. Read again, ``interaction.response``
    would be a fresh, unanswered one: nothing still running uses it. One not answered yet, or whose deferral is
    under way, is left as it is."""
    response = getattr(interaction, "_cs_response", None)
    if not isinstance(response, PatientResponse) or not response.is_done():
        return  # unanswered: the deadline's deferral still needs it
    if response.late is not None and not response.late.done():
        return
    if response.due is not None:
        response.due.interaction = None
    delattr(interaction, "_cs_response")  # discord.py's cache of ``Interaction.response`` (see answer_in_time)


class _Due:
    """What the wall clock keeps of an interaction until its deadline: the interaction itself only while it is
    unanswered. An answered one is not kept alive for the clock's two seconds (under load, that carried every
    interaction's objects past the garbage collector's young generations, into its slow full passes)."""

    __slots__ = ("interaction",)

    def __init__(self, interaction: Interaction) -> None:
        self.interaction: Interaction | None = interaction


def _when_due(due: _Due) -> None:
    interaction = due.interaction
    if interaction is None:
        return
    response = interaction.response  # answered by now, as most are: nothing to start
    if isinstance(response, PatientResponse) and not response.is_done() and not response.answering:
        asyncio.get_running_loop().create_task(_defer_if_unanswered(interaction))


async def _defer_if_unanswered(interaction: Interaction) -> None:
    response = interaction.response
    if not isinstance(response, PatientResponse) or response.is_done() or response.answering:
        return
    response.late = asyncio.current_task()
    try:
        if interaction.type is discord.InteractionType.application_command:
            name = interaction.command.qualified_name if interaction.command else ""
            await discord.InteractionResponse.defer(response, thinking=True, ephemeral=name not in PUBLIC_COMMANDS)
        else:
            await discord.InteractionResponse.defer(response)  # a click: the message is edited later
        response.deferred_late = True
        log.info("deferred a slow interaction (%s) for user %s", interaction.type.name, interaction.user.id)
    except discord.HTTPException:
        log.warning("could not defer a slow interaction for user %s", interaction.user.id, exc_info=True)
