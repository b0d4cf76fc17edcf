"""A backup of a ~1 GB database while the bot makes 100 moves a second: does it finish, how long, and what
do players feel meanwhile?

    .venv/bin/python benchmarks/backup_bench.py                      # builds /tmp/scoundrel-bench/1gb.sqlite3
    .venv/bin/python benchmarks/backup_bench.py --db PATH --rate 100

The database is built once by ``big_database.py`` (real games copied with set-based SQL) and kept outside the
repository. Then one ``Store`` (as the bot opens it) makes ``--rate`` paced moves a second through
``Store.play`` from 200 players (each starting a new game when one ends), and ``scoundrel-bot backup`` runs as
a separate process, as an operator's cron job would. Printed: the backup's wall time and its own report (it
checks the copy with ``PRAGMA integrity_check``), the moves made meanwhile and their latency (p50/p99), and a
second check that opens the copy through ``Store`` and compares it with the live database.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import big_database  # noqa: E402

from games.engine import Rules, legal_actions  # noqa: E402
from storage import Store  # noqa: E402
from storage.errors import StorageError  # noqa: E402

PLAYERS = 200
LONG = Rules().with_health(60)  # long games: few (unpaced) new-game writes between the paced moves
FIRST_USER = 900_000_000  # players of this run: never the same ids as the built games


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


async def paced_moves(store: Store, rate: float, stop: asyncio.Event, latencies: list[float],
                      stamps: list[float]) -> int:
    """``rate`` moves a second in all from PLAYERS players, each clicking on its own clock (every
    PLAYERS / rate seconds, staggered), as people do: moves overlap, as they do on the bot. Runs until ``stop``."""
    games = {}
    for user in range(FIRST_USER, FIRST_USER + PLAYERS):  # everyone at the table before the clock starts
        games[user] = await store.active_game(user) or await store.create_game(user, 1, 1, LONG, seed=user)
    period = PLAYERS / rate
    begin = time.perf_counter()

    async def player(index: int, user: int) -> None:
        next_at = begin + period * index / PLAYERS
        while not stop.is_set():
            delay = next_at - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            next_at = max(next_at + period, time.perf_counter())  # a late click does not make the next early
            record = games[user]
            if not record.playing:
                record = await store.create_game(user, 1, 1, LONG, seed=int(next_at * 1000))
            started = time.perf_counter()
            try:
                record = await store.play(record.id, user, record.version, legal_actions(record.state)[0])
            except StorageError:
                continue
            latencies.append(time.perf_counter() - started)
            stamps.append(started)
            games[user] = record

    await asyncio.gather(*(player(i, user) for i, user in enumerate(games)))
    return len(latencies)


async def backup_under_load(db: Path, target: Path, rate: float, warmup: float) -> dict:
    """Run ``scoundrel-bot backup`` in its own process while this one makes paced moves."""
    store = await Store.open(db)
    stop = asyncio.Event()
    latencies: list[float] = []
    stamps: list[float] = []
    mover = asyncio.create_task(paced_moves(store, rate, stop, latencies, stamps))
    try:
        await asyncio.sleep(warmup)
        first = len(latencies)
        baseline = latencies[len(latencies) // 3:]  # the warm-up's later part: every player is seated
        started = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "backup", str(target), "--db", str(db), "--force",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await proc.communicate()
        elapsed = time.perf_counter() - started
        during = latencies[first:]
        slow = sorted(((stamps[i] - started, latencies[i]) for i in range(first, len(latencies))
                       if latencies[i] > 0.25), key=lambda x: x[0])
    finally:
        stop.set()
        await mover
        await store.close()
    return {"status": proc.returncode, "out": out.decode().strip(), "err": err.decode().strip(),
            "seconds": elapsed, "latencies": during, "baseline": baseline, "warmup": warmup,
            "slow": slow}


async def _load(target: Path, game_id: int):
    copy = await Store.open(target)
    try:
        return await copy.load_game(game_id)
    finally:
        await copy.close()


def check_copy(target: Path) -> tuple[int, int]:
    """(games, games whose action log disagrees with their version): a consistent copy has none of the latter."""
    conn = sqlite3.connect(target)
    try:
        bad = conn.execute("SELECT count(*) FROM games g WHERE version <> (SELECT count(*) FROM game_actions a "
                           "WHERE a.game_id = g.id)").fetchone()[0]
        games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        conn.close()
    return games, bad


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=Path("/tmp/scoundrel-bench/1gb.sqlite3"))
    parser.add_argument("--games", type=int, default=420_000, help="games to build when --db does not exist")
    parser.add_argument("--target", type=Path, help="where the copy goes (default: next to --db)")
    parser.add_argument("--rate", type=float, default=100.0, help="paced moves a second during the backup")
    parser.add_argument("--warmup", type=float, default=6.0, help="seconds of moves before the backup starts")
    args = parser.parse_args(argv)
    if not args.db.exists():
        print(f"building {args.games:,} games at {args.db} (once)")
        big_database.build(args.db, args.games)
    size = args.db.stat().st_size
    print(f"database: {args.db} ({size / 1e9:.2f} GB)")
    target = args.target or args.db.with_name(args.db.stem + "-backup.sqlite3")
    target.unlink(missing_ok=True)
    r = asyncio.run(backup_under_load(args.db, target, args.rate, args.warmup))
    print(f"backup exit status {r['status']} in {r['seconds']:.1f} s wall: {r['out']}")
    if r["err"]:
        print(r["err"])
    during, baseline = r["latencies"], r["baseline"]
    if baseline:
        print(f"moves before the backup: latency p50 {statistics.median(baseline) * 1000:.1f} ms, "
              f"p99 {percentile(baseline, 0.99) * 1000:.1f} ms")
    if during:
        print(f"moves during the backup: {len(during):,} ({len(during) / r['seconds']:.0f}/s, asked for "
              f"{args.rate:.0f}/s); latency p50 {statistics.median(during) * 1000:.1f} ms, "
              f"p99 {percentile(during, 0.99) * 1000:.1f} ms, max {max(during) * 1000:.1f} ms")
    if r["slow"]:
        by_second: dict[int, list[float]] = {}
        for at, took in r["slow"]:
            by_second.setdefault(int(at), []).append(took)
        print("moves slower than 250 ms, by second after the backup started: "
              + ", ".join(f"{second} s: {len(took)} (max {max(took) * 1000:.0f} ms)"
                          for second, took in sorted(by_second.items())))
    if r["status"] != 0:
        return 1
    games, bad = check_copy(target)
    sample = asyncio.run(_load(target, games // 2))
    print(f"copy: {target.stat().st_size:,} bytes, {games:,} games, {bad} whose log disagrees with their version; "
          f"game {sample.id} loads through Store ({sample.status}, {sample.version} moves)")
    ok = bad == 0 and r["seconds"] < 60
    print(f"RESULT: backup of {size / 1e9:.2f} GB under {args.rate:.0f} moves/s finished in {r['seconds']:.1f} s "
          f"({'under' if r['seconds'] < 60 else 'OVER'} 60 s); copy checked: {'ok' if bad == 0 else 'INCONSISTENT'}")
    return 0 if ok else 1

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
