"""``scoundrel-bot replay``: a game's replay written as an animated GIF, the same file the bot posts.

    scoundrel-bot replay --seed K7Q2-M9XD --moves "4 2w a 1b ..." --out game.gif
    scoundrel-bot replay --seed K7Q2-M9XD --moves "..." --par --out game.gif   # then par's line of the deal
    scoundrel-bot replay --seed K7Q2-M9XD --par --out best.gif                 # par's line alone
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from games.engine import (
    PRESETS,
    Action,
    ActionParseError,
    CardParseError,
    IllegalAction,
    RulesError,
    SeedError,
    deal,
    parse_deck,
    seed_to_text,
)
from games.i18n import SHIPPED, messages_for
from games.picture import render_replay
from games.solver import SolverRefused, refusal, solve
from terminal.play import parse_seed
from terminal.review import NOTATION, read_moves
from terminal.usage import SEED_HELP, prog


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=prog("replay"), description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--seed", help=SEED_HELP)
    source.add_argument("--deck", help='an explicit order, top card first: "S14 H5 D10 ..." (suit C/S/D/H, value)')
    parser.add_argument("--moves", default="", help=f"the moves played: {NOTATION}")
    parser.add_argument("--par", action="store_true", help="also (or, without --moves, only) par's optimal line")
    parser.add_argument("--given-up", action="store_true", help="the moves end where the game was given up")
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--health", type=int, help="starting (and maximum) health instead of the preset's")
    parser.add_argument("--locale", choices=SHIPPED, help="the picture's words in this language (default English)")
    parser.add_argument("--out", required=True, type=Path, help="the GIF to write")
    args = parser.parse_args(argv)
    if not args.moves and not args.par:
        parser.error("give --moves, --par or both")
    try:
        rules = PRESETS[args.preset]
        if args.health is not None:
            rules = rules.with_health(args.health)
        seed = parse_seed(args.seed) if args.seed is not None else None
        deck = deal(rules, seed) if seed is not None else parse_deck(args.deck, rules.full_deck())
        moves: tuple[Action, ...] = read_moves(rules, deck, args.moves) if args.moves else ()
        best: tuple[Action, ...] | None = None
        if args.par:
            reason = refusal(rules)
            if reason:
                raise SolverRefused(reason)
            best = solve(rules, deck).actions
        if not moves and best is not None:  # par's line alone
            moves, best = best, None
        started = time.perf_counter()
        tr = messages_for(args.locale)
        title = None if seed is None else tr("Seed {seed}", seed=seed_to_text(seed)) + f" · {args.preset}"
        gif = render_replay(rules, deck, moves, seed=seed, par=best, abandoned=args.given_up, title=title, tr=tr)
        elapsed = time.perf_counter() - started
    except (SeedError, CardParseError, RulesError, SolverRefused, ActionParseError, IllegalAction,
            ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        args.out.write_bytes(gif)
    except OSError as exc:
        print(f"error: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 1
    shown = len(moves) + (len(best) if best is not None else 0)
    print(f"Wrote {args.out} ({len(gif):,} bytes, {shown} moves) in {elapsed * 1000:.0f} ms.")
    return 0
