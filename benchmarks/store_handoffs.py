"""What one thread hand-off per transaction (instead of one per statement) would buy a click, measured on the
store as it is: a click's store work is ``load_game`` then ``play``.

    .venv/bin/python benchmarks/store_handoffs.py [--games 200] [--moves 1000]

Each SQL statement through aiosqlite is one hand-off: the event loop queues a function for the connection's
thread, which runs it and schedules the result back on the loop. Printed:
- a hand-off's own cost: ``execute("SELECT 1")`` round trips through aiosqlite against the same statement on a
  plain ``sqlite3`` connection (wall and this process's CPU, per statement);
- a click's store work (``load_game`` + ``play`` on 200 live games, moves from their legal ones): wall and CPU per
  click, and how many statements (so hand-offs) it made, counted by SQLite's trace callback on every connection;
- the estimate: the statements inside a transaction, less one, are hand-offs saved, times a hand-off's cost.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite  # noqa: E402

from games.engine import PRESETS, legal_actions  # noqa: E402
from storage import open_store  # noqa: E402


async def handoff_cost(path: Path, rounds: int = 3000) -> tuple[float, float, float, float]:
    """(wall µs, CPU µs) of one aiosqlite statement, and the same for plain sqlite3."""
    async with aiosqlite.connect(path) as db:
        for _ in range(200):
            await db.execute("SELECT 1")
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(rounds):
            await db.execute("SELECT 1")
        wall, cpu = (time.perf_counter() - wall) / rounds * 1e6, (time.process_time() - cpu) / rounds * 1e6
    plain = sqlite3.connect(path)
    raw_wall, raw_cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        plain.execute("SELECT 1").fetchall()
    raw_wall, raw_cpu = ((time.perf_counter() - raw_wall) / rounds * 1e6,
                         (time.process_time() - raw_cpu) / rounds * 1e6)
    plain.close()
    return wall, cpu, raw_wall, raw_cpu


async def clicks(path: Path, games: int, moves: int) -> tuple[list[float], list[float], float, float]:
    store = await open_store(path)
    statements = [0]
    begins = [0]
    outside = [0]  # statements outside any transaction (reads): each stays one hand-off
    inside = [False]

    def traced(sql: str) -> None:
        word = sql.lstrip().upper().split(" ", 1)[0]
        statements[0] += 1
        if word == "BEGIN":
            begins[0] += 1
            inside[0] = True
        elif word in ("COMMIT", "ROLLBACK"):
            inside[0] = False
        elif not inside[0]:
            outside[0] += 1

    db = store.db  # the SQLite backend's connections are private: a benchmark's look only
    connections = [db._conn()] + [c for pool in {id(p): p for p in (db._reader, db._board_reader)
                                                  if p is not None}.values() for c in pool._all]
    for connection in connections:
        await connection.set_trace_callback(traced)
    rng = random.Random(1)
    records = [await store.create_game(10_000 + i, 1, 1, PRESETS["classic"].with_health(99), seed=i)
               for i in range(games)]
    walls, cpus = [], []
    statements[0] = begins[0] = outside[0] = 0
    for n in range(moves):
        i = n % games
        started, cpu = time.perf_counter(), time.process_time()
        record = await store.load_game(records[i].id)
        if record.status != "playing":
            record = await store.create_game(20_000 + n, 1, 1, PRESETS["classic"].with_health(99), seed=games + n)
        records[i] = await store.play(record.id, record.user_id, record.version,
                                      rng.choice(legal_actions(record.state)))
        walls.append((time.perf_counter() - started) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    per_click, after = statements[0] / moves, (begins[0] + outside[0]) / moves
    await store.close()
    return walls, cpus, per_click, after


async def main_async(games: int, moves: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wall, cpu, raw_wall, raw_cpu = await handoff_cost(Path(tmp) / "handoff.sqlite3")
        print(f"one statement: aiosqlite {wall:.1f} µs wall, {cpu:.1f} µs CPU; plain sqlite3 {raw_wall:.1f} µs wall, "
              f"{raw_cpu:.1f} µs CPU -> a hand-off costs about {cpu - raw_cpu:.1f} µs of CPU")
        walls, cpus, per_click, after = await clicks(Path(tmp) / "store.sqlite3", games, moves)
        print(f"a click's store work (load_game + play): median {statistics.median(walls):.2f} ms wall, "
              f"{statistics.median(cpus):.2f} ms CPU; {per_click:.1f} statements, so hand-offs, per click; "
              f"{after:.1f} with one per transaction and one per read")
        saved = max(0.0, per_click - after) * (cpu - raw_cpu) / 1000
        print(f"one hand-off per transaction would save about {saved:.2f} ms of CPU per click "
              f"({(per_click - after) * (wall - raw_wall) / 1000:.2f} ms of wall time when the loop is idle)")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=1000)
    args = parser.parse_args(argv)
    asyncio.run(main_async(args.games, args.moves))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
