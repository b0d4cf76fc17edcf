"""Table picture speed and size: ``render_room`` over real game states of every preset.

    .venv/bin/python benchmarks/picture_bench.py                  # 3,500 states: 500 of each preset
    .venv/bin/python benchmarks/picture_bench.py --states 7000 --preset expansion
    .venv/bin/python benchmarks/picture_bench.py --locale de     # the picture's words in German
    .venv/bin/python benchmarks/picture_bench.py --revision d6c6a06   # that revision's renderer, then this one

States come from games played to the end with random legal moves (seeded, so every run times the same states);
every state of a game is kept, from the deal to the last move, so early rooms, fanned kills, expansion phases and
game-over banners are all in the mix. Each picture is rendered once, timed alone (one core: the bot renders in a
worker thread while the event loop goes on). Printed per preset and overall: median, p99 and max milliseconds,
the same for the CPU time of the rendering thread (which waiting for a busy machine's cores does not inflate), and
the median and largest PNG in bytes. Card faces are cached after their first drawing, as in the bot; the
first render of each state is the timed one (no picture cache).

With ``--revision`` the same states are rendered first by that git revision's code (``git archive`` into a
temporary directory, its own process) and then by this checkout's, one after the other in one run.

Goals: median <= 0.6 ms, p99 <= 15 ms, median picture <= 16 KB, every picture <= 60 KB.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]) if "--tree" in sys.argv else ROOT  # whose code is timed
sys.path.insert(0, str(TREE))

from bot.engine import PRESETS, apply, legal_actions, new_game  # noqa: E402
from bot.i18n.messages import SHIPPED, messages_for  # noqa: E402
from bot.picture import render_room  # noqa: E402


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def game_states(rules, count: int, first_seed: int) -> list:
    states, seed = [], first_seed
    while len(states) < count:
        state, rng = new_game(rules, seed=seed), random.Random(seed)
        states.append(state)
        while not state.over and len(states) < count:
            state = apply(state, rng.choice(legal_actions(state)))
            states.append(state)
        seed += 1
    return states


def measure(states, tr) -> tuple[list[float], list[float], list[int]]:
    times, cpu, sizes = [], [], []
    for state in states:
        start, start_cpu = time.perf_counter(), time.thread_time()
        png = render_room(state, tr=tr)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(png))
    return times, cpu, sizes


def line(name: str, times: list[float], cpu: list[float], sizes: list[int]) -> str:
    return (f"{name:<15} states={len(times):>5}  median={statistics.median(times):5.2f} ms  "
            f"p99={percentile(times, 0.99):5.2f} ms  max={max(times):6.2f} ms  "
            f"cpu median={statistics.median(cpu):5.2f} p99={percentile(cpu, 0.99):5.2f} ms  "
            f"bytes median={int(statistics.median(sizes)):,} max={max(sizes):,}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=3500, help="states over all presets (default 3500)")
    parser.add_argument("--preset", choices=sorted(PRESETS), help="only this preset")
    parser.add_argument("--locale", choices=SHIPPED, help="the picture's words in this language (default English)")
    parser.add_argument("--revision", help="first time this git revision's renderer on the same states")
    parser.add_argument("--tree", help=argparse.SUPPRESS)  # read before the imports above
    args = parser.parse_args(argv)
    if args.revision:
        return side_by_side(args.revision, [a for a in argv if a not in ("--revision", args.revision)])
    tr = messages_for(args.locale)
    names = [args.preset] if args.preset else list(PRESETS)
    per_preset = max(1, args.states // len(names))
    render_room(new_game(PRESETS["classic"], seed=0), tr=tr)  # load the font and the catalogue before timing
    all_times, all_cpu, all_sizes = [], [], []
    for name in names:
        times, cpu, sizes = measure(game_states(PRESETS[name], per_preset, first_seed=1000), tr)
        print(line(name, times, cpu, sizes))
        all_times += times
        all_cpu += cpu
        all_sizes += sizes
    print(line("all", all_times, all_cpu, all_sizes))
    return 0


def side_by_side(revision: str, argv: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        for name, tree in ((revision, tmp), ("this checkout", str(ROOT))):
            print(f"--- {name}", flush=True)
            subprocess.run([sys.executable, __file__, *argv, "--tree", tree], check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
