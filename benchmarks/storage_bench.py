"""Storage speed: concurrent players on one database file; every board query at 100,000 players x 7 days of
counted dailies; and clicks while boards are being read.

    .venv/bin/python benchmarks/storage_bench.py                 # all three parts, default sizes
    .venv/bin/python benchmarks/storage_bench.py --players 200 --seconds 10 --think 1.0
    .venv/bin/python benchmarks/storage_bench.py --skip-boards   # only the players
    .venv/bin/python benchmarks/storage_bench.py --daily-players 100000 --days 7 --skip-players
    .venv/bin/python benchmarks/storage_bench.py --database postgresql://auto   # SQLite and PostgreSQL side by side
    .venv/bin/python benchmarks/storage_bench.py --database postgresql://user@host/scratch
    .venv/bin/python benchmarks/storage_bench.py --revision d6c6a06 --database postgresql://auto --skip-boards

``--revision REV`` times ``Store.play`` (PLAYERS paced and flat out) as the storage of git revision REV does it and
as this checkout's does, in one run, on SQLite (and PostgreSQL with ``--database postgresql://auto``): REV is taken
from ``git archive`` into a temporary directory, each run is a process of that tree's own benchmark on a fresh
database, and the runs are interleaved ``--rounds`` times so a busy moment of the shared machine falls on both.

``--database`` prints every figure for SQLite and PostgreSQL side by side: PLAYERS paced and flat out,
``--many-players`` paced, PLAYERS flat out split over ``--processes`` OS processes (each with its own store on the
same database, as bot processes each running some shards), and the boards of part 2 (loaded into PostgreSQL with
COPY). ``postgresql://auto`` runs PostgreSQL's own binaries (initdb, pg_ctl; as the ``postgres`` user when run as
root) into a temporary directory, with fsync on as in production, and removes it at the end.

Part 1 runs PLAYERS simulated players in one process on one ``Store`` (as the bot does), each making random legal
moves in its own game and starting a new game when one ends. The timed operation is ``Store.play``: load the game,
let the engine apply the move, commit (``synchronous=FULL``: on disk when it returns). It runs twice:

* paced: every player waits a random think time (exponential, mean ``--think`` seconds) between clicks, as
  people do; this is the latency a player sees.
* flat out: no think time at all, every player clicks again the moment its move is acknowledged; this measures
  the throughput ceiling (latency there is mostly waiting in line behind the other 199 players).

Part 2 fills a database with ``--daily-players`` players who each played the counted daily on each of ``--days``
days (won, dead, or forfeited), plus ``--normal`` normal games a player on average (fake rows inserted with
executemany; no engine calls), builds the running totals with ``Store.rebuild_totals`` (what ``play`` keeps up to
date move by move), then times every board and stats query through ``Store`` (median and max of ``--repeats``).

Part 3, on that same database: PLAYERS paced players click (as in part 1) alone; while ``--board-loops`` tasks
query boards (half of them the every-server week board, the rest any board or stats) ``--board-rate`` a second each;
and while those tasks query boards back to back without pause. The three runs are interleaved ``--rounds`` times
(the machine is shared: a busy moment should not land on one run only); click latencies are printed side by side.
Reads have their own connections (game loads apart from boards), so no click queues behind a board; what the
back-to-back run still shows is the one process's CPU spent on thousands of boards a second.

Building the 100k x 7 database takes a few minutes; ``--boards-db PATH`` keeps it for the next run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this tree's bot/ and storage/, before any other

from app.daily.days import month_of  # noqa: E402
from games.engine import Rules, legal_actions, preset  # noqa: E402
from storage import Store, open_store  # noqa: E402
from storage.factory import redact  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

ROOMY = Rules().with_health(40)  # longer games: fewer (untimed) new-game creations per move


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def open_bench_store(target: Path | str, synchronous: str = "FULL", checkpoint_every: int | None = 100):
    """A SQLite ``Store`` on a file (with the given durability settings), or the store on a PostgreSQL URL."""
    if isinstance(target, str):
        return await open_store(target)
    return await Store.open(target, synchronous=synchronous, checkpoint_every=checkpoint_every)


async def run_players(path: Path | str, players: int, seconds: float, think: float, synchronous: str = "FULL",
                      checkpoint_every: int | None = 100, user_base: int = 0, start=None) -> dict:
    store = await open_bench_store(path, synchronous, checkpoint_every)
    try:
        return await run_players_on(store, players, seconds, think, user_base, start)
    finally:
        await store.close()


async def run_players_on(store: Store, players: int, seconds: float, think: float, user_base: int = 0,
                         start=None) -> dict:
    latencies: list[float] = []
    rngs = {user: random.Random(user * 7919 + int(think * 1000))
            for user in range(user_base + 1, user_base + players + 1)}
    games = {}
    for user, rng in rngs.items():  # every player has a game before the clock starts
        games[user] = await store.active_game(user) or await store.create_game(
            user, 1 + user % 20, 7, ROOMY, seed=rng.getrandbits(40))
    if start is not None:  # one of several processes: every player has its game; wait for the others
        await start()
    deadline = time.perf_counter() + seconds

    async def player(user: int) -> None:
        rng, record = rngs[user], games[user]
        if think:
            await asyncio.sleep(rng.uniform(0, think))  # do not all start on the same tick
        while time.perf_counter() < deadline:
            if not record.playing:
                record = await store.create_game(user, 1 + user % 20, 7, ROOMY, seed=rng.getrandbits(40))
            action = rng.choice(legal_actions(record.state))
            started = time.perf_counter()
            record = await store.play(record.id, user, record.version, action)
            latencies.append(time.perf_counter() - started)
            if think:
                await asyncio.sleep(rng.expovariate(1 / think))

    began = time.perf_counter()
    await asyncio.gather(*(player(user) for user in rngs))
    elapsed = min(time.perf_counter(), deadline) - began  # moves are only started before the deadline
    check = "skipped" if user_base else await store.integrity_check()
    return summary(latencies, elapsed, check)


def summary(latencies: list[float], elapsed: float, check: str) -> dict:
    return {"moves": len(latencies), "seconds": elapsed, "rate": len(latencies) / elapsed,
            "p50": percentile(latencies, 0.50) * 1000, "p99": percentile(latencies, 0.99) * 1000,
            "max": max(latencies) * 1000, "integrity": check, "latencies": latencies}


async def run_processes(target: Path | str, players: int, seconds: float, processes: int, think: float = 0.0,
                        user_base: int = 0, tree: Path = ROOT) -> dict:
    """The players split over ``processes`` OS processes, each with its own store on the same database, started
    together once every player has a game (as several bot processes, each running some of the shards). ``tree``:
    the source tree whose benchmark (and so whose storage) the processes run (``--revision``)."""
    share = players // processes
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the tree's own code, nothing else first
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    procs = [await asyncio.create_subprocess_exec(
        sys.executable, str(tree / "benchmarks" / "storage_bench.py"), "--worker", str(target), "--players",
        str(share), "--seconds", str(seconds), "--think", str(think), "--first", str(user_base + n * share),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2**26, cwd=tree, env=env)
        for n in range(processes)]
    for proc in procs:
        line = (await proc.stdout.readline()).strip()
        assert line == b"ready", line
    for proc in procs:
        proc.stdin.write(b"go\n")
        await proc.stdin.drain()
    results = [json.loads(await proc.stdout.read()) for proc in procs]
    for proc in procs:
        await proc.wait()
    done = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = done.ru_utime + done.ru_stime - used.ru_utime - used.ru_stime  # the processes' own, setup included
    check = "skipped"
    if tree == ROOT:  # an earlier revision's schema is its own: this code would upgrade it
        store = await open_bench_store(target)
        try:
            check = await store.integrity_check()
        finally:
            await store.close()
    result = summary([v for r in results for v in r["latencies"]], max(r["seconds"] for r in results), check)
    result["cpu"] = cpu / max(1, result["moves"]) * 1e6
    return result


async def worker(target: str, players: int, first: int, seconds: float, think: float) -> None:
    """One of ``run_processes``'s processes: says ready, waits for go, prints its latencies as JSON."""
    async def wait_for_go() -> None:
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)

    where = target if target.startswith(("postgresql://", "postgres://")) else Path(target)
    result = await run_players(where, players, seconds, think, user_base=first, start=wait_for_go)
    print(json.dumps({"seconds": result["seconds"], "latencies": result["latencies"]}))


def report_players(title: str, r: dict) -> None:
    print(f"  {title:<34} {r['moves']:>7,} moves in {r['seconds']:5.1f} s = {r['rate']:7,.0f} moves/s   "
          f"p50 {r['p50']:6.2f} ms   p99 {r['p99']:6.2f} ms   max {r['max']:6.1f} ms   integrity {r['integrity']}")


# --- part 2: every board at 100,000 players x 7 days --------------------------------------------------------

BIG_GUILD = 1000
BIG_GUILD_PLAYER = 1  # populate() makes player 1's home the biggest server
DM_SHARE = 0.05


GAME_COLUMNS = ("id", "user_id", "guild_id", "channel_id", "kind", "slot", "day", "rules_json", "rules_key",
                "rules_name", "seed", "deck", "status", "version", "score", "started_at", "ended_at", "ended_by")


def game_rows(daily_players: int, days: int, normal: float, seed: int = 1):
    """Counted dailies: every player on each of ``days`` days; normal games: ``normal`` a player on average. 50
    guilds (skewed: the biggest has about a tenth of the players), a few games in DMs. The same rows for both
    backends (rows of ``GAME_COLUMNS``)."""
    rng = random.Random(seed)
    classic, lenient = Rules(), preset("lenient")
    forms = [(json.dumps(r.to_dict(), sort_keys=True), r.key, r.name) for r in (classic, lenient)]
    base_us = 1_767_225_600_000_000  # 2026-01-01
    homes = {user: BIG_GUILD + min(49, int(rng.expovariate(1 / 8))) for user in range(1, daily_players + 1)}
    homes[BIG_GUILD_PLAYER] = BIG_GUILD

    def result(daily: bool):
        roll = rng.random()
        if roll < 0.2:
            return "won", rng.randint(1, 30), None
        if roll < 0.95 or not daily:
            return ("dead", -rng.randint(1, 180), None) if roll < 0.95 else ("abandoned", None, "abandoned")
        return "abandoned", -rng.randint(60, 208), rng.choice(["abandoned", "expired"])

    game_id = 0
    for day in range(1, days + 1):
        for user in range(1, daily_players + 1):
            game_id += 1
            guild = None if rng.random() < DM_SHARE else homes[user]
            status, score, ended_by = result(True)
            started_us = base_us + (day - 1) * 86_400_000_000 + rng.randint(0, 80_000_000_000)
            yield (game_id, user, guild, 7, "daily", "daily", day, *forms[0], rng.getrandbits(40), "-", status,
                   40, score, started_us, started_us + rng.randint(60_000_000, 3_600_000_000), ended_by)
    for _ in range(int(daily_players * normal)):
        game_id += 1
        user = rng.randint(1, daily_players)
        day = rng.randint(1, days)
        status, score, ended_by = result(False)
        started_us = base_us + (day - 1) * 86_400_000_000 + rng.randint(0, 80_000_000_000)
        yield (game_id, user, homes[user], 7, "normal", "normal", None, *forms[0 if rng.random() < 0.8 else 1],
               rng.getrandbits(40), "-", status, 40, score, started_us,
               started_us + rng.randint(60_000_000, 3_600_000_000), ended_by)


def populate(path: Path, daily_players: int, days: int, normal: float, seed: int = 1) -> tuple[float, int]:
    """``game_rows`` into the SQLite file (executemany, one transaction). Returns (seconds, games)."""
    started = time.perf_counter()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")  # a throwaway bulk load; the store sets its own on open
    conn.execute("BEGIN")
    conn.executemany(f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) VALUES ({','.join('?' * len(GAME_COLUMNS))})",
                     game_rows(daily_players, days, normal, seed))
    conn.execute("INSERT INTO daily_attempts (user_id, day, game_id, created_at) "
                 "SELECT user_id, day, id, started_at FROM games WHERE kind = 'daily'")
    count = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()
    return time.perf_counter() - started, count


async def populate_pg(url: str, daily_players: int, days: int, normal: float, seed: int = 1) -> tuple[float, int]:
    """The same rows as ``populate``, loaded into PostgreSQL with COPY. Returns (seconds, games)."""
    import asyncpg

    started = time.perf_counter()
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            chunk = []
            for row in game_rows(daily_players, days, normal, seed):
                chunk.append(row)
                if len(chunk) == 50_000:
                    await conn.copy_records_to_table("games", records=chunk, columns=GAME_COLUMNS)
                    chunk = []
            if chunk:
                await conn.copy_records_to_table("games", records=chunk, columns=GAME_COLUMNS)
            await conn.execute("INSERT INTO daily_attempts (user_id, day, game_id, created_at) "
                               "SELECT user_id, day, id, started_at FROM games WHERE kind = 'daily'")
            await conn.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), max(id)) FROM games")
            count = await conn.fetchval("SELECT count(*) FROM games")
        await conn.execute("VACUUM ANALYZE")
    finally:
        await conn.close()
    return time.perf_counter() - started, count


def board_queries(store: Store, day: int) -> list[tuple[str, object]]:
    guild, user = BIG_GUILD, BIG_GUILD_PLAYER
    return [
        ("daily top 10, one server", lambda: store.leaderboard_daily(day, guild)),
        ("daily top 10, every server", lambda: store.leaderboard_daily(day, None)),
        ("week top 10, one server", lambda: store.leaderboard_week(day, guild)),
        ("week top 10, every server", lambda: store.leaderboard_week(day, None)),
        ("month top 10, one server", lambda: store.leaderboard_month(month_of(day), guild)),
        ("month top 10, every server", lambda: store.leaderboard_month(month_of(day), None)),
        ("month place of a player, one server", lambda: store.month_rank(user, month_of(day), guild)),
        ("month place of a player, everyone", lambda: store.month_rank(user, month_of(day), None)),
        ("players today, one server (the post)", lambda: store.daily_players(day, guild)),
        ("all-time dailies, one server", lambda: store.leaderboard_all_time(guild, dailies_only=True)),
        ("all-time dailies, every server", lambda: store.leaderboard_all_time(None, dailies_only=True)),
        ("all-time all games, every server", lambda: store.leaderboard_all_time(None)),
        ("daily_results first 25, one server", lambda: store.daily_results(day, guild, limit=25)),
        ("daily_results first 25, everyone", lambda: store.daily_results(day, None, limit=25)),
        ("user stats, every server", lambda: store.user_stats(user)),
        ("user stats, one server", lambda: store.user_stats(user, guild)),
        ("daily days (streaks)", lambda: store.daily_days(user)),
    ]


async def time_boards(path: Path | str, day: int, repeats: int, quiet: bool = False) -> dict[str, float]:
    """Median milliseconds of every board query (printed with the max unless ``quiet``)."""
    store = await open_store(path)
    medians = {}
    try:
        for title, call in board_queries(store, day):
            await call()  # warm the cache
            times = []
            for _ in range(repeats):
                started = time.perf_counter()
                result = await call()
                times.append(time.perf_counter() - started)
            size = (f"{len(result)} rows" if isinstance(result, list) else
                    f"{result}" if isinstance(result, int | tuple) else f"{result.games} games")
            medians[title] = statistics.median(times) * 1000
            if not quiet:
                print(f"  {title:<36} median {medians[title]:7.3f} ms   max {max(times) * 1000:7.3f} ms   ({size})")
    finally:
        await store.close()
    return medians


# --- part 3: clicks while boards are read --------------------------------------------------------------------

USER_BASE = 10_000_000  # the clicking players' ids, clear of the populated ones

async def clicks_with_boards(path: Path, players: int, seconds: float, think: float, day: int,
                             board_loops: int, rate: float = 0.0) -> dict:
    """Paced players clicking on the big database; ``board_loops`` tasks query boards meanwhile, each ``rate``
    boards a second (0: back to back, as fast as they come)."""
    store = await Store.open(path)
    stop = asyncio.Event()
    boards_done = [0]

    async def reader(index: int) -> None:
        queries = [call for _, call in board_queries(store, day)]
        rng = random.Random(index)
        while not stop.is_set():
            await (store.leaderboard_week(day, None) if rng.random() < 0.5 else rng.choice(queries)())
            boards_done[0] += 1
            if rate:
                await asyncio.sleep(rng.expovariate(rate))

    for user in range(USER_BASE + 1, USER_BASE + players + 1):  # games ready before the boards start
        if await store.active_game(user) is None:
            await store.create_game(user, 1 + user % 20, 7, ROOMY, seed=user)
    tasks = [asyncio.create_task(reader(i)) for i in range(board_loops)]
    try:
        result = await run_players_on(store, players, seconds, think, user_base=USER_BASE)
    finally:
        stop.set()
        await asyncio.gather(*tasks)
        await store.close()
    result["boards"] = boards_done[0] / result["seconds"]
    return result


async def main_boards(args, tmp: str) -> None:
    path = Path(args.boards_db) if args.boards_db else Path(tmp) / "boards.sqlite3"
    print(f"\nboards at {args.daily_players:,} players x {args.days} days of counted dailies "
          f"(+ {args.normal:g} normal games a player):")
    if path.exists():
        print(f"  reusing {path} ({path.stat().st_size / 1e6:.0f} MB)")
    else:
        await (await Store.open(path)).close()  # the schema
        took, games = populate(path, args.daily_players, args.days, args.normal)
        store = await Store.open(path)
        started = time.perf_counter()
        await store.rebuild_totals()  # the running totals, as play() keeps them
        rebuilt = time.perf_counter() - started
        await store.close()
        print(f"  {games:,} games populated in {took:.1f} s, totals built in {rebuilt:.1f} s "
              f"({path.stat().st_size / 1e6:.0f} MB)")
    await time_boards(path, args.days, args.repeats)
    if args.skip_clicks:
        return
    print(f"\n{args.players} paced players (think {args.think:g} s mean) clicking on that database, "
          f"{args.seconds:g} s each run:")
    loops, rate = args.board_loops, args.board_rate
    runs = [("no boards", 0, 0.0), (f"{loops} board loops, {rate:g} boards/s each", loops, rate),
            (f"{loops} board loops back to back", loops, 0.0)]
    merged = {title: {"latencies": [], "seconds": 0.0, "boards": 0.0} for title, _, _ in runs}
    for _ in range(args.rounds):  # interleaved, so a busy moment of the machine does not land on one run only
        for title, n, r in runs:
            one = await clicks_with_boards(path, args.players, args.seconds, args.think, args.days, n, r)
            merged[title]["latencies"] += one["latencies"]
            merged[title]["seconds"] += one["seconds"]
            merged[title]["boards"] += one["boards"] * one["seconds"]
    results = []
    for title, m in merged.items():
        lat = m["latencies"]
        results.append((title, {"moves": len(lat), "p50": percentile(lat, 0.5) * 1000,
                                "p99": percentile(lat, 0.99) * 1000, "max": max(lat) * 1000,
                                "boards": m["boards"] / m["seconds"]}))
    print(f"  ({args.rounds} interleaved rounds of each)")
    print(f"  {'':<40} {'clicks':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'boards/s':>9}")
    for title, r in results:
        print(f"  {title:<40} {r['moves']:>8,} {r['p50']:>8.2f} {r['p99']:>8.2f} {r['max']:>8.1f} "
              f"{r['boards']:>9.0f}")


# --- SQLite and PostgreSQL side by side (--database) ---------------------------------------------------------

AUTO = "postgresql://auto"


async def empty(url: str) -> None:
    """Delete every row of a scratch PostgreSQL database (its schema stays)."""
    store = await open_store(url)
    try:
        tables = await store.db.tables()

        async def body(tx):
            await tx.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY")

        await store.db.write(body)
    finally:
        await store.close()


class Databases:
    """Fresh databases for each part: SQLite files in a temporary directory; PostgreSQL databases on a server of
    our own (``--database postgresql://auto``: initdb into a temporary directory, fsync on, removed at the end)
    or the given scratch database, emptied before each part."""

    def __init__(self, url: str, tmp: Path) -> None:
        self.url, self.tmp, self.server = url, tmp, None

    def __enter__(self) -> Databases:
        if self.url == AUTO:
            from tests.postgres_server import SKIP_REASON, PostgresServer, find_bindir

            bindir = find_bindir()
            if bindir is None:
                raise SystemExit(f"error: {SKIP_REASON}")
            self.server = PostgresServer(bindir, durable=True).start()
        return self

    def __exit__(self, *exc) -> None:
        if self.server is not None:
            self.server.stop()

    def shown(self) -> str:
        if self.server is None:
            return redact(self.url)
        return f"a server of its own, PostgreSQL {self.server.bindir.parent.name}, fsync on, in {self.server.root}"

    async def fresh(self, name: str) -> tuple[Path, str]:
        """(SQLite file, PostgreSQL URL), both empty and at the latest schema."""
        path = self.tmp / f"{name}.sqlite3"
        if self.server is not None:
            url = self.server.create_database()
        else:
            url = self.url
            await (await open_store(url)).close()
            await empty(url)
        await (await open_bench_store(path)).close()
        await (await open_store(url)).close()
        return path, url


def cell(r: dict | None) -> str:
    if r is None:
        return f"{'—':>44}"
    return f"{r['rate']:7,.0f} moves/s  p50 {r['p50']:6.2f}  p99 {r['p99']:7.2f} ms"


async def compare(args) -> int:
    """Every figure on SQLite and on PostgreSQL, side by side."""
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp, Databases(args.database, Path(tmp)) as dbs:
        print(f"SQLite: files in {tmp} (WAL, synchronous=FULL); PostgreSQL: {dbs.shown()}", flush=True)
        if not args.skip_players:
            print(f"\nplayers, {args.seconds:g} s a run, timing Store.play (load + apply + commit, durable when it "
                  f"returns):", flush=True)
            runs = [(f"{args.players} paced (think {args.think:g} s)", args.players, args.think, 1),
                    (f"{args.players} flat out", args.players, 0.0, 1),
                    (f"{args.many_players:,} paced (think {args.many_think:g} s)", args.many_players,
                     args.many_think, 1),
                    (f"{args.players} flat out, {args.processes} processes", args.players, 0.0, args.processes)]
            rows = []
            for n, (title, players, think, processes) in enumerate(runs):
                lite, url = await dbs.fresh(f"players{n}")
                pair = []
                for target in (lite, url):
                    if processes > 1:
                        pair.append(await run_processes(target, players, args.seconds, processes, think))
                    else:
                        pair.append(await run_players(target, players, args.seconds, think))
                rows.append((title, *pair))
                print(f"  {title:<34} {cell(pair[0])}   {cell(pair[1])}", flush=True)
            print(f"\n  {'':<34} {'SQLite':<44}   {'PostgreSQL':<44}")
            for title, a, b in rows:
                print(f"  {title:<34} {cell(a)}   {cell(b)}")
            checks = {r["integrity"] for _, a, b in rows for r in (a, b)}
            print(f"  integrity after every run: {', '.join(sorted(checks))}", flush=True)
        if not args.skip_boards:
            lite, url = await dbs.fresh("boards")
            print(f"\nboards at {args.daily_players:,} players x {args.days} days of counted dailies "
                  f"(+ {args.normal:g} normal games a player), median of {args.repeats}:", flush=True)
            took, games = populate(lite, args.daily_players, args.days, args.normal)
            took_pg, _ = await populate_pg(url, args.daily_players, args.days, args.normal)
            print(f"  {games:,} games: SQLite loaded in {took:.0f} s, PostgreSQL in {took_pg:.0f} s", flush=True)
            for target in (lite, url):
                store = await open_bench_store(target)
                await store.rebuild_totals()
                await store.close()
            medians = [await time_boards(target, args.days, args.repeats, quiet=True) for target in (lite, url)]
            print(f"  {'':<36} {'SQLite':>10}   {'PostgreSQL':>10}")
            for title in medians[0]:
                print(f"  {title:<36} {medians[0][title]:7.3f} ms   {medians[1][title]:7.3f} ms")
    return 0


# --- an earlier revision against this one (--revision) ---------------------------------------------------------

def extract(revision: str, into: Path) -> Path:
    """The source tree of ``revision`` (git archive), unpacked into ``into``."""
    into.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


async def compare_revisions(args) -> int:
    """``Store.play`` as an earlier revision's storage does it and as this checkout's does, on each backend, in one
    run: each players run (paced, flat out) is a process of the revision's own benchmark on a fresh database its
    own code creates; the runs are interleaved ``--rounds`` times (alternating which revision goes first), and the
    median of the rounds' moves/s, p99 and CPU time per move (the benchmark processes' own, setup included: on a
    shared machine the figure least moved by other work) is printed."""
    if args.database not in (None, AUTO):
        raise SystemExit("error: --revision measures PostgreSQL on a server of its own: --database postgresql://auto")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp, Databases(args.database or "", Path(tmp)) as dbs:
        earlier = extract(args.revision, Path(tmp) / "earlier")
        trees = [(f"at {args.revision}", earlier), ("this checkout", ROOT)]
        backends = ["SQLite"] + (["PostgreSQL"] if dbs.server is not None else [])
        runs = [(f"{args.players} paced (think {args.think:g} s)", args.think),
                (f"{args.players} flat out", 0.0)]
        results: dict[tuple[str, str, str], list[dict]] = {}
        made = 0
        print(f"Store.play at {args.revision} and in this checkout, {args.seconds:g} s a run, {args.rounds} "
              f"interleaved rounds; SQLite in {tmp}" + (f"; PostgreSQL: {dbs.shown()}" if dbs.server else ""),
              flush=True)
        for round_ in range(args.rounds):
            for title, think in runs:
                for backend in backends:
                    for label, tree in trees if round_ % 2 == 0 else trees[::-1]:
                        made += 1
                        target = (dbs.server.create_database() if backend == "PostgreSQL"
                                  else Path(tmp) / f"run{made}.sqlite3")
                        one = await run_processes(target, args.players, args.seconds, 1, think, tree=tree)
                        results.setdefault((title, backend, label), []).append(one)
                        print(f"  round {round_ + 1}: {title:<26} {backend:<10} {label:<16} {cell(one)}   "
                              f"CPU {one['cpu']:5.0f} us/move", flush=True)
        print(f"\n  medians of {args.rounds} rounds   {'':<10} " + "   ".join(f"{label:<49}" for label, _ in trees)
              + "   change")
        for title, _ in runs:
            for backend in backends:
                figures = []
                for label, _ in trees:
                    rounds = results[(title, backend, label)]
                    figures.append((statistics.median(r["rate"] for r in rounds),
                                    statistics.median(r["p99"] for r in rounds),
                                    statistics.median(r["cpu"] for r in rounds)))
                shown = "   ".join(f"{rate:7,.0f} moves/s  p99 {p99:7.2f} ms  CPU {cpu:5.0f} us"
                                   for rate, p99, cpu in figures)
                (rate0, p0, cpu0), (rate1, p1, cpu1) = figures
                print(f"  {title:<28} {backend:<10} {shown}   moves/s {rate1 / rate0 - 1:+.0%}, "
                      f"p99 {p1 / p0 - 1:+.0%}, CPU {cpu1 / cpu0 - 1:+.0%}")
    return 0


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each players run")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time between clicks, paced run")
    parser.add_argument("--daily-players", type=int, default=100_000, help="players of the counted dailies")
    parser.add_argument("--days", type=int, default=7, help="days of counted dailies (the board day is the last)")
    parser.add_argument("--normal", type=float, default=3.0, help="normal games a player, on average")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the click runs")
    parser.add_argument("--board-loops", type=int, default=3, help="tasks reading boards during the clicks")
    parser.add_argument("--board-rate", type=float, default=20.0,
                        help="boards a second per loop in the paced board run (the last run has no pause)")
    parser.add_argument("--boards-db", help="the boards database: reused if it exists, else built and kept there")
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--synchronous", default="FULL", help="FULL (the store's default) or NORMAL, to compare")
    parser.add_argument("--checkpoint-every", type=int, default=100,
                        help="background WAL checkpoint every N writes (the store's default 100); 0 = SQLite's own")
    parser.add_argument("--dir", help="where to put the database files (default: a temporary directory)")
    parser.add_argument("--skip-players", action="store_true")
    parser.add_argument("--skip-boards", action="store_true", help="skip parts 2 and 3")
    parser.add_argument("--skip-clicks", action="store_true", help="skip part 3")
    parser.add_argument("--database", metavar="URL",
                        help="measure SQLite and this PostgreSQL database side by side: postgresql://auto starts a "
                             "server of its own; any other URL must be a scratch database (every row is deleted)")
    parser.add_argument("--many-players", type=int, default=2000, help="players of the big paced run (--database)")
    parser.add_argument("--many-think", type=float, default=10.0, help="their mean think time, seconds")
    parser.add_argument("--processes", type=int, default=2, help="bot processes of the last flat-out run")
    parser.add_argument("--revision", metavar="REV",
                        help="Store.play of this git revision against this checkout, side by side (with --database "
                             "postgresql://auto on PostgreSQL too); --rounds interleaved rounds, medians")
    parser.add_argument("--worker", metavar="DB", help=argparse.SUPPRESS)  # one of those processes
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        await worker(args.worker, args.players, args.first, args.seconds, args.think)
        return 0
    if args.revision:
        return await compare_revisions(args)
    if args.database:
        return await compare(args)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        if not args.skip_players:
            checkpoints = f"every {args.checkpoint_every} writes" if args.checkpoint_every else "SQLite automatic"
            print(f"{args.players} players on one database file (one Store, WAL, synchronous={args.synchronous}, "
                  f"checkpoints: {checkpoints}), "
                  f"timing Store.play = load game + apply move + commit:")
            path = Path(tmp) / "players.sqlite3"
            interval = args.checkpoint_every or None
            paced = await run_players(path, args.players, args.seconds, args.think, args.synchronous, interval)
            report_players(f"paced (think {args.think:g} s mean)", paced)
            flat = await run_players(path, args.players, args.seconds, 0.0, args.synchronous, interval)
            report_players("flat out (no think time)", flat)
            print(f"  database after both runs: {path.stat().st_size / 1e6:.1f} MB")
        if not args.skip_boards:
            await main_boards(args, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
