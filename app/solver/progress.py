"""How far a solver job is: where it waits in the queue, then the steps its worker has done.

The worker process gets two shared integers as it starts (``attach``); a job that counts its steps writes them
with ``report`` (a review: the moves judged so far, of all its moves). The bot's side reads them while it waits
for that job and hands a ``Progress`` to whoever watches (``ParService.run(..., watch=)``): a surface draws it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple


class Progress(NamedTuple):
    ahead: int  # jobs before this one (the one running included); 0 once this one runs
    done: int = 0  # steps the running job has done
    total: int = 0  # its steps in all; 0 when the job does not count them (a hint)

    @property
    def fraction(self) -> float:
        """Done of all, 0 to 1 (0 while waiting or when the job does not count its steps)."""
        return min(1.0, self.done / self.total) if self.total and not self.ahead else 0.0


Watch = Callable[[Progress], Any]  # called with each new progress; it must not block

_shared: Any = None  # in the worker process: the array of two integers (done, total) the bot reads


def attach(shared: Any) -> None:
    """In the worker, as it starts: the integers its jobs report into."""
    global _shared
    _shared = shared


def report(done: int, total: int) -> None:
    """In the worker: the running job has done ``done`` of ``total`` steps (nothing outside a worker)."""
    if _shared is not None:
        with _shared.get_lock():
            _shared[0], _shared[1] = done, total
