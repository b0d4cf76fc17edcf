"""Two bot processes on one PostgreSQL database, each running one of two shards (``run --shard-count 2
--shard-ids 0`` and ``--shard-ids 1``): each server's daily post is made once, the daily par is solved once over
both processes, and of two clicks on one game from the two processes exactly one move is made.

Each process is tests/discord/shard_process.py: the real sharded bot under its own SimCord (its own virtual
Discord with one server on its shard; the same player, alice, in both), driven over stdin/stdout.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from storage import open_store

ROOT = Path(__file__).resolve().parents[2]
DAY = 86_400


class Process:
    def __init__(self, proc: asyncio.subprocess.Process, log: Path) -> None:
        self.proc, self.log = proc, log

    @classmethod
    async def start(cls, url: str, shard_id: int, tmp_path: Path) -> Process:
        log = tmp_path / f"shard{shard_id}.log"
        with log.open("w") as errors:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.discord.shard_process", url, "2", str(shard_id), cwd=ROOT,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=errors, limit=2**20)
        return cls(proc, log)

    async def read(self) -> dict:
        line = await asyncio.wait_for(self.proc.stdout.readline(), 300)
        assert line, f"the bot process ended:\n{self.log.read_text()[-3000:]}"
        return json.loads(line)

    async def ask(self, **command) -> dict:
        self.proc.stdin.write((json.dumps(command) + "\n").encode())
        await self.proc.stdin.drain()
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
        # par is solved by one of them while the other waits for it.
        await both(processes, do="schedule")
        states = await settled(processes, lambda states: all(s["posts"] for s in states))
        assert [s["guilds"] for s in states] == [[s["guild"]] for s in states]  # each sees its shard's server only
        assert [s["posts"] for s in states] == [["🗝️ Scoundrel Daily #1"]] * 2
        assert sum(s["solves"] for s in states) == 1
        assert (await store.get_daily(1)).par is not None
        assert await store.settled_daily_posts(1) == {s["guild"] for s in states}

        # Midnight in both processes together: day 2 is solved once in all (the process that did not solve it
        # reads it from the database within a few seconds), then posted once per server.
        await both(processes, do="advance", seconds=DAY)
        states = await settled(processes, lambda states: all(len(s["posts"]) == 2 for s in states))
        assert [s["posts"] for s in states] == [["🗝️ Scoundrel Daily #1", "🗝️ Scoundrel Daily #2"]] * 2
        assert sum(s["solves"] for s in states) == 2
        assert (await store.get_daily(2)).par is not None
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
