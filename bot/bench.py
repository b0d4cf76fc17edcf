"""``python -m bot bench``: engine speed, as full random games per second.

Each game is dealt from its own seed and played to the end by picking uniformly among
``legal_actions`` (avoid included), so the figure covers dealing, move generation and
``apply``. Several rounds are run and the median is printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from .cli import prog
from .engine import PLAYING, PRESETS, apply, legal_actions, new_game


def play_random_games(rules, games: int, first_seed: int) -> int:
    """Play ``games`` full games; return the number of actions applied."""
    pick = random.Random(first_seed).randrange
    actions = 0
    for seed in range(first_seed, first_seed + games):
        s = new_game(rules, seed=seed)
        while s.status == PLAYING:
            options = legal_actions(s)
            s = apply(s, options[pick(len(options))])
            actions += 1
    return actions


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=prog("bench"), description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="games per round (default 5000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the median is reported (default 5)")
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    args = parser.parse_args(argv)
    rules = PRESETS[args.preset]
    rates, action_rates, per_game = [], [], []
    for r in range(args.rounds):
        start = time.perf_counter()
        actions = play_random_games(rules, args.games, first_seed=r * args.games)
        elapsed = time.perf_counter() - start
        rates.append(args.games / elapsed)
        action_rates.append(actions / elapsed)
        per_game.append(actions / args.games)
        print(f"round {r + 1}: {rates[-1]:,.0f} games/s, {action_rates[-1]:,.0f} actions/s")
    print(f"preset={args.preset} games/round={args.games} rounds={args.rounds} "
          f"actions/game={statistics.mean(per_game):.1f}")
    print(f"median: {statistics.median(rates):,.0f} games/s, {statistics.median(action_rates):,.0f} actions/s")
    return 0
