"""A move's cost through the table's web API: many players playing at once over loopback HTTP.

    .venv/bin/python benchmarks/web_load.py                      # 200 players for 20 s on SQLite
    .venv/bin/python benchmarks/web_load.py --players 50 --seconds 5
    .venv/bin/python benchmarks/web_load.py --db postgresql://…  # on PostgreSQL
    .venv/bin/python benchmarks/web_load.py --browser            # and the first table in headless Chromium

The server (the real routes of ``web/`` over a real store, no picture to draw) runs in its own process; the
players are aiohttp clients in this one, each with its own token, each playing its own game as fast as the server
answers: it reads the table, sends the first playable card with the version it saw (Avoid when there is none),
and starts a new game when one ends. Printed: moves, moves/s (wall), the move's round trip (median, p99) and the
server process's CPU per move (user + system, from /proc, over the measured window only).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


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


async def serve(database: str, port_file: str) -> None:
    from aiohttp import web

    from storage import open_store
    from web.limits import RateLimit
    from web.routes import Table, add_routes

    store = await open_store(database)
    app = web.Application()
    add_routes(app, Table(store=lambda: store, identity=BenchIdentity(),  # type: ignore[arg-type]
                          limits=RateLimit(rate=1e9, burst=10**9)))  # measuring the moves, not the limits
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    Path(port_file).write_text(str(runner.addresses[0][1]))  # noqa: ASYNC240 - once, at start-up
    try:
        await asyncio.Event().wait()
    finally:
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


async def player(http: aiohttp.ClientSession, number: int, until: float, times: list[float]) -> None:
    headers = {"Authorization": f"Bearer bench-{number}"}
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


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
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


async def run(args) -> None:
    with tempfile.TemporaryDirectory() as folder:
        database = args.db or str(Path(folder) / "web-load.sqlite3")
        port_file = Path(folder) / "port"
        server = subprocess.Popen([sys.executable, __file__, "--serve", database, str(port_file)],  # noqa: ASYNC220
                                  cwd=ROOT)
        try:
            while not port_file.exists() or not port_file.read_text():
                if server.poll() is not None:
                    raise SystemExit("the server did not start")
                await asyncio.sleep(0.05)
            url = f"http://127.0.0.1:{port_file.read_text()}"
            connector = aiohttp.TCPConnector(limit=args.players)
            async with aiohttp.ClientSession(url, connector=connector) as http:
                warm: list[float] = []
                await asyncio.gather(*[player(http, n, time.perf_counter() + 1.0, warm)
                                       for n in range(args.players)])
                times: list[float] = []
                cpu, wall, mine = cpu_seconds(server.pid), time.perf_counter(), time.process_time()
                await asyncio.gather(*[player(http, n, wall + args.seconds, times) for n in range(args.players)])
                cpu, wall, mine = cpu_seconds(server.pid) - cpu, time.perf_counter() - wall, time.process_time() - mine
            times.sort()
            print(f"{args.players} players, {len(times)} moves in {wall:.1f} s: {len(times) / wall:.0f} moves/s")
            print(f"round trip: median {statistics.median(times) * 1000:.1f} ms, "
                  f"p99 {times[int(len(times) * 0.99)] * 1000:.1f} ms")
            print(f"server CPU: {cpu * 1000 / len(times):.2f} ms per move ({cpu:.1f} s over the window); the players' "
                  f"process: {mine * 1000 / len(times):.2f} ms per move ({mine:.1f} s)")
            if args.browser:
                took = await first_table(url + "/")
                print(f"first table on screen (headless Chromium, loopback): {took * 1000:.0f} ms")
        finally:
            server.terminate()
            server.wait(10)


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--serve":
        asyncio.run(serve(sys.argv[2], sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--db", help="a SQLite path or postgresql:// URL (default: a new SQLite file)")
    parser.add_argument("--browser", action="store_true", help="also time the first table in headless Chromium")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
