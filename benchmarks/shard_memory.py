"""What one shard costs: the bot's memory with 2,500 servers (Discord's most per shard), each posting its daily.

    .venv/bin/python benchmarks/shard_memory.py                       # 2,500 servers
    .venv/bin/python benchmarks/shard_memory.py --revision 1a2b3c4    # that revision first, then this checkout

The real bot (``python -m bot run``, through benchmarks/loopback_bot.py) connects to the loopback Discord of
benchmarks/loopback_discord.py, which sends it a GUILD_CREATE per server at connect: ``--channels`` text channels
in a category, ``--roles`` roles and ``--emojis`` emojis each, the bot's own member (the bot asks for no member
list). Every server has its daily post set in one of its channels, so once connected the bot runs a whole round
of 2,500 posts. Printed: the process's resident memory once every server is in its cache, and its peak (VmHWM)
once every post is made.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]

from loopback_discord import FakeDiscord  # noqa: E402
from loopback_load import FAKE_TOKEN, LAUNCHER, export_tree  # noqa: E402


class RealisticDiscord(FakeDiscord):
    """The loopback Discord, its servers with as many roles and emojis as a lived-in community server."""

    def __init__(self, *, guilds: int, channels: int, roles: int, emojis: int) -> None:
        self.extra_roles, self.extra_emojis = roles, emojis
        super().__init__(FAKE_TOKEN, guilds=guilds, channels=channels)

    def _guild(self, name: str, channels: int) -> dict:
        guild = super()._guild(name, channels)
        base = guild["roles"][0]
        guild["roles"] += [{**base, "id": self.snowflake(), "name": f"role {n}", "permissions": "0", "position": n + 2}
                           for n in range(self.extra_roles)]
        guild["emojis"] = [{"id": self.snowflake(), "name": f"emoji_{n}", "roles": [], "require_colons": True,
                            "managed": False, "animated": False, "available": True} for n in range(self.extra_emojis)]
        return guild


def memory(pid: int) -> tuple[float, float]:
    """Resident and peak resident MiB of ``pid``."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0]) / 1024
    return found.get("VmRSS", 0.0), found.get("VmHWM", 0.0)


def schedule(database: Path, tree: Path, discord: FakeDiscord) -> None:
    """Create the bot's database with that tree's own code, then give every server its daily channel."""
    code = ("import asyncio, sys; from storage import open_store\n"
            "async def main():\n    s = await open_store(sys.argv[1]); await s.close()\nasyncio.run(main())")
    subprocess.run([sys.executable, "-c", code, str(database)], cwd=tree, check=True,
                   env={**os.environ, "PYTHONPATH": str(tree)})
    rows = [(int(g["id"]), int(next(c for c in g["channels"] if c["type"] == 0)["id"]), "00:00", 0)
            for g in discord.guilds]
    with sqlite3.connect(database) as db:
        db.executemany("INSERT INTO guild_settings (guild_id, daily_channel_id, daily_time, updated_at) "
                       "VALUES (?, ?, ?, ?)", rows)


async def measure(tree: Path, label: str, args, folder: Path) -> dict:
    discord = RealisticDiscord(guilds=args.servers, channels=args.channels, roles=args.roles, emojis=args.emojis)
    await discord.start()
    database = folder / "bot.sqlite3"
    schedule(database, tree, discord)
    config = folder / "config.toml"
    config.write_text(f'[bot]\ndatabase = "{database}"\nlog_level = "WARNING"\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOUNDREL_")}
    env.update(DISCORD_TOKEN=discord.token, PYTHONPATH=str(tree), PYTHONUNBUFFERED="1")
    log = (folder / "bot.log").open("wb")
    command = [sys.executable, str(LAUNCHER), discord.base, discord.ws_url, "run", "--config", str(config)]
    proc = subprocess.Popen(command, cwd=tree, env=env, stdout=log, stderr=subprocess.STDOUT)  # noqa: ASYNC220
    started = time.perf_counter()
    try:
        while not discord.ready.is_set():
            if proc.poll() is not None or time.perf_counter() - started > 600:
                raise SystemExit((folder / "bot.log").read_text(errors="replace")[-3000:])
            await asyncio.sleep(0.1)
        connected = memory(proc.pid)[0]
        while discord.counts["channel message"] < args.servers:
            if proc.poll() is not None or time.perf_counter() - started > 1800:
                raise SystemExit((folder / "bot.log").read_text(errors="replace")[-3000:])
            await asyncio.sleep(0.5)
        posted = time.perf_counter() - started
        resident, peak = memory(proc.pid)
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
        await discord.close()
    return {"label": label, "connected": connected, "resident": resident, "peak": peak, "seconds": posted}


async def main(args) -> None:
    with tempfile.TemporaryDirectory(prefix="shard-memory-") as tmp:
        trees = [(f"at {args.revision}", export_tree(args.revision, Path(tmp)))] if args.revision else []
        trees.append(("this checkout", ROOT))
        print(f"{args.servers} servers on one shard ({args.channels} channels, {args.roles + 2} roles, "
              f"{args.emojis} emojis each), every one posting its daily")
        for n, (label, tree) in enumerate(trees):
            folder = Path(tmp) / f"run{n}"
            folder.mkdir()
            r = await measure(tree, label, args, folder)
            print(f"  {label}: {r['connected']:.0f} MiB connected, {r['resident']:.0f} MiB after the round "
                  f"(peak {r['peak']:.0f} MiB), every post made {r['seconds']:.0f} s after start")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--servers", type=int, default=2500)
    parser.add_argument("--channels", type=int, default=20)
    parser.add_argument("--roles", type=int, default=15)
    parser.add_argument("--emojis", type=int, default=30)
    parser.add_argument("--revision")
    asyncio.run(main(parser.parse_args()))
