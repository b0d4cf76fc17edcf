"""Storage speed: concurrent players on one database file, and leaderboard queries over 1,000,000 games.

    .venv/bin/python benchmarks/storage_bench.py                 # both parts, default sizes
    .venv/bin/python benchmarks/storage_bench.py --players 200 --seconds 10 --think 1.0
    .venv/bin/python benchmarks/storage_bench.py --skip-boards   # only the players
    .venv/bin/python benchmarks/storage_bench.py --games 1000000 --skip-players
    .venv/bin/python benchmarks/storage_bench.py --database postgresql://user@host/scratch   # SQLite and PostgreSQL

With ``--database URL`` every figure is measured on SQLite and on that PostgreSQL database (a scratch database:
the benchmark deletes every row in it), printed side by side, plus a flat-out run with the players split over
``--processes`` bot processes sharing the PostgreSQL database (as several shards would).

Part 1 runs PLAYERS simulated players in one process on one ``Store`` (as the bot does), each making random legal
moves in its own game and starting a new game when one ends. The timed operation is ``Store.play``: load the game,
let the engine apply the move, commit (``synchronous=FULL``: on disk when it returns). It runs twice:

* paced: every player waits a random think time (exponential, mean ``--think`` seconds) between clicks, as
  people do; this is the latency a player sees.
* flat out: no think time at all, every player clicks again the moment its move is acknowledged; this measures
  the throughput ceiling (latency there is mostly waiting in line behind the other 199 players).

Part 2 fills a database with ``--games`` finished games (fake rows inserted with executemany in one transaction;
no engine calls), then times the top-10 queries through ``Store`` and prints each query's plan.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Rules, legal_actions, preset  # noqa: E402
from storage import Store  # noqa: E402
from storage.postgres import PgStore, redact  # noqa: E402

ROOMY = Rules().with_health(40)  # longer games: fewer (untimed) new-game creations per move


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def run_players(path: Path | str, players: int, seconds: float, think: float, synchronous: str,
                      checkpoint_every: int | None, first: int = 1, start=None) -> dict:
    if isinstance(path, str):
        store = await PgStore.open(path)
    else:
        store = await Store.open(path, synchronous=synchronous, checkpoint_every=checkpoint_every)
    latencies: list[float] = []
    rngs = {user: random.Random(user * 7919 + int(think * 1000)) for user in range(first, first + players)}
    games = {}
    for user, rng in rngs.items():  # every player has a game before the clock starts
        games[user] = await store.active_game(user) or await store.create_game(
            user, 1 + user % 20, 7, ROOMY, seed=rng.getrandbits(40))
    if start is not None:  # a worker process: every player has its game; wait for the others
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
    check = await store.integrity_check()
    await store.close()
    return summary(latencies, elapsed, check)


def summary(latencies: list[float], elapsed: float, check: str) -> dict:
    return {"moves": len(latencies), "seconds": elapsed, "rate": len(latencies) / elapsed,
            "p50": percentile(latencies, 0.50) * 1000, "p99": percentile(latencies, 0.99) * 1000,
            "max": max(latencies) * 1000, "integrity": check, "latencies": latencies}


async def run_processes(url: str, players: int, seconds: float, processes: int) -> dict:
    """Flat out, the players split over ``processes`` processes on one PostgreSQL database, started together."""
    share = players // processes
    procs = [await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--worker", url, "--players", str(share), "--first", str(1 + n * share),
        "--seconds", str(seconds), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        for n in range(processes)]
    for proc in procs:
        assert (await proc.stdout.readline()).strip() == b"ready"
    for proc in procs:
        proc.stdin.write(b"go\n")
        await proc.stdin.drain()
    results = [json.loads(await proc.stdout.read()) for proc in procs]
    for proc in procs:
        await proc.wait()
    latencies = [value for r in results for value in r["latencies"]]
    store = await PgStore.open(url)
    check = await store.integrity_check()
    await store.close()
    return summary(latencies, max(r["seconds"] for r in results), check)


async def worker(url: str, players: int, first: int, seconds: float) -> None:
    async def wait_for_go() -> None:
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)

    result = await run_players(url, players, seconds, 0.0, "FULL", None, first=first, start=wait_for_go)
    print(json.dumps({"seconds": result["seconds"], "latencies": result["latencies"]}))


async def empty(url: str) -> None:
    """Delete every row of the scratch PostgreSQL database (its schema stays)."""
    store = await PgStore.open(url)
    tables = [r[0] for r in await store._read("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                                              "AND tablename <> 'schema_version'")]

    async def body(db):
        await db.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY")

    await store._write(body)
    await store.close()


def report_players(title: str, r: dict) -> None:
    print(f"  {title:<34} {r['moves']:>7,} moves in {r['seconds']:5.1f} s = {r['rate']:7,.0f} moves/s   "
          f"p50 {r['p50']:6.2f} ms   p99 {r['p99']:6.2f} ms   max {r['max']:6.1f} ms   integrity {r['integrity']}")


# --- part 2: the boards over a million games ---------------------------------------------------------------

GAME_COLUMNS = ["id", "user_id", "guild_id", "channel_id", "kind", "slot", "day", "rules_json", "rules_key",
                "rules_name", "seed", "deck", "status", "version", "score", "started_at", "ended_at"]


def fake_games(games: int, seed: int = 1):
    """``games`` finished games: 70 % normal, 30 % counted dailies over 365 days; 50 guilds (skewed), 50k users
    (a tenth of them play half the games). The same rows for both backends."""
    rng = random.Random(seed)
    classic, lenient = Rules(), preset("lenient")
    forms = [(json.dumps(r.to_dict(), sort_keys=True), r.key, r.name) for r in (classic, lenient)]
    base_us = 1_767_225_600_000_000  # 2026-01-01
    daily_seen: set[tuple[int, int]] = set()

    for game_id in range(1, games + 1):
        user = rng.randint(1, 5_000) if rng.random() < 0.5 else rng.randint(1, 50_000)
        guild = 1000 + min(49, int(rng.expovariate(1 / 8)))
        day = rng.randint(1, 365)
        daily = rng.random() < 0.3 and (user, day) not in daily_seen
        if daily:
            daily_seen.add((user, day))
        rules_json, key, name = forms[0] if daily or rng.random() < 0.8 else forms[1]
        won = rng.random() < 0.2
        status = "won" if won else ("dead" if rng.random() < 0.9 else "abandoned")
        score = rng.randint(1, 30) if won else (-rng.randint(1, 180) if status == "dead" else None)
        started_us = base_us + (day - 1) * 86_400_000_000 + rng.randint(0, 80_000_000_000)
        yield (game_id, user, guild, 7, "daily" if daily else "normal", "daily" if daily else "normal",
               day if daily else None, rules_json, key, name, rng.getrandbits(40), "-", status, 40, score,
               started_us, started_us + rng.randint(60_000_000, 3_600_000_000))


def populate(path: Path, games: int) -> float:
    started = time.perf_counter()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")  # a throwaway bulk load; the store sets its own on open
    conn.execute("BEGIN")
    conn.executemany(f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) VALUES ({','.join('?' * len(GAME_COLUMNS))})",
                     fake_games(games))
    conn.execute("INSERT INTO daily_attempts (user_id, day, game_id, created_at) "
                 "SELECT user_id, day, id, started_at FROM games WHERE kind = 'daily'")
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()
    return time.perf_counter() - started


async def populate_pg(url: str, games: int) -> float:
    """The same games as ``populate``, loaded into PostgreSQL with COPY."""
    import asyncpg

    started = time.perf_counter()
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            rows, chunk = fake_games(games), []
            for row in rows:
                chunk.append(row)
                if len(chunk) == 50_000:
                    await conn.copy_records_to_table("games", records=chunk, columns=GAME_COLUMNS)
                    chunk = []
            if chunk:
                await conn.copy_records_to_table("games", records=chunk, columns=GAME_COLUMNS)
            await conn.execute("INSERT INTO daily_attempts (user_id, day, game_id, created_at) "
                               "SELECT user_id, day, id, started_at FROM games WHERE kind = 'daily'")
            await conn.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), max(id)) FROM games")
        await conn.execute("ANALYZE")
    finally:
        await conn.close()
    return time.perf_counter() - started


async def time_boards(path: Path | str, repeats: int) -> dict[str, float]:
    """Median milliseconds of each board query; prints each with its plan."""
    postgres = isinstance(path, str)
    store = await (PgStore.open(path) if postgres else Store.open(path))
    await store.rebuild_totals()  # the running totals, as play() would have kept them
    conn = None if postgres else sqlite3.connect(path)
    medians = {}
    big_guild, day, user = 1000, 200, 1
    queries = [
        ("daily top 10, one server", lambda: store.leaderboard_daily(day, big_guild),
         "SELECT user_id, id, score, status, ended_at, guild_id FROM games WHERE guild_id = ? AND day = ? AND "
         "kind = 'daily' AND score IS NOT NULL ORDER BY score DESC, ended_at, id LIMIT 10", (big_guild, day)),
        ("daily top 10, every server", lambda: store.leaderboard_daily(day, None),
         "SELECT user_id, id FROM games WHERE day = ? AND kind = 'daily' AND score IS NOT NULL "
         "ORDER BY score DESC, ended_at, id LIMIT 10", (day,)),
        ("week top 10, one server", lambda: store.leaderboard_week(day, big_guild),
         "SELECT user_id, sum(score) AS total, count(*) AS days, max(ended_at) AS last FROM games WHERE guild_id = ? "
         "AND day BETWEEN ? AND ? AND kind = 'daily' AND score IS NOT NULL GROUP BY user_id "
         "ORDER BY total DESC, days DESC, last, user_id LIMIT 10", (big_guild, day - 6, day)),
        ("all-time top 10, one server", lambda: store.leaderboard_all_time(big_guild),
         "SELECT user_id, wins FROM player_totals WHERE guild_id = ? AND rules_key = '*' "
         "ORDER BY wins DESC, best_score DESC, average DESC, user_id LIMIT 10", (big_guild,)),
        ("all-time top 10, every server", lambda: store.leaderboard_all_time(None),
         "SELECT user_id, wins FROM player_totals WHERE guild_id = 0 AND rules_key = '*' "
         "ORDER BY wins DESC, best_score DESC, average DESC, user_id LIMIT 10", ()),
        ("user stats, one server", lambda: store.user_stats(user, big_guild),
         "SELECT rules_key FROM player_totals WHERE user_id = ? AND guild_id = ?", (user, big_guild)),
        ("daily days (streaks)", lambda: store.daily_days(user),
         "SELECT DISTINCT day FROM games WHERE user_id = ? AND kind = 'daily' AND score IS NOT NULL ORDER BY day",
         (user,)),
    ]
    for title, call, sql, params in queries:
        await call()  # warm the cache
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            result = await call()
            times.append(time.perf_counter() - started)
        size = f"{len(result)} rows" if isinstance(result, list) else f"{result.games} games"
        if postgres:
            lines = [r[0].strip() for r in await store._read("EXPLAIN " + sql, params)]
            plan = " | ".join(line.split("  (cost")[0] for line in lines if not line.startswith(("Filter", "Sort Key")))
        else:
            plan = " | ".join(row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, params))
        medians[title] = statistics.median(times) * 1000
        print(f"  {title:<30} median {medians[title]:7.3f} ms  ({size})\n"
              f"  {'':<30} plan: {plan[:300]}")
    if conn is not None:
        conn.close()
    await store.close()
    return medians


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each players run")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time between clicks, paced run")
    parser.add_argument("--games", type=int, default=1_000_000, help="finished games for the board queries")
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--synchronous", default="FULL", help="FULL (the store's default) or NORMAL, to compare")
    parser.add_argument("--checkpoint-every", type=int, default=100,
                        help="background WAL checkpoint every N writes (the store's default 100); 0 = SQLite's own")
    parser.add_argument("--dir", help="where to put the database files (default: a temporary directory)")
    parser.add_argument("--skip-players", action="store_true")
    parser.add_argument("--skip-boards", action="store_true")
    parser.add_argument("--database", metavar="URL",
                        help="also measure this PostgreSQL database (a scratch one: every row in it is deleted)")
    parser.add_argument("--processes", type=int, default=2,
                        help="bot processes sharing PostgreSQL in the extra flat-out run (default 2)")
    parser.add_argument("--worker", metavar="URL", help=argparse.SUPPRESS)  # one of those processes
    parser.add_argument("--first", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        await worker(args.worker, args.players, args.first, args.seconds)
        return 0
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
            path = Path(tmp) / "boards.sqlite3"
            await (await Store.open(path)).close()  # the schema
            print(f"\nboards over {args.games:,} finished games:")
            took = populate(path, args.games)
            print(f"  populated in {took:.1f} s ({path.stat().st_size / 1e6:.0f} MB)")
            await time_boards(path, args.repeats)
    return 0


async def compare(args) -> int:
    """Every figure on SQLite and on PostgreSQL, side by side."""
    url, rows = args.database, []
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        if not args.skip_players:
            print(f"{args.players} players, {args.seconds:g} s per run, timing Store.play (load + apply + commit) "
                  f"on SQLite ({Path(tmp)}) and PostgreSQL ({redact(url)}):", flush=True)
            lite = Path(tmp) / "players.sqlite3"
            await empty(url)
            for title, think in ((f"paced (think {args.think:g} s mean)", args.think), ("flat out", 0.0)):
                a = await run_players(lite, args.players, args.seconds, think, "FULL", args.checkpoint_every or None)
                b = await run_players(url, args.players, args.seconds, think, "FULL", None)
                rows.append((title, a, b))
            await empty(url)
            many = await run_processes(url, args.players, args.seconds, args.processes)
            rows.append((f"flat out, {args.processes} processes", None, many))
            print(f"  {'':<34} {'SQLite':>40}   {'PostgreSQL':>40}")
            for title, a, b in rows:
                def cell(r):
                    return f"{'—':>40}" if r is None else (
                        f"{r['rate']:7,.0f} moves/s p50 {r['p50']:6.2f} ms p99 {r['p99']:6.2f} ms")
                print(f"  {title:<34} {cell(a)}   {cell(b)}")
            checks = {r["integrity"] for _, a, b in rows for r in (a, b) if r is not None}
            print(f"  integrity after every run: {', '.join(sorted(checks))}")
        if not args.skip_boards:
            print(f"\nboards over {args.games:,} finished games:", flush=True)
            path = Path(tmp) / "boards.sqlite3"
            await (await Store.open(path)).close()
            print(f"  SQLite: populated in {populate(path, args.games):.1f} s", flush=True)
            lite = await time_boards(path, args.repeats)
            await empty(url)
            print(f"  PostgreSQL: populated in {await populate_pg(url, args.games):.1f} s", flush=True)
            pg = await time_boards(url, args.repeats)
            await empty(url)
            print(f"\n  {'median of ' + str(args.repeats):<34} {'SQLite':>10}   {'PostgreSQL':>10}")
            for title in lite:
                print(f"  {title:<34} {lite[title]:7.3f} ms   {pg[title]:7.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
