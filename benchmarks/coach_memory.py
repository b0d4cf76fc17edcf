"""The solver's memory: the worker's peak and idle RSS over hints and reviews, and the whole bot's under 50 players
asking for hints at once.

    .venv/bin/python benchmarks/coach_memory.py                        # this checkout
    .venv/bin/python benchmarks/coach_memory.py --revision d8e4259     # that revision first, then this checkout
    .venv/bin/python benchmarks/coach_memory.py --players 50 --idle 60 --reviews 4

Worker: one hint at a deal's first room, then ``--reviews`` reviews of whole games (each deal's par line: a won game
judged move by move, the longest a review gets), through the bot's own functions, in its one worker process. RSS
is read from ``/proc`` every 50 ms for every process of the run (this one and its workers): the worker's peak over
the requests, then its RSS ``--idle`` seconds after the last one ended.

The bot under load: this process loads the bot's modules (discord.py, the cogs, the web table), then ``--players``
players each ask for a hint at their own game's first room at the same moment. Printed: how many were answered
and how many refused, the waiting from the ask to the answer (median and 95th percentile), and the peak RSS of this
process and its workers together. The hint's speed is the solver's: these figures move with it.

With ``--revision`` the same run is made first by that git revision's code (``git archive`` into a temporary
directory; the compiled solver is copied from this checkout where its sources are the same, else built there).
Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = os.sysconf("SC_PAGE_SIZE")


def rss(pid: int) -> int:
    """Resident bytes of ``pid`` (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * PAGE
    except (FileNotFoundError, ProcessLookupError):
        return 0


def children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as text:
                for child in text.read().split():
                    found.append(int(child))
                    found += children(int(child))
        except FileNotFoundError:
            pass
    return found


class Sampler:
    """RSS of this process and each of its descendants, every 50 ms, on a thread: the peak of each, and of all."""

    def __init__(self) -> None:
        self.peak_total = 0
        self.peak_child = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            me = rss(os.getpid())
            kids = [rss(child) for child in children(os.getpid())]
            self.peak_child = max([self.peak_child, *kids])
            self.peak_total = max(self.peak_total, me + sum(kids))


def mb(n: float) -> str:
    return f"{n / 2**20:,.0f} MB"


def layout():
    """(the worker's module, the coach's module) in this tree's names."""
    try:
        from app.coach import advice
        from app.solver import worker
    except ImportError:  # before the application layer was app/
        from scoundrel import coach as advice  # type: ignore[no-redef]
        from scoundrel import par as worker  # type: ignore[no-redef]
    return worker, advice


def deals(count: int, start: int = 0):
    from games.engine import PRESETS, deal
    from games.engine.seeds import seed_from_bytes

    rules = PRESETS["classic"]
    return rules, [deal(rules, seed_from_bytes(f"coach-memory/{i}".encode())) for i in range(start, start + count)]


async def worker_run(reviews: int, idle: float) -> None:
    from games.solver import solve

    worker, advice = layout()
    advice.REVIEW_TIME_LIMIT = advice.HINT_TIME_LIMIT = 3600.0  # memory is measured here, not speed (a busy host)
    rules, decks = deals(max(1, reviews))
    lines = [solve(rules, deck).actions for deck in decks]  # whole won (or longest) games, solved here beforehand
    with Sampler() as sampler:
        started = time.perf_counter()
        await advice.hint_for(rules, decks[0], (), requester=1)
        hinted = time.perf_counter() - started
        for deck, line in zip(decks, lines, strict=True):
            await advice.review_game(rules, deck, line, requester=1)
        busy = time.perf_counter() - started
        peak = sampler.peak_child
    print(f"worker: a hint ({hinted:.1f} s) and {reviews} reviews ({busy - hinted:.1f} s): peak {mb(peak)}",
          flush=True)
    marks = sorted({10.0, idle})
    waited = 0.0
    for mark in marks:
        await asyncio.sleep(mark - waited)
        waited = mark
        kids = children(os.getpid())
        print(f"worker: idle {mark:.0f} s: {mb(sum(rss(child) for child in kids))} ({len(kids)} worker processes)",
              flush=True)
    await worker.close_par()


async def bot_run(players: int) -> None:
    import bot.client  # noqa: F401  # the bot's process as it runs: discord.py, the cogs, the web table
    import cogs  # noqa: F401
    import web.routes  # noqa: F401

    worker, advice = layout()
    advice.HINT_TIME_LIMIT = 3600.0  # every hint answered, however busy the host
    rules, decks = deals(players, start=1000)
    waits: list[float] = []
    refused = 0

    async def ask(player: int, deck) -> None:
        nonlocal refused
        asked = time.perf_counter()
        try:
            await advice.hint_for(rules, deck, (), requester=player)
        except worker.SolverBusy:
            refused += 1
            return
        waits.append(time.perf_counter() - asked)

    base = rss(os.getpid())
    with Sampler() as sampler:
        started = time.perf_counter()
        await asyncio.gather(*(ask(player, deck) for player, deck in enumerate(decks, 1)))
        took = time.perf_counter() - started
    waits.sort()
    p95 = waits[min(len(waits) - 1, int(0.95 * len(waits)))] if waits else float("nan")
    median = statistics.median(waits) if waits else float("nan")
    print(f"bot: {players} players ask for a hint at once: {len(waits)} answered, {refused} refused as busy; "
          f"waiting median {median:.1f} s, p95 {p95:.1f} s; all done in {took:.1f} s", flush=True)
    print(f"bot: RSS before {mb(base)}; peak of the bot and its workers together {mb(sampler.peak_total)}",
          flush=True)
    await worker.close_par()


def prepare(tree: Path) -> None:
    """The compiled solver in ``tree``: this checkout's build where the sources agree, else built there."""
    solver, here = tree / "games" / "solver", ROOT / "games" / "solver"
    extensions, copied = list(here.glob("*.so")), 0
    for built in extensions:
        sidecar = built.with_name(built.name + ".sources.json")
        # the sources each extension was built from, as its sidecar names them (search.py and .pxd, _exact.c, ...)
        names = json.loads(sidecar.read_text()) if sidecar.exists() else {}
        if names and all((solver / name).exists() and (solver / name).read_bytes() == (here / name).read_bytes()
                         for name in names):
            shutil.copy2(built, solver / built.name)
            shutil.copy2(sidecar, solver / sidecar.name)
            copied += 1
    if copied < len(extensions):
        env = dict(os.environ, SCOUNDREL_SKIP_CLIENT="1")
        subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tree, env=env, check=True,
                       capture_output=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reviews", type=int, default=4)
    parser.add_argument("--idle", type=float, default=60.0, help="seconds idle before the worker's RSS is read")
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--part", choices=("worker", "bot", "both"), default="both")
    parser.add_argument("--revision", action="append", default=[])
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.revision:
        rest = [a for a in argv if a != "--revision" and a not in args.revision]
        with tempfile.TemporaryDirectory() as tmp:
            runs = []
            for revision in args.revision:
                tree = Path(tmp) / revision
                tree.mkdir()
                archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True,
                                         capture_output=True)
                subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
                prepare(tree)
                runs.append((revision, tree))
            for name, tree in (*runs, ("this checkout", ROOT)):
                print(f"--- {name}", flush=True)
                subprocess.run([sys.executable, __file__, *rest, "--tree", str(tree)], check=True)
        return 0
    if args.tree:
        sys.path.insert(0, args.tree)
        os.chdir(args.tree)
    else:
        sys.path.insert(0, str(ROOT))
    if args.part in ("worker", "both"):
        asyncio.run(worker_run(args.reviews, args.idle))
    if args.part in ("bot", "both"):
        asyncio.run(bot_run(args.players))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
