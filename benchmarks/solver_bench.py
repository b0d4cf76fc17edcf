"""Solver speed on a fixed set of random deals: median and maximum solve time, states visited, fraction winnable.

    .venv/bin/python benchmarks/solver_bench.py                # 40 classic 44-card deals
    .venv/bin/python benchmarks/solver_bench.py --deals 10 --preset lenient
    .venv/bin/python benchmarks/solver_bench.py --agree 300    # also: agreement with brute force, 12-16 cards
    .venv/bin/python benchmarks/solver_bench.py --health 8     # par at another starting health
    .venv/bin/python benchmarks/solver_bench.py --low-health   # par at health 1, 5, 8, 12 on every deal
    .venv/bin/python benchmarks/solver_bench.py --deals 0 --review 10 --hint 10   # review and hint times
    .venv/bin/python benchmarks/solver_bench.py --pure         # the .py modules even where a compiled build is

The summary says which solver modules ran compiled (Cython, built by ``pip install -e .``) and which as Python.

The deals are fixed (seed i is derived from the text ``solver-bench/i``), so runs compare like with like.
Run it alone: the figures are wall-clock times on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if "--pure" in sys.argv[1:]:  # read by games.solver as it is imported, just below
    os.environ["SCOUNDREL_PURE_SOLVER"] = "1"

from games.engine import PRESETS, deal, replay, seed_to_text  # noqa: E402
from games.engine.seeds import seed_from_bytes  # noqa: E402
from games.solver import native, solve  # noqa: E402


def bench_seeds(count: int, first: int = 0) -> list[int]:
    return [seed_from_bytes(f"solver-bench/{i}".encode()) for i in range(first, first + count)]


def run_deals(preset_name: str, count: int, first: int = 0, health: int | None = None) -> None:
    rules = PRESETS[preset_name]
    if health is not None:
        rules = rules.with_health(health)
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
    print(f"preset={preset_name} health={rules.start_health} deals={count} (from deal {first}) "
          f"solver={native.describe()}")
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


def strayed_line(rules, deck, rng, stray: float):
    """A finished line that mostly plays the best move and strays at random ``stray`` of the time."""
    from games.engine import apply, legal_actions, new_game
    from games.solver.position import Position

    position, state, line = Position(rules, deck), new_game(rules, deck=deck), []
    while not state.over:
        action = rng.choice(legal_actions(state)) if rng.random() < stray else position.best_action(state)[0]
        line.append(action)
        state = apply(state, action)
    return line


def run_coach(preset_name: str, reviews: int, hints: int) -> None:
    """Review of finished 44-card games (the perfect line and a line that strays 5 % of the time), and hints at
    random positions of those games: each timed from a fresh start, as the worker's first hint in a game; then the
    hint after following it, from the same position (the worker keeps the last few deals' positions); and the hint
    on a game's first move, from a fresh start."""
    from games.engine import apply, new_game
    from games.solver.position import Position
    from games.solver.review import review

    rules = PRESETS[preset_name]
    rng = random.Random("solver-bench-coach")
    times: dict[str, list[float]] = {"review (perfect line)": [], "review (strays 5 %)": [], "hint": [],
                                     "hint, the game's next one": [], "hint on the first move (a whole par)": []}
    for i, seed in enumerate(bench_seeds(max(reviews, hints))):
        deck = deal(rules, seed)
        lines = {"review (perfect line)": solve(rules, deck).actions,
                 "review (strays 5 %)": strayed_line(rules, deck, rng, 0.05)}
        if i < reviews:
            for name, line in lines.items():
                started = time.perf_counter()
                result = review(rules, deck, line)
                times[name].append(time.perf_counter() - started)
                print(f"deal {i:3d} {seed_to_text(seed)}  {name}: {times[name][-1]:6.2f} s  {result.machine_line()}",
                      flush=True)
        if i < hints:
            line = lines["review (strays 5 %)"]
            state = new_game(rules, deck=deck)
            for action in line[: rng.randrange(len(line))]:
                state = apply(state, action)
            started = time.perf_counter()
            position = Position(rules, deck)
            action = position.best_action(state)[0]
            times["hint"].append(time.perf_counter() - started)
            print(f"deal {i:3d} {seed_to_text(seed)}  hint after {len(state.history)} moves: "
                  f"{times['hint'][-1]:6.2f} s", flush=True)
            # The player follows it and asks again: the worker keeps the deal's position (app.coach.advice), so the
            # next hint reuses its table.
            state = apply(state, action)
            if not state.over:
                started = time.perf_counter()
                position.best_action(state)
                times["hint, the game's next one"].append(time.perf_counter() - started)
            # The first move's hint solves the whole deal: it costs what par does.
            started = time.perf_counter()
            Position(rules, deck).best_action(new_game(rules, deck=deck))
            times["hint on the first move (a whole par)"].append(time.perf_counter() - started)
    for name, found in times.items():
        if found:
            goal = 0.5 if name.startswith("hint") else 3.0  # the goals: a hint within 0.5 s, a whole review within 3 s
            print(f"{name}: median {statistics.median(found):.2f} s, max {max(found):.2f} s over {len(found)}, "
                  f"{sum(t > goal for t in found)} over {goal} s (solver {native.describe()})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--first", type=int, default=0, help="index of the first deal (other fixed deals)")
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--agree", type=int, default=0, help="also check this many small deals against brute force")
    parser.add_argument("--health", type=int, help="starting (and maximum) health instead of the preset's")
    parser.add_argument("--low-health", action="store_true", help="par at starting health 1, 5, 8 and 12")
    parser.add_argument("--review", type=int, default=0, help="time reviews of finished games on this many deals")
    parser.add_argument("--hint", type=int, default=0, help="time hints at a random position on this many deals")
    parser.add_argument("--pure", action="store_true",
                        help="run the solver's .py modules even where they are compiled (to compare the two)")
    args = parser.parse_args()
    print(f"solver: {native.describe()}" + (f" ({native.why_pure()})" if native.why_pure() else ""), flush=True)
    if args.deals:
        for health in (1, 5, 8, 12) if args.low_health else (args.health,):
            run_deals(args.preset, args.deals, args.first, health)
    if args.review or args.hint:
        run_coach(args.preset, args.review, args.hint)
    if args.agree:
        run_agreement(args.agree)
    return 0


if __name__ == "__main__":
    sys.exit(main())
