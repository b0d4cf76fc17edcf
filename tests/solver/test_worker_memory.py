"""The solver's worker tells how far a job is, and gives its memory back once it has been idle a while."""

from __future__ import annotations

import asyncio

from app.coach.advice import _review_in_worker
from app.solver.progress import Progress
from app.solver.worker import ParService, resident
from games.engine import PRESETS, deal
from tests.solver.worker_jobs import counted_steps, hold_memory, timed_nap

CLASSIC = PRESETS["classic"]
HEAVY = 120 * 2**20  # the bound for an idle worker


async def test_a_watched_job_is_told_its_place_in_the_queue_then_its_steps():
    service = ParService()
    first, second = [], []
    try:
        await asyncio.gather(service.run(timed_nap, 1.0, "ahead", requester=1, watch=first.append),
                             service.run(counted_steps, 4, 0.3, requester=2, watch=second.append))
    finally:
        await service.close()
    assert first[0] == Progress(0)  # ran at once
    assert second[0] == Progress(1)  # one job ahead of it
    counted = [p for p in second if not p.ahead]
    assert counted[-1] == Progress(0, 4, 4) and len({p.done for p in counted}) >= 3  # seen as it went
    assert [p.done for p in counted] == sorted(p.done for p in counted)


async def test_an_idle_worker_holding_much_memory_is_ended_and_the_next_job_gets_a_fresh_one():
    service = ParService(idle_end=1.0, heavy_idle=HEAVY)
    try:
        await service.run(hold_memory, 160)  # a job that leaves much behind (a review's searches are far lighter)
        [worker] = service.worker_processes()
        held = resident(worker.pid)
        assert held is not None and held > HEAVY  # without ending it, this is what an idle worker would keep
        await asyncio.sleep(0.5)
        assert service.worker_processes() == [worker]  # not yet idle long enough
        await asyncio.sleep(1.5)
        assert service.worker_processes() == []
        worker.join(10)
        assert not worker.is_alive()  # its memory went back to the system
        assert (await service.run(timed_nap, 0.0, "again"))[0] == "again"  # a fresh worker
        [fresh] = service.worker_processes()
        assert fresh.pid != worker.pid and (resident(fresh.pid) or 0) < HEAVY
    finally:
        await service.close()


async def test_a_review_leaves_its_worker_light():
    """The heaviest thing a worker keeps: a review keeps the deal's whole search for its par (the next review of the
    deal reuses it); in C it is a few megabytes, and the worker stays below the idle bound without being ended."""
    service = ParService(idle_end=-1)
    deck = " ".join(card.code for card in deal(CLASSIC, 900302))
    try:
        await service.run(_review_in_worker, CLASSIC.to_dict(), deck, "A")
        [worker] = service.worker_processes()
        held = resident(worker.pid)
        assert held is not None and held < HEAVY
    finally:
        await service.close()


async def test_a_light_idle_worker_is_kept():
    service = ParService(idle_end=0.2, heavy_idle=HEAVY)
    try:
        await service.run(timed_nap, 0.0, "light")
        [worker] = service.worker_processes()
        await asyncio.sleep(1.0)
        assert service.worker_processes() == [worker]  # a fresh interpreter's few tens of MB: no restart cost
    finally:
        await service.close()
