"""Solver speed on a fixed set of random deals: median and maximum solve time, states visited, fraction winnable.

    .venv/bin/python benchmarks/solver_bench.py                # 40 classic 44-card deals
    .venv/bin/python benchmarks/solver_bench.py --deals 10 --preset lenient
    .venv/bin/python benchmarks/solver_bench.py --agree 300    # also: agreement with brute force, 12-16 cards

The deals are fixed (seed i is derived from the text ``solver-bench/i``), so runs compare like with like.
Run it alone: the figures are wall-clock times on a shared machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine import PRESETS, deal, replay, seed_to_text  # noqa: E402
from bot.engine.seeds import seed_from_bytes  # noqa: E402
from bot.solver import solve  # noqa: E402


def bench_seeds(count: int, first: int = 0) -> list[int]:
    return [seed_from_bytes(f"solver-bench/{i}".encode()) for i in range(first, first + count)]


def run_deals(preset_name: str, count: int, first: int = 0) -> None:
    rules = PRESETS[preset_name]
    times, states, pars = [], [], []
    for i, seed in enumerate(bench_seeds(count, first), start=first):
        deck = deal(rules, seed)
        started = time.perf_counter()
        solution = solve(rules, deck)
        elapsed = time.perf_counter() - started
        final = replay(rules, deck, solution.actions)
        assert final.score == solution.best_score, f"line of {seed_to_text(seed)} does not reach par"
        times.append(elapsed)
        states.append(solution.states)
        pars.append(solution.best_score)
        print(f"deal {i:3d} {seed_to_text(seed)}  par {solution.best_score:4d}  {elapsed:7.2f} s  "
              f"{solution.states:>10,} states", flush=True)
    winnable = sum(p > 0 for p in pars)
    print(f"preset={preset_name} deals={count} (from deal {first})")
    print(f"time: median {statistics.median(times):.2f} s, max {max(times):.2f} s, total {sum(times):.1f} s")
    print(f"states: median {statistics.median(states):,.0f}, max {max(states):,}")
    print(f"winnable: {winnable}/{count} = {winnable / count:.0%}; par median {statistics.median(pars)}, "
          f"min {min(pars)}; par 30: {sum(p == 30 for p in pars)}")


def run_agreement(count: int) -> None:
    from tests.solver.brute_force import best_score, play

    rng = random.Random("solver-bench-agreement")
    names = ["classic", "lenient", "early-win", "rules-sheet", "full-deck"]
    agree, deaths, started = 0, 0, time.perf_counter()
    for _ in range(count):
        rules = PRESETS[rng.choice(names)]
        start = rng.randint(1, 20)
        rules = rules.with_health(start, rng.choice([start, 20]))
        deck = tuple(rng.sample(rules.full_deck(), rng.randint(12, 16)))
        expected = best_score(rules, deck)
        solution = solve(rules, deck)
        reached = play(rules, deck, solution.actions).score
        if solution.best_score == expected == reached:
            agree += 1
        else:
            print(f"DISAGREE {rules.key} {' '.join(c.code for c in deck)}: brute force {expected}, "
                  f"solver {solution.best_score}, its line {reached}")
        deaths += expected <= 0
    print(f"agreement with brute force: {agree}/{count} deals of 12-16 cards ({deaths} unwinnable), "
          f"{time.perf_counter() - started:.0f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--first", type=int, default=0, help="index of the first deal (other fixed deals)")
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--agree", type=int, default=0, help="also check this many small deals against brute force")
    args = parser.parse_args()
    if args.deals:
        run_deals(args.preset, args.deals, args.first)
    if args.agree:
        run_agreement(args.agree)
    return 0


if __name__ == "__main__":
    sys.exit(main())
