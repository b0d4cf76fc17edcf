"""Engine speed against the frozen reference engine, measured side by side in one run.

    .venv/bin/python benchmarks/engine_compare.py                  # classic, health 99 and 20
    .venv/bin/python benchmarks/engine_compare.py --health 99 --games 2000 --rounds 7
    .venv/bin/python benchmarks/engine_compare.py --preset expansion
    .venv/bin/python benchmarks/engine_compare.py --cpu             # CPU time of this process, not wall-clock

The reference engine is ``tests/engine/reference_game.py``: the rules as they were written before
the engine was sped up (the differential test keeps both in agreement). Each round plays the same
seeded random games on both engines, alternating which goes first, through the very loop
``python -m bot bench`` uses; the medians of the rounds are printed with the ratio. Run it alone:
the figures are wall-clock rates, so a busy machine makes rounds uneven; ``--cpu`` times
the process's CPU time instead (steadier when other work shares the cores).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.bench import play_random_games  # noqa: E402
from games import engine  # noqa: E402
from games.engine import PRESETS  # noqa: E402
from tests.engine import reference_game  # noqa: E402

ENGINES = {"reference": reference_game, "current": engine}


def measure(rules, games: int, rounds: int, clock=time.perf_counter) -> dict[str, tuple[float, float, float]]:
    """Per engine: (median games/s, median actions/s, actions per game)."""
    rates = {name: ([], []) for name in ENGINES}
    per_game = {}
    for r in range(rounds):
        order = list(ENGINES) if r % 2 == 0 else list(reversed(ENGINES))
        for name in order:
            start = clock()
            actions = play_random_games(rules, games, first_seed=r * games, engine=ENGINES[name])
            elapsed = clock() - start
            rates[name][0].append(games / elapsed)
            rates[name][1].append(actions / elapsed)
            per_game[name] = per_game.get(name, 0) + actions
        print(f"  round {r + 1}: " + "; ".join(
            f"{name} {rates[name][0][-1]:,.0f} games/s {rates[name][1][-1]:,.0f} actions/s" for name in ENGINES),
            flush=True)
    if per_game["reference"] != per_game["current"]:
        raise SystemExit("the two engines played different games: they disagree on the rules")
    return {name: (statistics.median(g), statistics.median(a), per_game[name] / (games * rounds))
            for name, (g, a) in rates.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--health", type=int, action="append",
                        help="starting and maximum health; repeat for several (default: 99 and 20)")
    parser.add_argument("--games", type=int, default=2000, help="games per round and engine (default 2000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; medians are reported (default 5)")
    parser.add_argument("--cpu", action="store_true", help="time CPU time of this process instead of wall-clock")
    args = parser.parse_args(argv)
    for health in args.health or [99, 20]:
        rules = PRESETS[args.preset].with_health(health)
        print(f"preset={args.preset} health={health}/{health} games/round={args.games} rounds={args.rounds} "
              f"clock={'cpu' if args.cpu else 'wall'}")
        result = measure(rules, args.games, args.rounds, time.process_time if args.cpu else time.perf_counter)
        (ref_games, ref_actions, per_game), (games, actions, _) = result["reference"], result["current"]
        print(f"  actions/game {per_game:.1f}")
        print(f"  {'':10} {'games/s':>10} {'actions/s':>11}")
        print(f"  {'reference':10} {ref_games:>10,.0f} {ref_actions:>11,.0f}")
        print(f"  {'current':10} {games:>10,.0f} {actions:>11,.0f}")
        print(f"  {'ratio':10} {games / ref_games:>9.2f}x {actions / ref_actions:>10.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
