"""Two bot processes on one PostgreSQL database, each running one of two shards (``run --shard-count 2
--shard-ids 0`` and ``--shard-ids 1``): each server's daily post is made once, each day's par is solved once over
both processes the day before (and by the other process when the one solving it is killed), and of two clicks on
one game from the two processes exactly one move is made.

Each process is tests/discord/shard_process.py: the real sharded bot under its own SimCord (its own virtual
Discord with one server on its shard; the same player, alice, in both), driven over stdin/stdout.
"""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app.daily.days import day_start as midnight
from storage import open_store

ROOT = Path(__file__).resolve().parents[2]
DAY = 86_400


class Process:
    def __init__(self, proc: asyncio.subprocess.Process, log: Path) -> None:
        self.proc, self.log = proc, log

    @classmethod
    async def start(cls, url: str, shard_id: int, tmp_path: Path, *options: str) -> Process:
        log = tmp_path / f"shard{shard_id}.log"
        with log.open("w") as errors:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.discord.shard_process", url, "2", str(shard_id), *options, cwd=ROOT,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=errors, limit=2**20)
        return cls(proc, log)

    async def read(self) -> dict:
        line = await asyncio.wait_for(self.proc.stdout.readline(), 300)
        assert line, f"the bot process ended:\n{self.log.read_text()[-3000:]}"
        return json.loads(line)

    async def tell(self, **command) -> None:
        self.proc.stdin.write((json.dumps(command) + "\n").encode())
        await self.proc.stdin.drain()

    async def ask(self, **command) -> dict:
        await self.tell(**command)
        return await self.read()

    async def stop(self) -> None:
        if self.proc.returncode is None:
            try:
                self.proc.stdin.write(b'{"do": "quit"}\n')
                await self.proc.stdin.drain()
                await asyncio.wait_for(self.proc.wait(), 60)
            except (TimeoutError, ConnectionError):
                self.proc.kill()
                await self.proc.wait()


async def both(processes, **command) -> list[dict]:
    """The same command to both processes at once (each acts the moment it reads it)."""
    return await asyncio.gather(*(p.ask(**command) for p in processes))


async def settled(processes, done, limit: float = 120.0) -> list[dict]:
    """Their states once ``done(states)``: virtual time moves on 5 s at a time while a solve runs for real (and
    the other process looks for its result every few seconds)."""
    deadline = asyncio.get_running_loop().time() + limit
    while not done(states := await both(processes, do="state")) and asyncio.get_running_loop().time() < deadline:
        await both(processes, do="advance", seconds=5)
        await asyncio.sleep(0.2)
    return states


async def until_par(processes, store, day: int, limit: float = 240.0) -> None:
    """Virtual time moves on 5 s at a time, in every process together, until the par of ``day`` is stored."""
    deadline = asyncio.get_running_loop().time() + limit
    while (await store.get_daily(day) is None or (await store.get_daily(day)).par is None) \
            and asyncio.get_running_loop().time() < deadline:
        await both(processes, do="advance", seconds=5)
        await asyncio.sleep(0.2)


async def par_lease(store, day: int) -> tuple | None:
    """Who holds the lease on the par of ``day``, and until when, as stored (None: nobody)."""
    rows = await store.db.read("SELECT par_owner, par_lease_until FROM daily_challenges WHERE day = $1", (day,))
    return tuple(rows[0]) if rows and rows[0][0] is not None else None


@pytest.fixture
async def processes(pg_url, tmp_path):
    started = [await Process.start(pg_url, shard, tmp_path) for shard in (0, 1)]
    try:
        yield started
    finally:
        for process in started:
            await process.stop()


async def test_two_processes_each_with_half_the_shards_share_the_work_without_doing_any_twice(processes, pg_url):
    hello = [await p.read() for p in processes]
    assert hello[0]["alice"] == hello[1]["alice"]  # the same player on both servers
    alice = hello[0]["alice"]
    store = await open_store(pg_url)
    try:
        # Both servers turn the daily post on at once: each process posts its own server's daily, and the day's
        # par is solved by one of them while the other waits for it; then tomorrow's, ahead of its day.
        await both(processes, do="schedule")
        states = await settled(processes, lambda states: all(s["posts"] for s in states))
        assert [s["guilds"] for s in states] == [[s["guild"]] for s in states]  # each sees its shard's server only
        assert [s["posts"] for s in states] == [["🗝️ Scoundrel Daily #1"]] * 2
        await until_par(processes, store, 2)
        states = await both(processes, do="state")
        assert sum(s["solves"] for s in states) == 2  # day 1 and day 2, each once over both processes
        assert (await store.get_daily(1)).par is not None and (await store.get_daily(2)).par is not None
        assert all(datetime.fromisoformat(s["now"]) < midnight(2) for s in states)  # day 2's par, before day 2
        assert await store.settled_daily_posts(1) == {s["guild"] for s in states}

        # Midnight in both processes together: day 2's posts go out at once (its par was ready), once per server;
        # then day 3's par is solved once in all (the process that did not solve it reads it from the database).
        await both(processes, do="advance", seconds=DAY)
        states = await settled(processes, lambda states: all(len(s["posts"]) == 2 for s in states))
        assert [s["posts"] for s in states] == [["🗝️ Scoundrel Daily #1", "🗝️ Scoundrel Daily #2"]] * 2
        for state in states:
            assert datetime.fromisoformat(state["posted_at"][1]) - midnight(2) <= timedelta(seconds=5)
        await until_par(processes, store, 3)
        states = await both(processes, do="state")
        assert sum(s["solves"] for s in states) == 3
        assert await store.undelivered_daily_posts(2) == []

        # Alice's game, shown on both servers; she clicks on both copies at the same moment. The copy shown first
        # is an old copy once the second is shown: its click is refused, the other one's move is made.
        await processes[0].ask(do="play", seed="0000-0004")
        game = await store.active_game(alice)
        await store.set_message(game.id, None, None)  # (see below: no retiring across the two simulations)
        await processes[1].ask(do="resume")
        clicks = await both(processes, do="click")
        assert "old copy of your game" in clicks[0]["notes"][0]
        assert await store.game_actions(game.id) == [clicks[1]["clicked"].rsplit(":", 1)[1]]
        # Then both copies current (shown again, and the game's message id not saved yet, as after a restart): both
        # clicks reach the database at once, again; exactly one move is made each time. (Two rounds: alice may
        # post /scoundrel resume three times a minute, real time, and process 1 has used one already.)
        for _ in range(2):
            before, previous = await store.load_game(game.id), await store.game_actions(game.id)
            if not before.playing:
                break
            for process in processes:
                # (no message id saved: each Discord here is a simulation of its own, whose ids may collide with
                # the other's, so one process must not retire a message the other posted)
                await store.set_message(game.id, None, None)
                shown = await process.ask(do="resume")
                assert "Slow down" not in (shown["text"] or ""), shown  # a fresh copy was posted, not refused
            await store.set_message(game.id, None, None)
            clicks = await both(processes, do="click")
            assert {c["clicked"].split(":")[3] for c in clicks} == {str(before.version)}, (before.version, clicks)
            after = await store.load_game(game.id)
            assert after.version == before.version + 1, clicks  # exactly one of the two moves was made
            log = await store.game_actions(game.id)
            assert len(log) == after.version and log[:-1] == previous  # nothing lost, nothing doubled
            assert log[-1] in {c["clicked"].rsplit(":", 1)[1] for c in clicks}
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()


async def test_a_par_whose_solver_was_killed_is_solved_by_the_other_process_before_its_day(pg_url, tmp_path):
    """Process 0 takes the lease on tomorrow's par and is killed in the middle of the solve; process 1 waits while
    the lease runs, then takes the solve over: day 2's par is stored before day 2, and day 2's posts do not wait."""
    from app.daily.deal import todays_challenge

    store = await open_store(pg_url)
    lease = "lease=20"  # seconds: SimCord's clock runs them out in real time while process 1 waits
    holder = await Process.start(pg_url, 0, tmp_path, "hang", lease)
    other = None
    try:
        await holder.read()
        challenge = await todays_challenge(store, 1)
        await store.set_daily_par(1, 0)  # day 1's par is known: tomorrow's is the one solved
        assert challenge.par is None and (await store.get_daily(1)).par == 0
        await holder.tell(do="schedule")  # posts day 1, then starts day 2's solve, which never ends
        deadline = asyncio.get_running_loop().time() + 120
        while (held := await par_lease(store, 2)) is None:
            assert asyncio.get_running_loop().time() < deadline, holder.log.read_text()[-3000:]
            await asyncio.sleep(0.2)
        holder.proc.kill()  # killed mid-solve: its lease stays in the database
        await holder.proc.wait()

        other = await Process.start(pg_url, 1, tmp_path, lease)
        await other.read()
        await other.tell(do="schedule")  # posts day 1; day 2's par is a dead process's: it waits, then takes it
        owners = []
        while (await store.get_daily(2)).par is None:
            assert asyncio.get_running_loop().time() < deadline + 240, other.log.read_text()[-3000:]
            now = await par_lease(store, 2)
            if now is not None and (not owners or owners[-1] != now[0]):
                owners.append(now[0])
            await asyncio.sleep(0.1)
        assert (await other.read())["text"]  # the schedule's answer
        state = await other.ask(do="state")
        assert state["posts"] == ["🗝️ Scoundrel Daily #1"] and state["solves"] == 1
        assert owners[0] == held[0] and len(owners) <= 2  # the dead holder's lease, then (seen or not) process 1's
        assert datetime.fromisoformat(state["now"]) < midnight(2)
        # Midnight: the post goes out at once, and day 2 is not solved again (day 3 is, ahead).
        await other.ask(do="advance", seconds=DAY)
        await until_par([other], store, 3)
        state = await other.ask(do="state")
        assert state["posts"] == ["🗝️ Scoundrel Daily #1", "🗝️ Scoundrel Daily #2"]
        assert datetime.fromisoformat(state["posted_at"][1]) - midnight(2) <= timedelta(seconds=5)
        assert state["solves"] == 2
    finally:
        if holder.proc.returncode is None:
            holder.proc.kill()
            await holder.proc.wait()
        if other is not None:
            await other.stop()
        await store.close()
