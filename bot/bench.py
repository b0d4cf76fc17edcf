"""``python -m bot bench``: engine speed, as random full games and actions per second.

Each game is dealt from its own seed and played to the end by picking uniformly among
``legal_actions`` (avoid included), so the figure covers dealing, move generation and
``apply``. Random play dies within a few rooms at the usual 20 health, so dealing weighs
heavily; ``--health 99`` plays long games (most clear the dungeon), which measures the cost
of an action. Several rounds are run and the medians are printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from games import engine
from games.engine import PRESETS, Rules
from games.engine.rules import MAX_HEALTH, MIN_HEALTH
from terminal.usage import prog


def play_random_games(rules: Rules, games: int, first_seed: int, engine=engine) -> int:
    """Play ``games`` full games; return the number of actions applied.

    ``engine`` is a module with ``new_game``, ``legal_actions``, ``apply`` and ``PLAYING`` (default: this
    engine), so ``benchmarks/engine_compare.py`` times the reference engine through the very same loop.
    """
    new_game, legal_actions, apply, PLAYING = engine.new_game, engine.legal_actions, engine.apply, engine.PLAYING
    draw = random.Random(first_seed).random
    actions = 0
    for seed in range(first_seed, first_seed + games):
        s = new_game(rules, seed=seed)
        while s.status == PLAYING:
            options = legal_actions(s)
            s = apply(s, options[int(draw() * len(options))])
            actions += 1
    return actions


def health(text: str) -> int:
    value = int(text)
    if not MIN_HEALTH <= value <= MAX_HEALTH:
        raise argparse.ArgumentTypeError(f"health must be from {MIN_HEALTH} to {MAX_HEALTH}")
    return value


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=prog("bench"), description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="games per round (default 5000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the median is reported (default 5)")
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--health", type=health, default=None,
                        help="starting and maximum health (1-99); 99 makes long games, so the figure is "
                             "the cost of an action rather than of dealing (default: the preset's)")
    args = parser.parse_args(argv)
    rules = PRESETS[args.preset]
    if args.health is not None:
        rules = rules.with_health(args.health)
    rates, action_rates, per_game = [], [], []
    for r in range(args.rounds):
        start = time.perf_counter()
        actions = play_random_games(rules, args.games, first_seed=r * args.games)
        elapsed = time.perf_counter() - start
        rates.append(args.games / elapsed)
        action_rates.append(actions / elapsed)
        per_game.append(actions / args.games)
        print(f"round {r + 1}: {rates[-1]:,.0f} games/s, {action_rates[-1]:,.0f} actions/s")
    print(f"preset={args.preset} health={rules.start_health}/{rules.max_health} games/round={args.games} "
          f"rounds={args.rounds} actions/game={statistics.mean(per_game):.1f}")
    print(f"median: {statistics.median(rates):,.0f} games/s, {statistics.median(action_rates):,.0f} actions/s")
    return 0
