"""Click-to-answer latency of the game message through SimCord: the real bot, a real SQLite file.

    .venv/bin/python benchmarks/click_latency.py [--clicks 400]

One player clicks through games (the first playable card each time, a new game when one ends); each click is
timed from the click to the edited message (defer, load, play and commit, render, edit) in wall-clock time.
Prints the median and p99 in milliseconds. Run it on an idle machine and compare checkouts: the picture adds
one render (in a worker thread) and one attachment per edit.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import simcord

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot_options import owning  # noqa: E402  (benchmarks/bot_options.py, beside this script)
from click_load import playable  # noqa: E402 - the same first playable card (a sibling script)

from bot.client import ScoundrelBot  # noqa: E402
from bot.config import Config  # noqa: E402

FAKE_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.benchmark-token-not-real-00000000000"


async def run(clicks: int) -> list[float]:
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        bot = ScoundrelBot(Config(token=FAKE_TOKEN, database=Path(tmp) / "bench.sqlite3"), par_solver=None,
                           **owning(ScoundrelBot))
        env = simcord.Env(bot)
        await env.start()
        try:
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("general")
            alice = guild.add_member(env.create_user("alice"))
            seed = 0
            while len(times) < clicks:
                seed += 1
                message = (await alice.slash(channel, "scoundrel play", seed=f"0000-{seed:04X}")).response.message
                while (moves := playable(message)) and len(times) < clicks:
                    start = time.perf_counter()
                    await alice.click(message, custom_id=moves[0].custom_id)
                    times.append((time.perf_counter() - start) * 1000)
                    message = channel.last_message
        finally:
            await env.shutdown()
            await bot.close()
    return times


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=400)
    args = parser.parse_args(argv)
    times = asyncio.run(run(args.clicks))
    ordered = sorted(times)
    print(f"clicks={len(times)} median={statistics.median(times):.2f} ms "
          f"p99={ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
