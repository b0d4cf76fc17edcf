"""The daily post at scale: N servers posted by P processes against a stand-in Discord, timed from midnight.

    .venv/bin/python benchmarks/daily_post_bench.py --servers 1000                       # one process, SQLite
    .venv/bin/python benchmarks/daily_post_bench.py --servers 20000 --processes 4 --database postgresql://auto
    .venv/bin/python benchmarks/daily_post_bench.py --servers 20000 --processes 4 --database postgresql://auto --kill
    .venv/bin/python benchmarks/daily_post_bench.py --servers 1000 --revision 1a2b3c4   # that revision, then this
    .venv/bin/python benchmarks/daily_post_bench.py --servers 2000 --storm 25            # the limit falls mid-round

The stand-in Discord (benchmarks/stand_in_discord.py) answers each request after ``--latency`` (80 ms) and holds
all the processes together to ``--limit`` requests a second (50), with 429s shaped as Discord's. Each process is
a real ``discord.Client`` (discord.py's HTTP client, its own 429 handling) on its shards of the servers
(``--shard-count P --shard-ids i``), running the bot's own daily round (app/daily/round.py) and wording and sending
each post as the bot does (``cogs.daily.post.send_post``), paced by its share of the limit (app/daily/budget.py).
The database is SQLite (one process) or PostgreSQL (``postgresql://auto`` starts a server of its own, fsync on).
"Midnight" is a moment shortly after the processes are started, once they are up, logged in and connected to the
database (as a running bot is); every server's post is due then.

``--kill`` kills the first process (SIGKILL) half-way through and starts it again, as a crashed bot restarted by
its supervisor: its posts in flight are taken over when their leases run out. ``--storm L`` lowers the stand-in's
limit to L a second half-way through. ``--revision REV`` first runs the same with git revision REV's code (its
``DailyPoster.post_due``, one process a shard), then this checkout's.

Printed: time from midnight to the first and to the last post, posts a second, requests and 429s (and their
share), posts delivered exactly once (every server one message, none doubled, how many sends the nonce turned
into the message already made), and each process's peak memory; then the extrapolation to 100,000 servers at the
rate measured.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

from stand_in_discord import StandInDiscord  # noqa: E402

AUTO = "postgresql://auto"
TOKEN = "stand-in-token"  # the stand-in takes any token; a real one is never used here
FLOOR_SERVERS = 100_000
STARTUP = 10.0  # seconds the processes get to start, log in and open the database before "midnight"


# --- one process of the bot (a subprocess, in the tree being measured) ---------------------------------------------

def guild_ids(servers: int) -> list[int]:
    """Snowflake-like ids spread evenly over the shards (a guild's shard is ``(id >> 22) % shard_count``)."""
    return [((n + 1) << 22) | 1 for n in range(servers)]


async def seed(database: str, servers: int) -> None:
    """Every server with a daily channel, posting at 00:00 UTC."""
    from storage import open_store

    store = await open_store(database)
    try:
        await store.daily_secret()
        rows = [(gid, gid + 1, "00:00", 0) for gid in guild_ids(servers)]

        async def body(tx) -> None:
            await tx.executemany("INSERT INTO guild_settings (guild_id, daily_channel_id, daily_time, updated_at) "
                                 "VALUES ($1, $2, $3, $4)", rows)

        await store.db.write(body)
    finally:
        await store.close()


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def logged_in(base: str):
    import discord
    from discord.http import Route

    Route.BASE = base
    client = discord.Client(intents=discord.Intents.none())
    await client.login(TOKEN)  # discord.py's own HTTP client: GET /users/@me, then its rate-limit handling
    return client


async def work(args) -> dict:
    """This checkout's daily round over this process's shard, until every post of the shard is settled."""
    from app.daily.budget import SendBudget, process_share
    from app.daily.days import day_of, post_due_at
    from app.daily.round import MIDNIGHT, DailyRound, due_posts, in_flight_for
    from bot.pacing import watch_global_limits
    from cogs.daily.post import send_post
    from games.i18n import ENGLISH
    from storage import open_store

    store = await open_store(args.database)
    client = await logged_in(args.base)
    budget = SendBudget(process_share(args.limit, args.shard_count, (args.shard_id,)))
    unwatch = watch_global_limits(budget)
    midnight = post_due_at(day_of(time_now()), MIDNIGHT)
    rounds = DailyRound(store, f"bench:{os.getpid()}", in_flight_for(budget.share))
    delivered = skipped = 0
    await until_midnight(args)

    def mine(guild_id: int) -> bool:
        return (guild_id >> 22) % args.shard_count == args.shard_id

    async def send(item, facts, server):
        channel = client.get_partial_messageable(item.channel_id, guild_id=item.guild_id)
        return await send_post(channel, item, facts, server, budget, ENGLISH)

    try:
        while due := await due_posts(store, midnight, mine):
            report = await rounds.run(due, send)
            delivered += len(report.delivered)
            skipped += report.skipped
            if not report.delivered:  # the rest is held by a process that died: its leases run out
                await asyncio.sleep(5)
    finally:
        unwatch()
        await client.close()
        await store.close()
    return {"delivered": delivered, "skipped": skipped, "limited": budget.limited, "peak_mib": peak_mib()}


async def work_earlier(args) -> dict:
    """An earlier revision's ``DailyPoster.post_due`` over this process's shard (``--revision``)."""
    from types import SimpleNamespace

    import discord

    from cogs.daily.post import DailyPoster
    from storage import open_store

    store = await open_store(args.database)
    client = await logged_in(args.base)

    def channel(channel_id: int):
        guild_id = channel_id - 1
        if (guild_id >> 22) % args.shard_count != args.shard_id:
            return None  # another process's server
        partial = client.get_partial_messageable(channel_id, guild_id=guild_id)
        guild = SimpleNamespace(id=guild_id, preferred_locale=discord.Locale.american_english)
        return SimpleNamespace(id=channel_id, guild=guild, send=partial.send)

    bot = SimpleNamespace(store=store, par_solver=None, coach_player=None, get_channel=channel)
    poster = DailyPoster(bot)
    poster.start_retrying = lambda: None  # no loops here: this process calls post_due itself
    delivered = 0
    await until_midnight(args)
    try:
        while True:
            posted = await poster.post_due()
            delivered += len(posted)
            mine = [g for g, _, _ in await store.undelivered_daily_posts(poster_day())
                    if (g >> 22) % args.shard_count == args.shard_id]
            settled = await store.delivered_daily_posts(poster_day())
            left = [g for g in guild_ids(args.servers) if (g >> 22) % args.shard_count == args.shard_id
                    and g not in settled]
            if not left:
                break
            if not posted:
                await asyncio.sleep(5 if mine else 0.1)
    finally:
        await client.close()
        await store.close()
    return {"delivered": delivered, "skipped": 0, "limited": 0, "peak_mib": peak_mib()}


async def until_midnight(args) -> None:
    """Wait, logged in and connected to the database, for the moment the run calls midnight (a running bot is up
    before its posts are due)."""
    await asyncio.sleep(max(0.0, args.start_at - time.time()))


def time_now():
    from datetime import UTC, datetime

    return datetime.now(UTC)


def poster_day() -> int:
    from app.daily.days import day_of

    return day_of(time_now())


def worker_main(args) -> None:
    if args.worker == "seed":
        asyncio.run(seed(args.database, args.servers))
        return
    result = asyncio.run(work_earlier(args) if args.worker == "earlier" else work(args))
    print("RESULT " + json.dumps(result), flush=True)


# --- the run: a stand-in Discord, the processes, the figures --------------------------------------------------------

class Databases:
    """SQLite files in a folder, or databases of one PostgreSQL server (``postgresql://auto``: started here)."""

    def __init__(self, target: str, folder: Path) -> None:
        self.target, self.folder, self.server, self.made = target, folder, None, 0

    def __enter__(self) -> Databases:
        if self.target == AUTO:
            sys.path.insert(0, str(ROOT))
            from tests.postgres_server import PostgresServer, find_bindir

            bindir = find_bindir()
            if bindir is None:
                raise SystemExit("postgresql://auto needs PostgreSQL's binaries (initdb, pg_ctl)")
            self.server = PostgresServer(bindir, durable=True).start()
        return self

    def __exit__(self, *exc) -> None:
        if self.server is not None:
            self.server.stop()

    def new(self) -> str:
        self.made += 1
        if self.server is not None:
            return self.server.create_database()
        if self.target.startswith("postgresql"):
            raise SystemExit("give postgresql://auto: each run needs a fresh database")
        return str(self.folder / f"run{self.made}.sqlite3")


def spawn(tree: Path, args, role: str, database: str, base: str = "", shard: int = 0,
          start_at: float = 0.0) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOUNDREL_")}
    env.update(PYTHONPATH=str(tree), PYTHONUNBUFFERED="1")
    command = [sys.executable, str(tree / "benchmarks" / "daily_post_bench.py"), "--worker", role,
               "--database", database, "--servers", str(args.servers), "--base", base, "--limit", str(args.limit),
               "--shard-count", str(args.processes), "--shard-id", str(shard), "--start-at", str(start_at)]
    return subprocess.Popen(command, cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)


async def finished(proc: subprocess.Popen) -> dict:
    out = await asyncio.to_thread(proc.communicate)
    for line in out[0].splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    return {"delivered": 0, "skipped": 0, "limited": 0, "peak_mib": 0.0, "died": proc.returncode}


async def measure(tree: Path, role: str, label: str, args, databases: Databases) -> dict:
    database = databases.new()
    await asyncio.to_thread(spawn(tree, args, "seed", database).wait)
    discord = StandInDiscord(latency=args.latency, limit=args.limit)
    await discord.start()
    midnight = time.time() + STARTUP  # the processes are up, logged in and waiting by then
    procs = [spawn(tree, args, role, database, discord.base, shard, midnight) for shard in range(args.processes)]
    waits = [asyncio.ensure_future(finished(p)) for p in procs]
    events = []
    try:
        if args.kill or args.storm:
            while sum(discord.messages.values()) < args.servers // 2 and not all(w.done() for w in waits):  # noqa: ASYNC110
                await asyncio.sleep(0.05)  # noqa: ASYNC110 - polling another process's progress
            if args.kill and not waits[0].done():
                procs[0].send_signal(signal.SIGKILL)
                events.append(f"process 0 killed at {time.time() - midnight:.1f} s and started again")
                await waits[0]
                procs[0] = spawn(tree, args, role, database, discord.base, 0, time.time())
                waits[0] = asyncio.ensure_future(finished(procs[0]))
            if args.storm:
                discord.limit = args.storm
                events.append(f"limit lowered to {args.storm}/s at {time.time() - midnight:.1f} s")
        results = await asyncio.gather(*waits)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
        await discord.close()
    stats = discord.stats()
    first = (stats["first"] or midnight) - midnight
    last = (stats["last"] or midnight) - midnight
    rate = (stats["messages"] - 1) / (last - first) if last > first else 0.0
    return {"label": label, "stats": stats, "first": first, "last": last, "rate": rate, "results": results,
            "events": events, "extrapolated": first + FLOOR_SERVERS / rate if rate else float("inf")}


def report(run: dict, args) -> None:
    s = run["stats"]
    share = s["limited"] / s["requests"] if s["requests"] else 0.0
    once = s["channels"] == args.servers and s["doubled"] == 0
    print(f"\n{run['label']}: {args.servers} servers, {args.processes} process(es), {args.latency * 1000:.0f} ms, "
          f"limit {args.limit}/s")
    for event in run["events"]:
        print(f"  {event}")
    print(f"  first post {run['first']:.2f} s after midnight, last {run['last']:.1f} s; {run['rate']:.1f} posts/s")
    print(f"  requests {s['requests']}, 429s {s['limited']} ({share:.3%}); busiest second {s['busiest_second']}")
    print(f"  exactly once: {'yes' if once else 'NO'} ({s['channels']} servers posted, {s['doubled']} doubled, "
          f"{s['from_nonce']} resends answered from their nonce)")
    print("  peak memory per process: " + ", ".join(f"{r['peak_mib']:.0f} MiB" for r in run["results"]))
    print(f"  100,000 servers at this rate: {run['extrapolated'] / 60:.1f} min (the floor at {args.limit}/s: "
          f"{FLOOR_SERVERS / args.limit / 60:.1f} min)")


def extract(revision: str, into: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True).stdout
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    for name in ("daily_post_bench.py", "stand_in_discord.py"):  # this driver, run over that revision's code
        (into / "benchmarks" / name).write_bytes((HERE / name).read_bytes())
    return into


async def main(args) -> None:
    with tempfile.TemporaryDirectory(prefix="daily-post-") as tmp, Databases(args.database, Path(tmp)) as dbs:
        runs = []
        if args.revision:
            earlier = extract(args.revision, Path(tmp) / "earlier")
            runs.append(await measure(earlier, "earlier", f"at {args.revision}", args, dbs))
            report(runs[-1], args)
        runs.append(await measure(ROOT, "post", "this checkout", args, dbs))
        report(runs[-1], args)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--servers", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--database", default="", help=f"SQLite in a temporary folder (default) or {AUTO}")
    parser.add_argument("--latency", type=float, default=0.08, help="seconds the stand-in takes to answer")
    parser.add_argument("--limit", type=int, default=50, help="the global limit, requests a second")
    parser.add_argument("--kill", action="store_true", help="kill process 0 half-way and start it again")
    parser.add_argument("--storm", type=int, default=0, help="lower the limit to this half-way")
    parser.add_argument("--revision", help="first the same with this git revision's DailyPoster")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--base", default="", help=argparse.SUPPRESS)
    parser.add_argument("--shard-count", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--shard-id", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--start-at", type=float, default=0.0, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse(sys.argv[1:])
    if arguments.worker:
        worker_main(arguments)
    elif arguments.processes > 1 and arguments.database != AUTO and not arguments.database.startswith("postgres"):
        raise SystemExit(f"several processes share a PostgreSQL database: --database {AUTO}")
    else:
        asyncio.run(main(arguments))
