"""The solver's worker frees the searches it let go of while it waits for its next request.

A whole deal's search holds a few million small objects, and freeing one takes tenths of a second: done where it is
let go of, that time lands on the request that let it go (a room's first hint lets go of the orders of a room three
rooms back). Instead a thread of the worker frees them a few thousand objects at a time (``Position.release``), and
only while no request runs: a request that arrives meanwhile waits at most for the step under way (about a
millisecond) and the interpreter's switch interval.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

STEP = 5000  # objects freed per step
WAITING = 8  # searches waiting at most (a room's orders, up to tens of MB each); beyond, the oldest are freed at once


class Releasable(Protocol):
    def release(self, items: int) -> bool: ...


class Tidier:
    def __init__(self) -> None:
        self._waiting: list[Releasable] = []
        # The waiting list and each step of freeing: a request that frees the oldest at once (``let_go``) may come
        # while the thread is inside a step on that same search.
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._depth = 0  # requests under way (in the worker's one thread)

    @contextmanager
    def request(self) -> Iterator[None]:
        """Around a request: the freeing pauses while it runs and goes on after it (requests may nest)."""
        self._depth += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._depth -= 1
            if not self._depth:
                self._idle.set()
                if self._waiting:
                    self._wake.set()

    def let_go(self, searches: list) -> None:
        """Take ``searches`` (emptying the list) to free in spare time."""
        with self._lock:
            self._waiting += searches
            searches.clear()
            while len(self._waiting) > WAITING:
                self._waiting.pop(0).release(1 << 62)
        if self._waiting and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="free-searches", daemon=True)
            self._thread.start()

    def wait(self, timeout: float) -> bool:
        """Until nothing waits to be freed (as the worker's time between two requests would give), or ``timeout``
        seconds; whether nothing waits."""
        deadline = time.monotonic() + timeout
        while self._waiting and time.monotonic() < deadline:
            time.sleep(0.001)
        return not self._waiting

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            while self._waiting:
                self._idle.wait()
                with self._lock:
                    if self._waiting and self._waiting[0].release(STEP):
                        del self._waiting[0]


TIDIER = Tidier()  # the worker process's
