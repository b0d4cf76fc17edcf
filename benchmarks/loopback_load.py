"""The real bot process under load through discord.py's real transport: a loopback Discord (REST and a zlib-stream
gateway on 127.0.0.1, benchmarks/loopback_discord.py) and ``python -m bot run`` as a separate process talking to it.

    .venv/bin/python benchmarks/loopback_load.py                           # 200 players: saturated, burst, paced
    .venv/bin/python benchmarks/loopback_load.py --profile                 # and py-spy on the bot: where a click goes
    .venv/bin/python benchmarks/loopback_load.py --revision aa6e932        # that revision first, then this checkout
    .venv/bin/python benchmarks/loopback_load.py --floor                   # discord.py alone first (loopback_floor.py)
    .venv/bin/python benchmarks/loopback_load.py --players 20 --seconds 4 --bursts 2 --paced 0   # a quick look

The bot is the unchanged ``bot run`` of the tree measured (``--revision REV``: ``git archive`` of that revision
into a temporary folder, with this checkout's compiled solver copied in), with a temporary config and a fresh
SQLite file; only discord.py's API base and gateway URL are pointed at the loopback server (benchmarks/
loopback_bot.py). It syncs its commands at start-up as in production; the players' ``/scoundrel play`` payloads
are built from the command tree it synced. The daily is switched off (its par solve at start-up would take the
CPU for seconds); everything else is the production default, INFO logging to a file included.

Each player has a game in one of the guilds' channels. A player sends ``/scoundrel play`` (an INTERACTION_CREATE
of type 2), then clicks the first playable card of the game message as the bot last wrote it (type 3, with the
message), and starts a new game when one ends. The phases, each on a warm bot:
- saturated: every player clicks again as soon as its answer arrives (all players in flight) for ``--seconds``,
  in rounds of ``--round`` seconds: interactions/s, the bot's CPU per interaction (its /proc stat, utime + stime,
  all threads; median over rounds), the part of it the cyclic garbage collector took (timed by generation through
  ``gc.callbacks``, installed by the launcher) and the first answer: from the INTERACTION_CREATE frame written to
  the callback request's arrival (p50, p99);
- burst: every player's next click written back to back (one gateway frame each), until all are answered, then a
  pause; ``--bursts`` times: p50 and p99 of the first answer (median over bursts);
- paced: each player thinks 0.5 to 1.5 s after each answer (the players out of step), for ``--paced`` seconds:
  the CPU per click at a human rate (higher than saturated: less is shared between interactions), how busy the
  bot's core is, and the first answer's p50 and p99;
- ``--profile``: one more saturated stretch with ``py-spy record --format raw --threads`` on the bot process,
  summarised in ms of CPU per interaction by thread, by module group (discord.py's gateway and parsing, aiohttp,
  json, PIL, aiosqlite, bot/cogs/storage, asyncio, ...) and by function (self and cumulative), each thread's
  samples weighed by its own CPU time; its figures are not used for the table (the sampler costs).

The bot is pinned to one core and this process (the loopback Discord and the players) to another, when the
machine has two (``--no-pin`` to leave both free); the generator's own CPU use is printed, and a warning when it
was near a full core (then the figures are the generator's limit, not the bot's). The answers are counted by kind
(callback 7 with the new picture, defer then PATCH, ...) and every refusal, error or unknown route is printed: a
benchmark with any of those is wrong, not slow.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loopback_discord import FakeDiscord, Pending, Player  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LAUNCHER = Path(__file__).resolve().parent / "loopback_bot.py"
FLOOR = Path(__file__).resolve().parent / "loopback_floor.py"
FAKE_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.loopback-benchmark-token-not-real-0000000"
ANSWER_WAIT = 20.0  # seconds a player waits for an answer before counting it as unanswered
CLOCK_TICK = os.sysconf("SC_CLK_TCK")


# --- the bot process -------------------------------------------------------------------------------------------

class BotProcess:
    """``python -m bot run`` of ``tree`` against ``discord``, with its own config, database and log file."""

    def __init__(self, tree: Path, discord: FakeDiscord, folder: Path, cpu: int | None, database: Path,
                 stop_wait: float = 12.0, module: str = "bot") -> None:
        self.stop_wait = stop_wait  # seconds it gets to exit after SIGTERM (it promises 10) before it is killed
        self.log_path = folder / "bot.log"
        config = folder / "config.toml"
        config.write_text(f'[bot]\ndatabase = "{database}"\nlog_level = "INFO"\n\n[daily]\nenabled = false\n')
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCOUNDREL_")}
        self.gc_path = folder / "gc.json"
        env.update(DISCORD_TOKEN=discord.token, PYTHONPATH=str(tree), PYTHONUNBUFFERED="1",
                   LOOPBACK_GC_FILE=str(self.gc_path), LOOPBACK_MODULE=module)
        pin = (lambda: os.sched_setaffinity(0, {cpu})) if cpu is not None else None
        self.stuck = False  # still running STOP_WAIT after SIGTERM
        self.log = self.log_path.open("wb")
        self.proc = subprocess.Popen([sys.executable, str(LAUNCHER), discord.base, discord.ws_url, "run", "--config",
                                      str(config)], cwd=tree, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     preexec_fn=pin)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def cpu(self) -> float:
        """CPU seconds (user + system, every thread) the bot process has used."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICK

    def collector(self) -> list[float]:
        """Seconds the bot's cyclic garbage collector has run in generations 0, 1 and 2, then how many times it ran
        in each (written by benchmarks/loopback_bot.py)."""
        try:
            found = json.loads(self.gc_path.read_text())
        except (OSError, ValueError):
            return [float("nan")] * 6
        return [*found["seconds"], *found["collections"]]

    def thread_cpu(self) -> dict[int, float]:
        """CPU seconds of each of the bot's threads, by native thread id (what py-spy's ``--threads`` names)."""
        found = {}
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            try:
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # the thread ended meanwhile
                continue
            found[int(task.name)] = (int(fields[11]) + int(fields[12])) / CLOCK_TICK
        return found

    def memory(self) -> tuple[float, float]:
        """Resident and peak resident MiB."""
        found = {}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0]) / 1024
        return found.get("VmRSS", 0.0), found.get("VmHWM", 0.0)

    async def stop(self) -> int:
        """SIGTERM (the bot's clean stop), waiting while the loopback Discord keeps serving it."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.to_thread(self.proc.wait, self.stop_wait)
            except subprocess.TimeoutExpired:
                self.stuck = True
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        return self.proc.returncode

    def problems(self) -> list[str]:
        """ERROR / CRITICAL lines and tracebacks in the bot's log."""
        text = self.log_path.read_text(errors="replace")
        return [line for line in text.splitlines() if re.search(r"\b(ERROR|CRITICAL)\b|^Traceback", line)]


# --- the players -----------------------------------------------------------------------------------------------

@dataclass
class Seat:
    player: Player
    number: int
    message: dict | None = None  # the game message as the bot last wrote it
    games: int = 0
    refusals: int = 0
    moves: int = 0  # clicks answered with the game's message edited (each a move made)
    notes: list[str] = field(default_factory=list)  # what the player was told privately


@dataclass
class Tally:
    """What one phase measured."""

    latencies: list[float] = field(default_factory=list)  # first answer, ms
    done: int = 0
    unanswered: int = 0
    outcomes: collections.Counter = field(default_factory=collections.Counter)


def playable(message: dict) -> str | None:
    """The custom_id of the first card the player can take or fight (``sc:g:<game>:<version>:<mode>:<code>``)."""
    for row in message.get("components", []):
        for item in row.get("components", []):
            code = (item.get("custom_id") or "").split(":")
            if code[:2] == ["sc", "g"] and code[-1][:1] in "TWB" and not item.get("disabled"):
                return item["custom_id"]
    return None


class Load:
    def __init__(self, discord: FakeDiscord, players: int, locales: list[str]) -> None:
        self.discord = discord
        self.seats = [Seat(discord.add_player(n, locales[n % len(locales)]), n) for n in range(players)]
        self.tally = Tally()

    def next_interaction(self, seat: Seat) -> Pending:
        custom_id = playable(seat.message) if seat.message is not None else None
        if custom_id is None:
            seat.games += 1
            seed = seat.number * 4096 + seat.games  # the same deals for every revision measured
            data = self.discord.command_data("scoundrel play", {"seed": f"{seed // 65536:04X}-{seed % 65536:04X}"})
            return self.discord.interaction_payload(seat.player, "command", data, None)
        return self.discord.interaction_payload(seat.player, "component",
                                                {"custom_id": custom_id, "component_type": 2}, seat.message)

    async def answer(self, seat: Seat, pending: Pending) -> None:
        try:
            outcome, message, text = await asyncio.wait_for(asyncio.shield(pending.answered), ANSWER_WAIT)
        except TimeoutError:
            self.tally.unanswered += 1
            self.discord.counts["unanswered"] += 1
            seat.message = None
            return
        finally:  # the token stays valid a while (Discord: 15 minutes) for the bot's follow-ups and edits
            asyncio.get_running_loop().call_later(30.0, self.discord.pending.pop, pending.token, None)
        self.tally.done += 1
        self.tally.outcomes[f"{pending.kind} → {outcome}"] += 1
        if pending.first is not None:
            self.tally.latencies.append((pending.first - pending.sent) * 1000)
        if outcome == "failed":  # answered after Discord's 3 s: the message is as it was
            return
        if outcome == "refused":
            seat.refusals += 1
            seat.notes.append(text)
            seat.message = None
        else:
            if pending.kind == "component" and outcome in ("update", "edit"):
                seat.moves += 1
            seat.message = message

    async def one(self, seat: Seat) -> None:
        pending = self.next_interaction(seat)
        await self.discord.send_interaction(pending)
        await self.answer(seat, pending)

    async def saturate(self, until: float, think: tuple[float, float] | None = None) -> None:
        async def player(seat: Seat) -> None:
            if think is not None:  # players out of step: not all of them just answered by the same burst
                await asyncio.sleep(random.uniform(0, think[1]))
            while time.perf_counter() < until and seat.refusals < 3:
                await self.one(seat)
                if think is not None:
                    await asyncio.sleep(random.uniform(*think))

        await asyncio.gather(*(player(seat) for seat in self.seats))

    async def burst(self) -> None:
        sent = []
        for seat in self.seats:  # one frame each, back to back
            pending = self.next_interaction(seat)
            await self.discord.send_interaction(pending)
            sent.append((seat, pending))
        await asyncio.gather(*(self.answer(seat, pending) for seat, pending in sent))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- one tree --------------------------------------------------------------------------------------------------

async def measure(tree: Path, name: str, args: argparse.Namespace, cpus: tuple[int | None, int | None],
                  module: str = "bot") -> dict:
    discord = FakeDiscord(FAKE_TOKEN, guilds=args.guilds, channels=args.channels)
    await discord.start()
    result: dict = {"revision": name}
    with (tempfile.TemporaryDirectory(prefix="loopback-") as tmp,
          tempfile.TemporaryDirectory(prefix="loopback-db-", dir=args.db_dir) as db_dir):
        bot = BotProcess(tree, discord, Path(tmp), cpus[0], Path(db_dir) / "bench.sqlite3", args.stop_wait, module)
        try:
            await wait_ready(discord, bot)
            load = Load(discord, args.players, args.locales.split(","))
            print(f"[{name}] bot pid {bot.pid} ready; {args.players} players start their games", flush=True)
            await load.saturate(time.perf_counter() + args.warmup)  # every player has a game; caches warm
            result.update(await saturated(load, bot, args.seconds, args.round))
            print(f"[{name}] saturated: {result['rate']:.0f}/s, {result['cpu_ms']:.2f} ms CPU each", flush=True)
            result.update(await bursts(load, bot, args.bursts))
            if args.paced > 0:
                result.update(await paced(load, bot, args.paced))
            result["rss"], result["peak_rss"] = bot.memory()
            if args.profile:
                result["profile"] = await profiled(load, bot, args)
        finally:
            code = await bot.stop()
            await discord.close()
        result["exit"] = f"killed: still running {args.stop_wait:.0f} s after SIGTERM" if bot.stuck else code
        result["problems"] = bot.problems()
        result["optional"] = next((line.rsplit(": ", 1)[1] for line in bot.log_path.read_text().splitlines()
                                   if line.startswith("loopback_bot: ")), "?")
        result["counts"] = dict(discord.counts)
        result["refusals"] = dict(discord.refusals)
        result["unknown_routes"] = dict(discord.unknown_routes)
        if args.keep_log:
            shutil.copy(bot.log_path, args.keep_log)
    return result


async def wait_ready(discord: FakeDiscord, bot: BotProcess, within: float = 120.0) -> None:
    deadline = time.perf_counter() + within
    while not (discord.ready.is_set() and discord.commands):
        if bot.proc.poll() is not None or time.perf_counter() > deadline:
            tail = bot.log_path.read_text(errors="replace")[-3000:]
            raise SystemExit(f"the bot did not come up (exit {bot.proc.poll()}):\n{tail}")
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)  # READY's GUILD_CREATEs parsed, on_ready run


async def saturated(load: Load, bot: BotProcess, seconds: float, round_seconds: float) -> dict:
    load.tally = Tally()
    rounds: list[tuple[int, float, float, float]] = []  # interactions, wall, bot cpu, generator cpu
    await asyncio.sleep(0.6)  # the collector's figures are written twice a second
    collected, counted = bot.collector(), load.tally.done
    end = time.perf_counter() + seconds

    async def sample() -> None:
        while time.perf_counter() < end - round_seconds / 2:
            done, wall, cpu, mine = load.tally.done, time.perf_counter(), bot.cpu(), time.process_time()
            await asyncio.sleep(min(round_seconds, max(0.0, end - time.perf_counter())))
            rounds.append((load.tally.done - done, time.perf_counter() - wall, bot.cpu() - cpu,
                           time.process_time() - mine))

    await asyncio.gather(load.saturate(end), sample())
    await asyncio.sleep(0.6)
    n = max(1, load.tally.done - counted)
    gc = [after - before for before, after in zip(collected, bot.collector(), strict=True)]
    rates = [n / wall for n, wall, _, _ in rounds if n]
    return {"rate": statistics.median(rates), "cpu_ms": statistics.median(c / n * 1000 for n, _, c, _ in rounds if n),
            "bot_busy": statistics.median(c / wall for _, wall, c, _ in rounds),
            "generator_busy": statistics.median(g / wall for _, wall, _, g in rounds),
            "sat_p50": percentile(load.tally.latencies, 0.5), "sat_p99": percentile(load.tally.latencies, 0.99),
            "sat_outcomes": dict(load.tally.outcomes), "sat_unanswered": load.tally.unanswered,
            "rounds": [(n, round(wall, 2), round(c, 2)) for n, wall, c, _ in rounds],
            "gc_ms": sum(gc[:3]) / n * 1000, "gc_text": ", ".join(
                f"gen{g} {gc[g] / n * 1000:.2f} ms ({gc[3 + g] / n * 1000:.1f} runs per 1000, "
                f"{gc[g] / max(1, gc[3 + g]) * 1000:.1f} ms each)" for g in range(3))}


async def bursts(load: Load, bot: BotProcess, count: int) -> dict:
    p50s, p99s, cpu, walls = [], [], [], []
    outcomes: collections.Counter = collections.Counter()
    for n in range(count):
        if n:
            await asyncio.sleep(1.0)  # a pause between bursts
        load.tally = Tally()
        before, wall = bot.cpu(), time.perf_counter()
        await load.burst()
        walls.append(time.perf_counter() - wall)
        cpu.append((bot.cpu() - before) / max(1, load.tally.done) * 1000)
        p50s.append(percentile(load.tally.latencies, 0.5))
        p99s.append(percentile(load.tally.latencies, 0.99))
        outcomes += load.tally.outcomes
    if not count:
        return {}
    return {"burst_p50": statistics.median(p50s), "burst_p99": statistics.median(p99s),
            "burst_all_answered": statistics.median(walls) * 1000, "burst_cpu_ms": statistics.median(cpu),
            "burst_outcomes": dict(outcomes)}


async def paced(load: Load, bot: BotProcess, seconds: float) -> dict:
    load.tally = Tally()
    await load.saturate(time.perf_counter() + 2.0, think=(0.5, 1.5))  # settle into the pace
    load.tally = Tally()
    before, wall = bot.cpu(), time.perf_counter()
    await load.saturate(time.perf_counter() + seconds, think=(0.5, 1.5))
    cpu, wall = bot.cpu() - before, time.perf_counter() - wall
    return {"paced_rate": load.tally.done / wall, "paced_cpu_ms": cpu / max(1, load.tally.done) * 1000,
            "paced_busy": cpu / wall, "paced_p50": percentile(load.tally.latencies, 0.5),
            "paced_p99": percentile(load.tally.latencies, 0.99)}


# --- py-spy ----------------------------------------------------------------------------------------------------

async def profiled(load: Load, bot: BotProcess, args: argparse.Namespace) -> dict:
    beside = Path(sys.executable).with_name("py-spy")
    spy = str(beside) if beside.exists() else "py-spy"
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "spy.txt"
        errors = (Path(tmp) / "spy.err").open("wb")
        proc = await asyncio.create_subprocess_exec(
            spy, "record", "--pid", str(bot.pid), "--format", "raw", "--rate", str(args.spy_rate), "--nonblocking",
            "--threads", "-o", str(raw), stdout=subprocess.DEVNULL, stderr=errors)
        threads = bot.thread_cpu()
        await asyncio.sleep(1.0)  # py-spy attaches
        load.tally = Tally()
        before, wall = bot.cpu(), time.perf_counter()
        await load.saturate(time.perf_counter() + args.profile_seconds)
        cpu, wall = bot.cpu() - before, time.perf_counter() - wall
        with contextlib.suppress(ProcessLookupError):  # py-spy may have ended already (then it says why)
            proc.send_signal(signal.SIGINT)
        await asyncio.wait_for(proc.wait(), 60)
        errors.close()
        if not raw.exists():
            print(f"py-spy failed (exit {proc.returncode}): {(Path(tmp) / 'spy.err').read_text()[-1500:]}")
        after = bot.thread_cpu()
        if args.spy_out and raw.exists():
            shutil.copy(raw, args.spy_out)
        stacks = read_stacks(raw) if raw.exists() else []
    return {"interactions": load.tally.done, "cpu_ms": cpu / max(1, load.tally.done) * 1000, "wall": wall,
            "stacks": stacks, "thread_cpu": {tid: after[tid] - threads.get(tid, 0.0) for tid in after}}


def read_stacks(raw: Path) -> list[tuple[list[str], int]]:
    """py-spy's raw lines (``frame;frame;... count``, outermost first) as (frames, samples)."""
    stacks = []
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            stacks.append((stack.split(";"), int(count)))
    return stacks


GROUPS = (  # (group, path fragments), the first that matches a frame's file names its group
    ("discord.py gateway + parsing", ("discord/gateway.py", "discord/state.py", "discord/utils.py")),
    ("discord.py http + webhook", ("discord/http.py", "discord/webhook/")),
    ("discord.py models + ui + app_commands", ("discord/",)),
    ("aiohttp client (+yarl, multidict)", ("aiohttp/", "yarl/", "multidict/", "propcache/", "aiohappyeyeballs/")),
    ("json", ("json/",)),
    ("PIL / isal (pictures)", ("PIL/", "isal/")),
    ("aiosqlite / sqlite3", ("aiosqlite/", "sqlite3/")),
    ("games.picture", ("games/picture/",)),
    ("games.engine / i18n / games", ("games/engine/", "games/i18n/", "games/duel/", "games/solver/", "babel/")),
    ("bot (process)", ("bot/",)),
    ("app (application)", ("app/",)),
    ("cogs", ("cogs/",)),
    ("storage", ("storage/",)),
    ("asyncio", ("asyncio/", "selectors.py")),
    ("logging", ("logging/",)),
)


def frame_place(frame: str) -> tuple[str, str]:
    """(file relative to its package root, function) of a py-spy frame ``function (path:line)``."""
    function, _, rest = frame.partition(" (")
    path = rest.rsplit(":", 1)[0]
    for marker in ("site-packages/", "/lib/python3.11/"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    else:
        parts = path.split("/")
        for root in ("bot", "cogs", "terminal", "app", "storage", "games"):
            if root in parts:
                path = "/".join(parts[len(parts) - 1 - parts[::-1].index(root):])
                break
    return path, function


def group_of(path: str) -> str:
    for group, fragments in GROUPS:
        if any(path.startswith(f) or f"/{f}" in path for f in fragments):
            return group
    return "other (stdlib, ...)"


# Innermost frames of a thread waiting, not working (py-spy still reports some of those samples as active): the
# event loop's select, aiosqlite's queue, a thread pool's queue, a condition (the answer deadlines' clock).
IDLE = ("EpollSelector.select (selectors.py", "_connection_worker_thread (aiosqlite/core.py:59)",
        "_worker (concurrent/futures/thread.py", "Condition.wait (threading.py")
# Outer frames every sample of a thread shares (the entry point, the loop, a thread's start): not listed as
# cumulative entries, the stack is read from the frame below the last of them.
ROOTS = ("Handle._run (asyncio/events.py", "Thread.run (threading.py")


def summarise(stacks: list[tuple[list[str], int]], top: int, thread_cpu: dict[int, float] | None = None) -> dict:
    """Where the CPU went: the top functions by self and by cumulative time, the module groups by self time, and
    the CPU by thread, all in CPU seconds.

    Each working sample of a thread counts as that thread's CPU time (its /proc stat over the same window) divided
    by its working samples: py-spy also reports some threads that wait for the GIL or for the one core as working,
    so raw sample counts would credit a thread with more than it used (without ``thread_cpu``, a sample is 1)."""
    working: collections.Counter = collections.Counter()
    kept: list[tuple[int, str, list[str], int]] = []
    idle = 0
    for frames, count in stacks:
        head = frames[0] if frames and frames[0].startswith("thread (") else ""
        tid = int(head[8:head.index(")")], 0) if head else 0
        frames = [f for f in frames if " (" in f and not f.startswith(("thread (", "process "))]
        if not frames:
            continue
        if frames[-1].startswith(IDLE):
            idle += count
            continue
        working[tid] += count
        kept.append((tid, head.partition("): ")[2] or "?", frames, count))
    weight = {tid: (thread_cpu.get(tid, 0.0) / n if thread_cpu is not None else float(n and 1)) for tid, n in
              working.items()}
    own: collections.Counter = collections.Counter()
    cumulative: collections.Counter = collections.Counter()
    groups: collections.Counter = collections.Counter()
    threads: collections.Counter = collections.Counter()
    for tid, name, frames, count in kept:
        spent = weight[tid] * count
        path, function = frame_place(frames[-1])
        own[(group_of(path), f"{path}:{function}")] += spent
        groups[group_of(path)] += spent
        threads[_thread_kind(name)] += spent
        start = max((i + 1 for i, f in enumerate(frames) if f.startswith(ROOTS)), default=0)
        for place in {frame_place(f) for f in frames[start:]}:
            cumulative[(group_of(place[0]), f"{place[0]}:{place[1]}")] += spent
    unsampled = sum(cpu for tid, cpu in (thread_cpu or {}).items() if tid not in working)
    return {"total": sum(groups.values()), "samples": sum(working.values()), "idle": idle, "unsampled": unsampled,
            "own": own.most_common(top), "cumulative": cumulative.most_common(top), "groups": groups.most_common(),
            "threads": threads.most_common()}


def _thread_kind(name: str) -> str:
    if name == "MainThread":
        return "event loop"
    if "_connection_worker_thread" in name:
        return "aiosqlite"
    return name.split(" (")[0] if "(" in name else name


def print_profile(name: str, profile: dict, top: int) -> None:
    found = summarise(profile["stacks"], top, profile.get("thread_cpu"))
    total, n = found["total"], profile["interactions"]
    print(f"\n--- py-spy on the bot ({name}): {found['samples']} working samples ({found['idle']} waiting left out) "
          f"over {n} interactions, {profile['cpu_ms']:.2f} ms CPU each while sampled; each thread's samples weighed "
          f"by its own CPU time; {found['unsampled'] / max(1, n) * 1000:.2f} ms per interaction in threads "
          f"never sampled")
    if not total:
        print("    no samples (py-spy could not attach?)")
        return

    def line(spent: float, text: str) -> str:
        return f"    {spent / total:6.1%}  {spent / n * 1000:5.2f} ms  {text}"

    print("  by thread: " + ", ".join(f"{kind} {spent / n * 1000:.2f} ms" for kind, spent in found["threads"]))
    print("  by module group (self time; ms of CPU per interaction):")
    for group, spent in found["groups"]:
        print(line(spent, group))
    print(f"  top {top} functions by self time:")
    for (group, place), spent in found["own"]:
        print(line(spent, f"{place}   [{group}]"))
    print(f"  top {top} functions by cumulative time (the function and what it called; below the loop's callback):")
    for (group, place), spent in found["cumulative"]:
        print(line(spent, f"{place}   [{group}]"))


# --- the report ------------------------------------------------------------------------------------------------

def print_result(result: dict, args: argparse.Namespace) -> None:
    name = result["revision"]
    counts = result["counts"]
    print(f"\n=== {name}  (optional modules the bot may use: {result['optional']})")
    print(f"  saturated rounds (interactions, s, bot CPU s): {result.get('rounds')}")
    print(f"  bot core busy {result.get('bot_busy', 0):.0%} while saturated; generator process "
          f"{result.get('generator_busy', 0):.0%} of its core")
    if result.get("generator_busy", 0) > 0.85:
        print("  WARNING: the generator was near a full core: the rate may be the generator's limit, not the bot's")
    print(f"  saturated outcomes: {result.get('sat_outcomes')}; the cyclic garbage collector took "
          f"{result.get('gc_ms', float('nan')):.2f} ms per interaction (included in the CPU figure): "
          f"{result.get('gc_text')}")
    print(f"  burst outcomes: {result.get('burst_outcomes')}; all of a burst answered in "
          f"{result.get('burst_all_answered', float('nan')):.0f} ms (median); bot CPU "
          f"{result.get('burst_cpu_ms', 0):.2f} ms per interaction in bursts")
    if "paced_rate" in result:
        print(f"  paced: {result['paced_rate']:.0f}/s, {result['paced_cpu_ms']:.2f} ms CPU each, bot core "
              f"{result['paced_busy']:.0%} busy, first answer p50 {result['paced_p50']:.1f} ms "
              f"p99 {result['paced_p99']:.1f} ms")
    print("  requests the loopback Discord saw:")
    for key, value in sorted(counts.items()):
        print(f"    {value:8d}  {key}")
    bad = (result["refusals"] or result["unknown_routes"] or result["problems"] or counts.get("unanswered")
           or any(("unexpected" in k or "second callback" in k or "unknown interaction" in k or "after 3 s" in k)
                  and v for k, v in counts.items()))
    print(f"  refusals: {sum(result['refusals'].values())} {result['refusals'] or ''}")
    print(f"  unknown routes: {result['unknown_routes'] or 'none'}; unanswered: {counts.get('unanswered', 0)}; "
          f"bot log errors: {len(result['problems'])}; bot exit status {result['exit']}")
    for line in result["problems"][:10]:
        print(f"    | {line[:200]}")
    if bad:
        print("  WARNING: refusals, errors or unknown routes: these figures do not measure normal clicks")


def print_table(results: list[dict], pinned: str) -> None:
    print(f"\n{pinned}; load average over the last minute: {os.getloadavg()[0]:.2f}")
    head = (f"{'revision':<18}{'inter/s':>8}{'core':>6}{'1000/CPU':>9}{'CPU ms':>8}{'paced':>7}{'sat p50/p99':>15}"
            f"{'burst p50/p99':>15}{'paced p50/p99':>15}{'RSS':>6}{'ok':>7}{'bad':>5}")
    print(head)
    print("-" * len(head))
    nan = float("nan")
    for r in results:
        ok = sum(v for k, v in (r.get("sat_outcomes") or {}).items() if not k.endswith("refused"))
        bad = sum(r["refusals"].values()) + sum(r["unknown_routes"].values()) + len(r["problems"]) + sum(
            v for k, v in r["counts"].items() if k == "unanswered" or "after 3 s" in k or "unexpected" in k)
        print(f"{r['revision']:<18}{r['rate']:>8.0f}{r['bot_busy']:>6.0%}{1000 / r['cpu_ms']:>9.0f}{r['cpu_ms']:>8.2f}"
              f"{r.get('paced_cpu_ms', nan):>7.2f}{r['sat_p50']:>8.0f}/{r['sat_p99']:<6.0f}"
              f"{r.get('burst_p50', nan):>8.0f}/{r.get('burst_p99', nan):<6.0f}"
              f"{r.get('paced_p50', nan):>8.0f}/{r.get('paced_p99', nan):<6.0f}{r['rss']:>6.0f}{ok:>7d}{bad:>5d}")
    print("inter/s: saturated rate (median of rounds); core: the bot's CPU use while saturated (below 100%: it shared "
          "its core);\n1000/CPU: interactions one core could answer at this CPU per interaction; CPU ms: bot CPU per "
          "interaction, saturated\n(median of rounds); paced: the same at a human pace; p50/p99: first answer, ms; "
          "RSS MiB; ok: saturated answers; bad: refusals,\nunknown routes, bot log errors, unanswered (any: the run "
          "is wrong)")
    print("goals (issue 24): CPU per click ≤ 1.5 ms median, ≥ 600 interactions/s on one core, "
          "p99 first answer ≤ 300 ms with 200 players clicking at once (burst)")


def export_tree(revision: str, into: Path) -> Path:
    """``git archive`` of ``revision`` in ``into``, with this checkout's compiled solver beside its sources (they
    are used only if their build records match that revision's sources; games/solver/native.py checks)."""
    tree = into / revision
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    solver = next(tree / p / "solver" for p in ("games", "bot") if (tree / p / "solver").is_dir())  # before the move
    for built in (ROOT / "games" / "solver").glob("*.so*"):
        shutil.copy(built, solver / built.name)
    return tree


def _named(revision: str) -> str:
    """``revision`` with the commit it names now, when it is not a commit's short hash already (a branch)."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", revision], capture_output=True,
                            text=True).stdout.strip()
    return revision if not commit or commit.startswith(revision) else f"{revision}@{commit}"


def choose_cpus(no_pin: bool) -> tuple[tuple[int | None, int | None], str]:
    available = sorted(os.sched_getaffinity(0))
    if no_pin or len(available) < 2:
        return (None, None), f"not pinned ({len(available)} CPUs available to this process)"
    return (available[0], available[1]), (f"bot pinned to CPU {available[0]}, loopback Discord + players to CPU "
                                          f"{available[1]} (the machine has {os.cpu_count()} CPUs)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0, help="saturated phase length (s)")
    parser.add_argument("--round", type=float, default=4.0, help="saturated rounds (s): medians are over these")
    parser.add_argument("--warmup", type=float, default=5.0, help="saturated warm-up before measuring (s)")
    parser.add_argument("--bursts", type=int, default=5, help="burst rounds")
    parser.add_argument("--paced", type=float, default=15.0, help="paced phase length (s); 0: none")
    parser.add_argument("--guilds", type=int, default=2)
    parser.add_argument("--channels", type=int, default=10, help="text channels per guild")
    parser.add_argument("--locales", default="en-US", help="the players' Discord locales, comma-separated, in turn")
    parser.add_argument("--profile", action="store_true", help="py-spy the bot during one more saturated stretch")
    parser.add_argument("--profile-seconds", type=float, default=15.0)
    parser.add_argument("--spy-rate", type=int, default=250, help="py-spy samples per second")
    parser.add_argument("--spy-out", help="keep py-spy's raw stacks in this file")
    parser.add_argument("--top", type=int, default=25, help="functions listed in the profile")
    parser.add_argument("--revision", action="append", default=[],
                        help="first run this git revision's bot the same way (repeatable)")
    parser.add_argument("--floor", action="store_true",
                        help="first run benchmarks/loopback_floor.py the same way: discord.py answering with no game, "
                             "database or drawing (the floor under the CPU per click)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the bot and the generator to cores")
    parser.add_argument("--db-dir", help="make the SQLite file in this folder (default: the temporary folder; "
                                           "/dev/shm leaves the disk's fsync out)")
    parser.add_argument("--keep-log", help="copy the (last) bot's log here")
    parser.add_argument("--json", help="write the results (without profiles) as JSON here")
    parser.add_argument("--stop-wait", type=float, default=12.0, help="seconds the bot gets to exit after SIGTERM")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    cpus, pinned = choose_cpus(args.no_pin)
    print(pinned, flush=True)
    if cpus[1] is not None:
        os.sched_setaffinity(0, {cpus[1]})
    results = []
    with tempfile.TemporaryDirectory(prefix="loopback-trees-") as tmp:
        runs = [(_named(revision), export_tree(revision, Path(tmp)), "bot") for revision in args.revision]
        if args.floor:
            runs.insert(0, ("floor (discord.py)", ROOT, str(FLOOR)))
        for name, tree, module in (*runs, ("this checkout", ROOT, "bot")):
            result = asyncio.run(measure(tree, name, args, cpus, module))
            print_result(result, args)
            if "profile" in result:
                print_profile(name, result["profile"], args.top)
            results.append(result)
    print_table(results, pinned)
    if args.json:
        with open(args.json, "w") as out:
            json.dump([{k: v for k, v in r.items() if k != "profile"} for r in results], out, indent=1)
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        raise SystemExit(main(sys.argv[1:]))
