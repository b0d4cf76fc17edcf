"""One time limit for every store call: ``Store`` and the areas it hands out (``store.duels``) are
``time_limited``: each public coroutine method gives up after the store's ``wait`` seconds with ``StoreTimeout``
(a ``DatabaseUnavailable``), while the call itself goes on, shielded, so a move that is slow to commit is still
committed (and a game read later shows it). ``wait`` None (the default of ``open_store``) waits as long as the
database takes: the operator's commands (backup, copy-db) use that; the bot sets ``STORE_WAIT``.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
from typing import Any, Protocol, TypeVar

from storage.errors import DatabaseError, DatabaseUnavailable

log = logging.getLogger(__name__)

STORE_WAIT = 10.0  # seconds a store call may take before its caller gives up (the bot's; Discord waits no longer)
UNLIMITED = frozenset({"close"})  # closing waits for the moves on their way: never cut short

C = TypeVar("C", bound=type)


class StoreTimeout(DatabaseUnavailable):
    """A store call did not finish within the store's ``wait``; it goes on, and may still succeed."""

    def __init__(self, call: str, seconds: float) -> None:
        super().__init__(f"the database did not answer {call} within {seconds:g} s")
        self.call = call


class Limited(Protocol):
    @property
    def wait(self) -> float | None: ...


def time_limited(cls: C) -> C:
    """Make every public coroutine method of ``cls`` give up after ``self.wait`` seconds (none when None)."""
    for name, value in list(vars(cls).items()):
        if not name.startswith("_") and name not in UNLIMITED and inspect.isfunction(value) \
                and inspect.iscoroutinefunction(value):
            setattr(cls, name, _within_wait(name, value))
    return cls


def _within_wait(name: str, method: Any) -> Any:
    @functools.wraps(method)
    async def within_wait(self: Limited, *args: Any, **kwargs: Any) -> Any:
        wait = self.wait
        if wait is None:
            return await method(self, *args, **kwargs)
        call = asyncio.ensure_future(method(self, *args, **kwargs))
        # (asyncio.wait never cancels what it waits for: the call is shielded from its caller as it is)
        done, _ = await asyncio.wait((call,), timeout=wait)
        if done:
            return call.result()
        call.add_done_callback(functools.partial(_late, name))
        raise StoreTimeout(name, wait)

    return within_wait


def _late(name: str, call: asyncio.Future) -> None:
    if call.cancelled():
        return
    error = call.exception()
    if error is None:
        log.warning("store call %s finished after its caller had given up", name)
    elif isinstance(error, DatabaseError):  # the caller's StoreTimeout was counted with the database's trouble
        log.debug("store call %s failed after its caller had given up: %r", name, error)
    else:
        log.warning("store call %s failed after its caller had given up: %r", name, error)
