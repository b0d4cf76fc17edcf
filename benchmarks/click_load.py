"""A click's cost in the real bot: many players' games clicked through SimCord (discord.py's real client, gateway
parsers, command tree, views and a real SQLite file), the bot's CPU per click told apart from SimCord's by py-spy.

    .venv/bin/python benchmarks/click_load.py                       # 200 players, 5 rounds of clicks each
    .venv/bin/python benchmarks/click_load.py --profile             # and the bot's share of the CPU (py-spy)
    .venv/bin/python benchmarks/click_load.py --calls --revision d6c6a06   # Python calls per click: steady under load
    .venv/bin/python benchmarks/click_load.py --profile --revision d6c6a06   # that revision first, then this one
    .venv/bin/python benchmarks/click_load.py --profile --revision d6c6a06 --revision 86e3171   # both, then this

Every player starts a game (``/scoundrel play``), then round after round each player in turn clicks the first
playable card of their game message (a new ``/scoundrel play`` when a game ends). SimCord runs one operation at a
time, so the clicks are back to back rather than at once: the figures are one process's CPU per interaction and the
rate it sustains when saturated. Printed: interactions, interactions/s (wall), process CPU per interaction (bot and
SimCord together), the click-to-answer time (median and p99 of the whole click: defer, load, play and commit,
draw, edit) and, with ``--profile``, py-spy's samples (``py-spy record --pid``, raw stacks) split by whose code
each sample was in: the bot's (bot/, cogs/, storage/, discord.py, aiosqlite, Pillow) or SimCord's, read from the
innermost frame that belongs to either, so the bot's CPU per interaction is the process CPU times the bot's share.
With ``--revision`` (repeatable) the same run is made first by each of those git revisions' code (``git archive``
into a temporary directory, its own process).

SimCord replaces the network: no aiohttp upload and no JSON on the wire are measured here.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import cProfile
import os
import pstats
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]) if "--tree" in sys.argv else ROOT
sys.path.insert(0, str(TREE))

import simcord  # noqa: E402
from bot_options import owning  # noqa: E402  (benchmarks/bot_options.py, beside this script)

from bot.client import ScoundrelBot  # noqa: E402
from bot.config import Config  # noqa: E402

FAKE_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.benchmark-token-not-real-00000000000"
# Innermost frames of a thread waiting, not working: the event loop's select, aiosqlite's and a thread pool's queue.
IDLE = ("EpollSelector.select (selectors.py", "_connection_worker_thread (aiosqlite/core.py:59)",
        "_worker (concurrent/futures/thread.py:81)")
BOT_CODE = ("bot/", "cogs/", "terminal/", "app/", "storage/", "games/",
            "discord/", "aiosqlite/", "PIL/", "isal/", "sqlite3/")


def playable(message) -> list:
    found = []
    for row in message.components:
        for item in row.children:
            code = (getattr(item, "custom_id", None) or "").split(":")
            if code[:2] == ["sc", "g"] and code[-1] not in ("mode", "A") and not item.disabled:
                found.append(item)
    return found


def start_spy(profile: Path) -> subprocess.Popen:
    """py-spy sampling this process (1000 Hz, without pausing it; only a thread holding the GIL, so a thread
    waiting on a lock or on SQLite is not counted as working) into ``profile`` until it gets SIGINT."""
    beside = Path(sys.executable).with_name("py-spy")  # the virtualenv's, when it is not on the PATH
    spy = str(beside) if beside.exists() else "py-spy"
    return subprocess.Popen([spy, "record", "--pid", str(os.getpid()), "--format", "raw", "--rate", "1000",
                             "--nonblocking", "--threads", "--gil", "-o", str(profile)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


async def start(player, channel, seed: int):
    await player.slash(channel, "scoundrel play", seed=f"{seed // 65536:04X}-{seed % 65536:04X}")
    return channel.last_message


async def run(players: int, rounds: int, profile: Path | None, count_calls: bool = False) -> dict:
    times: list[float] = []
    counter = cProfile.Profile() if count_calls else None
    with tempfile.TemporaryDirectory() as tmp:
        bot = ScoundrelBot(Config(token=FAKE_TOKEN, database=Path(tmp) / "bench.sqlite3"), par_solver=None,
                           **owning(ScoundrelBot))
        env = simcord.Env(bot)
        await env.start()
        spy = None
        try:
            guild = env.create_guild("Bench")
            channels = [guild.create_text_channel(f"table-{i}") for i in range(players)]  # one game each
            people = [guild.add_member(env.create_user(f"player{i}")) for i in range(players)]
            seed = 0
            messages = {}
            for i, person in enumerate(people):
                seed += 1
                messages[i] = await start(person, channels[i], seed)
            if profile is not None:
                spy = start_spy(profile)
                await asyncio.sleep(1.0)  # py-spy attaches
            threads_before = thread_cpu()
            if counter is not None:
                counter.enable()
            interactions, wall, cpu = 0, time.perf_counter(), time.process_time()
            for _ in range(rounds):
                for i, person in enumerate(people):
                    channel = channels[i]
                    moves = playable(messages[i])
                    started = time.perf_counter()
                    if moves:
                        await person.click(messages[i], custom_id=moves[0].custom_id)
                        messages[i] = channel.last_message
                    else:
                        seed += 1
                        messages[i] = await start(person, channel, seed)
                    times.append((time.perf_counter() - started) * 1000)
                    interactions += 1
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            if counter is not None:
                counter.disable()
            after = thread_cpu()
            main = threading.main_thread().native_id
            main_cpu = after.get(main, 0) - threads_before.get(main, 0)
            other_cpu = sum(after.values()) - sum(threads_before.values()) - main_cpu
        finally:
            if spy is not None:
                spy.send_signal(signal.SIGINT)
                spy.wait(timeout=60)
            await env.shutdown()
            await bot.close()
    calls = None
    if counter is not None:  # every Python function call in the event loop's thread, the bot's and SimCord's
        calls = sum(entry[1] for entry in pstats.Stats(counter).stats.values())  # type: ignore[attr-defined]
    return {"interactions": interactions, "wall": wall, "cpu": cpu, "times": times, "main_cpu": main_cpu,
            "other_cpu": other_cpu, "calls": calls}


def thread_cpu() -> dict[int, float]:
    """CPU seconds (user + system) of each thread of this process, by native thread id (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    found = {}
    for task in Path("/proc/self/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended meanwhile
            continue
        found[int(task.name)] = (int(fields[11]) + int(fields[12])) / tick
    return found


def shares(raw: Path) -> tuple[float, collections.Counter]:  # noqa: C901 - one pass over the samples
    """The bot's share of the event loop thread's working samples (waiting left out; the other threads, aiosqlite's
    and the picture's, are the bot's alone), and its samples per innermost bot module (what the CPU went to)."""
    bot = simcord = 0
    where: collections.Counter = collections.Counter()
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        if frames[-1].startswith(IDLE) or not any(f.startswith(MAIN_THREAD) for f in frames[:3]):
            continue
        owner = None
        for frame in reversed(frames):  # innermost first
            place = _module(frame)
            if _under(place, "simcord/"):
                owner = "simcord"
                break
            if any(_under(place, code) for code in BOT_CODE):
                owner = "bot"
                where[place] += int(count)
                break
        if owner == "simcord":
            simcord += int(count)
        elif owner == "bot":
            bot += int(count)
    return bot / max(1, bot + simcord), where


MAIN_THREAD = f"thread ({threading.main_thread().native_id})"


def _under(place: str, folder: str) -> bool:
    return place.startswith(folder) or f"/{folder}" in place


def _module(frame: str) -> str:
    place = frame[frame.rfind("(") + 1:].split(":")[0]
    for part in ("site-packages/", "/wt/", "/work/main/", "/tmp/"):
        if part in place:
            place = place.split(part, 1)[1]
    return place


def report(result: dict, profile: Path | None) -> None:
    n, times = result["interactions"], sorted(result["times"])
    per_click = result["cpu"] / n * 1000
    print(f"interactions={n}  rate={n / result['wall']:.0f}/s  cpu per interaction={per_click:.2f} ms "
          f"(bot + SimCord)  answer median={statistics.median(times):.2f} ms "
          f"p99={times[min(n - 1, int(0.99 * n))]:.2f} ms")
    print(f"    event loop thread {result['main_cpu'] / n * 1000:.2f} ms, other threads (SQLite, pictures) "
          f"{result['other_cpu'] / n * 1000:.2f} ms per interaction")
    if result.get("calls") is not None:
        print(f"    Python function calls per interaction (event loop's thread): {result['calls'] / n:,.0f} "
              "(counted by cProfile, which slows the run: its times do not compare with a run without --calls)")
    if profile is not None and profile.exists():
        share, where = shares(profile)
        total = sum(where.values())
        bot = (result["main_cpu"] * share + result["other_cpu"]) / n * 1000
        print(f"py-spy: the bot has {share:.0%} of the event loop's samples -> bot cpu per interaction={bot:.2f} ms, "
              f"so one core would answer {1000 / bot:.0f} interactions/s")
        for module, count in where.most_common(12):
            print(f"    {count / total:6.1%}  {module}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="py-spy the timed clicks (needs py-spy)")
    parser.add_argument("--calls", action="store_true", help="count the Python function calls of the timed clicks "
                        "(cProfile): a figure that does not move with the machine's load")
    parser.add_argument("--revision", action="append", default=[],
                        help="first run this git revision's bot the same way (repeatable)")
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.revision:
        rest = [a for a in argv if a != "--revision" and a not in args.revision]
        with tempfile.TemporaryDirectory() as tmp:
            trees = []
            for revision in args.revision:
                tree = Path(tmp) / revision
                tree.mkdir()
                archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True,
                                         capture_output=True)
                subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
                trees.append((revision, str(tree)))
            for name, tree in (*trees, ("this checkout", str(ROOT))):
                print(f"--- {name}", flush=True)
                subprocess.run([sys.executable, __file__, *rest, "--tree", tree], check=True)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(os.environ.get("CLICK_LOAD_SPY", Path(tmp) / "spy.txt")) if args.profile else None
        report(asyncio.run(run(args.players, args.rounds, profile, args.calls)), profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
