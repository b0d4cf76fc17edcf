"""The solver worker's queue: bounded, fair, the daily par first, and time limits that count only solving.

These run real jobs in the real worker process (a spawned interpreter); the jobs nap instead of solving so that
their durations are known.
"""

from __future__ import annotations

import asyncio

import pytest

from app.solver.worker import BUSY_FULL, BUSY_YOURS, ParService, ParTimeout, SolverBusy
from tests.solver.worker_jobs import timed_nap


async def warmed(service: ParService) -> ParService:
    await service.run(timed_nap, 0, "warm-up")  # the worker process starts outside the measured part
    return service


async def test_a_dozen_requests_do_not_time_out_and_the_daily_par_goes_first():
    service = await warmed(ParService(capacity=12))
    try:
        # Twelve players ask at once; each job solves in 0.15 s and may take 1 s. Waiting behind the others
        # (up to 1.8 s) must not count against that second.
        players = [asyncio.create_task(service.run(timed_nap, 0.15, f"player {i}", requester=i, time_limit=1.0))
                   for i in range(12)]
        await asyncio.sleep(0.05)  # the first player's job is running
        daily = asyncio.create_task(service.run(timed_nap, 0.15, "daily par", urgent=True, time_limit=1.0))
        results = await asyncio.gather(*players, daily)
    finally:
        await service.close()
    order = [tag for tag, _, _ in sorted(results, key=lambda r: r[1])]
    assert order[0] == "player 0" and order[1] == "daily par"  # the midnight par jumps the queue
    assert order[2:] == [f"player {i}" for i in range(1, 12)]  # then everyone in turn


async def test_one_outstanding_request_per_player():
    service = await warmed(ParService())
    try:
        first = asyncio.create_task(service.run(timed_nap, 0.3, "first", requester=7))
        await asyncio.sleep(0.05)
        with pytest.raises(SolverBusy) as refused:
            await service.run(timed_nap, 0, "again", requester=7)
        assert str(refused.value) == BUSY_YOURS
        assert (await service.run(timed_nap, 0, "someone else", requester=8))[0] == "someone else"
        assert (await first)[0] == "first"
        assert (await service.run(timed_nap, 0, "later", requester=7))[0] == "later"  # answered: may ask again
    finally:
        await service.close()


async def test_a_full_queue_refuses_players_plainly_but_never_the_daily_par():
    service = await warmed(ParService(capacity=2))
    try:
        running = asyncio.create_task(service.run(timed_nap, 0.3, "running", requester=1))
        await asyncio.sleep(0.05)
        queued = [asyncio.create_task(service.run(timed_nap, 0, f"queued {i}", requester=i)) for i in (2, 3)]
        await asyncio.sleep(0)
        assert service.queued == 2
        with pytest.raises(SolverBusy) as refused:
            await service.run(timed_nap, 0, "too many", requester=4)
        assert str(refused.value) == BUSY_FULL
        daily = await service.run(timed_nap, 0, "daily par", urgent=True)
        assert daily[0] == "daily par"
        assert [r[0] for r in await asyncio.gather(running, *queued)] == ["running", "queued 2", "queued 3"]
    finally:
        await service.close()


async def test_a_job_over_its_limit_is_stopped_without_failing_the_jobs_behind_it():
    service = await warmed(ParService())
    try:
        stuck = asyncio.create_task(service.run(timed_nap, 30, "stuck", requester=1, time_limit=0.3))
        await asyncio.sleep(0.05)
        behind = asyncio.create_task(service.run(timed_nap, 0, "behind", requester=2, time_limit=20))
        with pytest.raises(ParTimeout):
            await stuck
        assert (await behind)[0] == "behind"  # a fresh worker took it
    finally:
        await service.close()


async def test_a_request_given_up_while_waiting_leaves_the_queue():
    service = await warmed(ParService())
    try:
        running = asyncio.create_task(service.run(timed_nap, 0.2, "running", requester=1))
        await asyncio.sleep(0.05)
        gone = asyncio.create_task(service.run(timed_nap, 0, "gone", requester=2))
        await asyncio.sleep(0)
        gone.cancel()
        assert (await running)[0] == "running"
        assert (await service.run(timed_nap, 0, "again", requester=2))[0] == "again"
        assert service.queued == 0 and not service._running
    finally:
        await service.close()
