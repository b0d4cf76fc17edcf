"""Replay speed and size: ``render_replay`` over 40-move games (par's line of classic deals, cut at 40 moves), and
``render_duel_replay`` over duels.

    .venv/bin/python benchmarks/replay_bench.py                # 10 deals, each replay rendered 5 times
    .venv/bin/python benchmarks/replay_bench.py --webp         # and the same frames as animated WebP (lossless)
    .venv/bin/python benchmarks/replay_bench.py --deals 20 --moves 48
    .venv/bin/python benchmarks/replay_bench.py --duels 10     # duels only: their first 40 actions, and whole

Each deal is solved first (not timed); its optimal line, cut at ``--moves``, is the game replayed. Printed: the
median and maximum milliseconds of one replay, its thread's CPU time (frames painted and the GIF written, one
core, caches warm as in the bot after its first replays), and the median and largest GIF in bytes. ``--webp``
encodes the same frames with Pillow's animated WebP, lossless (the same pixels: equal quality), at libwebp's
fastest setting, the fastest setting that is smaller than the GIF, and its default, and prints the same figures.

Duels (``--duels N``, also printed after the solo games by default): N duels played to their end by the engine
(finish a column when it can, else a random card play, else Done; 95 to 200 actions, about 165 at the median, like
a duel between people who play every card they can), each replayed cut at ``--moves`` actions and whole.

Goals: a 40-move replay <= 150 ms median and <= 300 KB.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.duel import apply, legal_actions, new_duel  # noqa: E402
from games.engine import PRESETS, deal  # noqa: E402
from games.picture.duel_replay import render_duel_replay  # noqa: E402
from games.picture.replay import render_replay, replay_frames  # noqa: E402
from games.solver import solve  # noqa: E402

WEBP_SETTINGS = {"webp fastest (method 0)": {"method": 0, "quality": 100},
                 "webp method 2, quality 0": {"method": 2, "quality": 0},
                 "webp default (method 4)": {"method": 4, "quality": 80}}


def games(count: int, moves: int) -> list[tuple]:
    rules = PRESETS["classic"]
    found = []
    for seed in range(1, count + 1):
        cards = deal(rules, seed)
        found.append((rules, cards, tuple(solve(rules, cards).actions[:moves]), seed))
    return found


def duels(count: int) -> list[tuple[int, tuple[str, ...]]]:
    """``count`` whole duels (seed, action codes), each played as the module's comment says."""
    found = []
    for seed in range(1, count + 1):
        rng, state = random.Random(seed), new_duel(seed)
        while not state.over:
            actions = legal_actions(state)
            finishes = [a for a in actions if a.kind == "F"]
            plays = [a for a in actions if a.kind != "D"]
            state = apply(state, finishes[0] if finishes else rng.choice(plays or actions))
        found.append((seed, state.history))
    return found


def timed(render, rounds: int) -> tuple[float, float, int]:
    """Median wall and thread-CPU milliseconds of ``rounds`` renders (CPU time is what a busy shared machine
    does not inflate), and the bytes."""
    times, cpu = [], []
    for _ in range(rounds):
        start, start_cpu = time.perf_counter(), time.thread_time()
        data = render()
        cpu.append((time.thread_time() - start_cpu) * 1000)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), statistics.median(cpu), len(data)


def webp(frames, settings) -> bytes:
    out = io.BytesIO()
    pictures = [frame.convert("RGB") for frame, _ in frames]
    pictures[0].save(out, "WEBP", save_all=True, append_images=pictures[1:], duration=[d for _, d in frames],
                     lossless=True, loop=0, **settings)
    return out.getvalue()


def report(name: str, results: list[tuple[float, float, int]]) -> None:
    times, cpu, sizes = ([r[i] for r in results] for i in range(3))
    print(f"{name:<52} games={len(results)}  median={statistics.median(times):6.1f} ms  max={max(times):6.1f} ms  "
          f"cpu median={statistics.median(cpu):6.1f} ms  bytes median={int(statistics.median(sizes)):,} "
          f"max={max(sizes):,}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--webp", action="store_true", help="also the same frames as animated WebP")
    parser.add_argument("--duels", type=int, help="only duels, this many (default: as many as --deals, after them)")
    args = parser.parse_args(argv)
    if args.duels is None:
        solo(args)
    report_duels(duels(args.duels or args.deals), args.moves, args.rounds)
    return 0


def report_duels(played: list[tuple[int, tuple[str, ...]]], moves: int, rounds: int) -> None:
    render_duel_replay(*played[0])  # fonts, catalogue and tiles first, as a running bot has them
    report(f"duel gif, first {moves} actions", [timed(lambda d=d: render_duel_replay(d[0], d[1][:moves]), rounds)
                                               for d in played])
    lengths = sorted(len(history) for _, history in played)
    report(f"duel gif, whole ({lengths[0]}-{lengths[-1]} actions, median {statistics.median(lengths):.0f})",
           [timed(lambda d=d: render_duel_replay(*d), rounds) for d in played])


def solo(args) -> None:
    found = games(args.deals, args.moves)
    render_replay(*found[0][:3], seed=found[0][3])  # fonts, catalogue and tiles first, as a running bot has them
    report("gif", [timed(lambda g=g: render_replay(*g[:3], seed=g[3]), args.rounds) for g in found])
    if args.webp:
        for name, settings in WEBP_SETTINGS.items():
            results = []
            for g in found:
                frames = replay_frames(*g[:3], seed=g[3])
                results.append(timed(lambda f=frames, s=settings: webp(f, s), 1))
            report(name + " (frames given)", results)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
