"""A move's cost through the table's web API: many players playing at once over loopback HTTP.

    .venv/bin/python benchmarks/web_load.py                      # 200 players for 20 s on SQLite
    .venv/bin/python benchmarks/web_load.py --players 50 --seconds 5
    .venv/bin/python benchmarks/web_load.py --db postgresql://…  # on PostgreSQL
    .venv/bin/python benchmarks/web_load.py --browser            # and the first table in headless Chromium

The server (the real routes of ``web/`` over a real store, no picture to draw) runs in its own process; the
players are aiohttp clients in this one, each with its own token, each playing its own game as fast as the server
answers (or, with ``--pace S``, waiting about S seconds between moves, as a person looking and tapping does): it
reads the table, sends the first playable card with the version it saw (Avoid when there is none), and starts a
new game when one ends. With ``--revision REV`` an earlier revision's server is measured in the same run (its
files from ``git archive``), alternating with this checkout's ``--rounds`` times; with ``--chat``, the chat's path
follows: the same number of players clicking through SimCord (``benchmarks/click_load.py``). Printed: moves,
moves/s (wall), the move's round trip (median, p99) and the
server process's CPU per move (user + system, from /proc, over the measured window only), split between its event
loop's thread and the others (SQLite's writer and readers; on PostgreSQL the database's own work is in its server).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]) if "--tree" in sys.argv else ROOT  # the server's code
sys.path.insert(0, str(TREE))


# --- the server process -------------------------------------------------------------------------------------
class BenchIdentity:
    """Token ``bench-N`` is player N (the benchmark's players; Discord is not asked)."""

    async def exchange(self, code: str) -> str:
        return "bench-999999"  # the browser's player (DiscordSDKMock's code)

    async def player(self, token: str):
        from web.identity import Player, Refused

        if not token.startswith("bench-") or not token[6:].isdigit():
            raise Refused("not a benchmark token")
        return Player(int(token[6:]) + 1000, f"Player {token[6:]}")

    async def close(self) -> None:
        return None


async def serve(database: str, port_file: str, profile: str | None = None) -> None:
    import signal

    from aiohttp import web

    from storage import open_store
    from web.limits import RateLimit
    from web.routes import Table, add_routes

    try:  # as the bot's store: every call within the store's time limit
        from storage.time_limit import STORE_WAIT
    except ImportError:  # a revision from before it
        store = await open_store(database)
    else:
        store = await open_store(database, wait=STORE_WAIT)
    app = web.Application()
    add_routes(app, Table(store=lambda: store, identity=BenchIdentity(),  # type: ignore[arg-type]
                          limits=RateLimit(rate=1e9, burst=10**9)))  # measuring the moves, not the limits
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    profiler = None
    if profile:  # the server's own code, profiled from start-up to the end of the run
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    try:  # the bot's garbage collector once started (``bot run``'s process tunes it so)
        from bot.client import tune_collector
    except ImportError:  # a revision from before it
        pass
    else:
        tune_collector()
    Path(port_file).write_text(str(runner.addresses[0][1]))  # noqa: ASYNC240 - once, at start-up
    try:
        await stop.wait()
    finally:
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(profile)
        await runner.cleanup()
        await store.close()


# --- the players ---------------------------------------------------------------------------------------------
def a_move(state: dict) -> str:
    for slot in state["room"]:
        play = slot.get("weapon") or slot.get("take")
        if play:
            return play["code"]
    if state["avoid"]:
        return state["avoid"]["code"]
    return state["choices"][0]["code"]


async def player(http: aiohttp.ClientSession, number: int, until: float, times: list[float],
                 pace: float = 0.0) -> None:
    headers = {"Authorization": f"Bearer bench-{number}"}
    if pace:  # the players arrive spread over one pace, not all at once
        await asyncio.sleep(random.uniform(0, pace))
    async with http.post("/api/games", json={"kind": "normal"}, headers=headers) as answer:
        state = (await answer.json())["state"]
    while time.perf_counter() < until:
        if state["over"]:
            async with http.post("/api/games", json={"kind": "normal"}, headers=headers) as answer:
                state = (await answer.json())["state"]
            continue
        started = time.perf_counter()
        async with http.post(f"/api/games/{state['id']}/move", json={"version": state["version"],
                                                                    "action": a_move(state)},
                             headers=headers) as answer:
            body = await answer.json()
        times.append(time.perf_counter() - started)
        if answer.status not in (200, 409):
            raise RuntimeError(f"player {number}: {answer.status} {body}")
        state = body["state"]
        if pace:  # a player's time to look and tap again, about ``pace``
            await asyncio.sleep(random.uniform(0.5, 1.5) * pace)


def cpu_seconds(pid: int, task: int | None = None) -> float:
    """User + system CPU of process ``pid`` (or of its thread ``task``), from /proc."""
    where = f"/proc/{pid}/task/{task}/stat" if task is not None else f"/proc/{pid}/stat"
    fields = Path(where).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def first_table(url: str) -> float:
    """Seconds from asking for the page to the table on screen, in Debian's headless Chromium."""
    from playwright.async_api import async_playwright

    from tests.web.test_browser import CHROMIUM, FLAGS

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = await browser.new_page(viewport={"width": 390, "height": 844})
        await page.goto(url)  # once: the browser's own start-up is not the table's
        started = time.perf_counter()
        await page.goto(url)
        await page.wait_for_selector("main[data-version]")
        took = time.perf_counter() - started
        await browser.close()
    return took


async def measure(args, database: str, tree: Path) -> tuple:
    """One server (``tree``'s code) on ``database``, measured: (moves, wall, server CPU, players' CPU, times)."""
    with tempfile.TemporaryDirectory() as folder:
        port_file = Path(folder) / "port"
        command = [sys.executable, __file__, "--serve", database, str(port_file)] + (
            [args.profile] if args.profile else []) + ["--tree", str(tree)]
        server = subprocess.Popen(command, cwd=tree)  # noqa: ASYNC220
        try:
            while not port_file.exists() or not port_file.read_text():
                if server.poll() is not None:
                    raise SystemExit("the server did not start")
                await asyncio.sleep(0.05)
            url = f"http://127.0.0.1:{port_file.read_text()}"
            connector = aiohttp.TCPConnector(limit=args.players)
            async with aiohttp.ClientSession(url, connector=connector) as http:
                warm: list[float] = []
                await asyncio.gather(*[player(http, n, time.perf_counter() + 1.0, warm, args.pace)
                                       for n in range(args.players)])
                times: list[float] = []
                loop_cpu = cpu_seconds(server.pid, server.pid)  # the event loop's thread (the rest: the database's)
                cpu, wall, mine = cpu_seconds(server.pid), time.perf_counter(), time.process_time()
                await asyncio.gather(*[player(http, n, wall + args.seconds, times, args.pace)
                                       for n in range(args.players)])
                cpu, wall, mine = cpu_seconds(server.pid) - cpu, time.perf_counter() - wall, time.process_time() - mine
                loop_cpu = cpu_seconds(server.pid, server.pid) - loop_cpu
            if args.browser:
                took = await first_table(url + "/")
                print(f"first table on screen (headless Chromium, loopback): {took * 1000:.0f} ms")
        finally:
            server.terminate()
            server.wait(10)
    return len(times), wall, cpu, loop_cpu, mine, sorted(times)


def report(name: str, players: int, moves: int, wall: float, cpu: float, loop_cpu: float, mine: float,
           times: list[float]) -> None:
    print(f"{name}: {players} players, {moves} moves in {wall:.1f} s: {moves / wall:.0f} moves/s; round trip median "
          f"{statistics.median(times) * 1000:.1f} ms, p99 {times[int(len(times) * 0.99)] * 1000:.1f} ms; server CPU "
          f"{cpu * 1000 / moves:.2f} ms per move ({cpu:.1f} s; the event loop's thread "
          f"{loop_cpu * 1000 / moves:.2f} ms, the database's threads {(cpu - loop_cpu) * 1000 / moves:.2f} ms); "
          f"the players' process {mine * 1000 / moves:.2f} ms per move", flush=True)


async def run(args, trees: list[tuple[str, Path]], folder: str) -> None:
    for round_number in range(args.rounds):  # alternating, so that the machine's load falls on each alike
        for name, tree in trees:
            database = args.db or str(Path(args.dir or folder) / f"web-load-{len(name)}-{round_number}.sqlite3")
            report(name, args.players, *await measure(args, database, tree))


def checkout(revision: str, folder: str) -> Path:
    """``revision``'s files (``git archive``) in a new folder under ``folder``."""
    tree = Path(folder) / revision
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree


def main() -> None:
    if sys.argv[1:2] == ["--serve"]:
        server = serve(*sys.argv[2:sys.argv.index("--tree")])
        try:  # the bot's own event loop (uvloop where installed), as the routes run under ``bot run``
            from bot.run import run_loop
        except ImportError:  # a revision from before it
            asyncio.run(server)
        else:
            run_loop(server)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--db", help="a SQLite path or postgresql:// URL (default: a new SQLite file)")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds each player waits between moves "
                        "(default 0: as fast as the server answers)")
    parser.add_argument("--revision", action="append", default=[], help="also measure that git revision's server, "
                        "in the same run (repeatable)")
    parser.add_argument("--rounds", type=int, default=1, help="measurements of each server, alternating")
    parser.add_argument("--chat", action="store_true", help="then the chat's path (benchmarks/click_load.py)")
    parser.add_argument("--chat-rounds", type=int, default=5, help="clicks per player on the chat's path")
    parser.add_argument("--chat-profile", action="store_true", help="the bot's share of the chat's CPU (py-spy)")
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    parser.add_argument("--profile", metavar="FILE", help="cProfile the server process into FILE (pstats)")
    parser.add_argument("--dir", help="the folder of the SQLite files (default: a temporary one; /dev/shm leaves "
                        "the disk's fsync out of the round trips)")
    parser.add_argument("--browser", action="store_true", help="also time the first table in headless Chromium")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        trees = [(revision, checkout(revision, folder)) for revision in args.revision]  # measured in the same run
        asyncio.run(run(args, [*trees, ("this checkout", ROOT)], folder))
    if args.chat:  # the chat's path, the same players clicking through SimCord (benchmarks/click_load.py)
        print("the chat (benchmarks/click_load.py, the same players through SimCord, one click at a time):",
              flush=True)
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "click_load.py"), "--players", str(args.players),
                        "--rounds", str(args.chat_rounds)] + (["--profile"] if args.chat_profile else []),
                       cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
