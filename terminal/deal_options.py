"""The options that name a deal, the same in ``solve``, ``review`` and ``hint``: a seed or a deck, the preset and
the starting health."""

from __future__ import annotations

import argparse

from games.engine import PRESETS, Card, Rules, deal, parse_deck
from terminal.play import parse_seed
from terminal.usage import SEED_HELP


def add_deal_options(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--seed", help=SEED_HELP)
    source.add_argument("--deck", help='an explicit order, top card first: "S14 H5 D10 ..." (suit C/S/D/H, value)')
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--health", type=int, help="starting (and maximum) health instead of the preset's")


def rules_from(args: argparse.Namespace) -> Rules:
    """The preset's rules, with the starting health asked for (``RulesError`` when it is out of range)."""
    rules = PRESETS[args.preset]
    return rules if args.health is None else rules.with_health(args.health)


def deck_from(args: argparse.Namespace, rules: Rules) -> tuple[Card, ...]:
    """The deal the options name, top card first (``SeedError`` / ``CardParseError`` on a bad one)."""
    if args.seed is not None:
        return tuple(deal(rules, parse_seed(args.seed)))
    return tuple(parse_deck(args.deck, rules.full_deck()))
