"""What the scheduler owes each day, and what it still owes: the midnight sweep, the day's par and the posts.

Each job is marked done for its day when it succeeds, or failing (with the back-off of its next attempt) when it
does not, whatever failed: the database, Discord or the solver. The poster's retry loop tries a failing job again
until it is done; ``overdue`` is what the health check reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

SWEEP, PAR, POST = "sweep", "par", "post"
OVERDUE_AFTER = timedelta(minutes=15)  # a job failing this long is reported by /healthz
RETRY_FIRST, RETRY_MAX = timedelta(seconds=30), timedelta(minutes=15)


def retry_delay(failures: int) -> timedelta:
    """Back-off after the ``failures``-th failed attempt: 30 s, 1 min, 2 min, … at most 15 min."""
    return min(RETRY_FIRST * 2 ** min(max(failures - 1, 0), 10), RETRY_MAX)


@dataclass
class Job:
    done_day: int | None = None
    failures: int = 0
    failing_since: datetime | None = None  # the first failure not followed by a success
    retry_at: datetime | None = None


class Jobs:
    """The state of the scheduled jobs in this process (another process keeps its own: each retries its own)."""

    def __init__(self) -> None:
        self.jobs = {name: Job() for name in (SWEEP, PAR, POST)}

    def succeeded(self, name: str, day: int) -> None:
        self.jobs[name] = Job(done_day=day)

    def failed(self, name: str, now: datetime) -> timedelta:
        """Record a failure; returns the delay before the next attempt."""
        job = self.jobs[name]
        job.failures += 1
        job.failing_since = job.failing_since or now
        delay = retry_delay(job.failures)
        job.retry_at = now + delay
        return delay

    def failing(self, name: str) -> bool:
        return self.jobs[name].failing_since is not None

    def any_failing(self) -> bool:
        return any(job.failing_since is not None for job in self.jobs.values())

    def due(self, now: datetime) -> list[str]:
        """The failing jobs whose next attempt is due."""
        return [name for name, job in self.jobs.items() if job.retry_at is not None and job.retry_at <= now]

    def overdue(self, now: datetime) -> list[str]:
        """The jobs failing for more than ``OVERDUE_AFTER``."""
        return [name for name, job in self.jobs.items()
                if job.failing_since is not None and now - job.failing_since > OVERDUE_AFTER]
