"""``python -m bot hint``: the best move on what a player can see, after some moves, as the bot's Hint gives it."""

from __future__ import annotations

import argparse
import sys
import time

from games.engine import (
    ActionParseError,
    CardParseError,
    IllegalAction,
    RulesError,
    SeedError,
    apply,
    legal_actions,
    new_game,
    readable,
)
from games.solver import (
    FIRST_ORDERS,
    HINT_BUDGET,
    MAX_ORDERS,
    Coach,
    SolverRefused,
    every_order,
    hint_phrase,
    move_words,
)
from terminal.deal_options import add_deal_options, deck_from, rules_from
from terminal.play import typed_move
from terminal.review import NOTATION, read_moves
from terminal.usage import prog


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=prog("hint"), description=__doc__.splitlines()[0])
    add_deal_options(parser)
    parser.add_argument("--moves", default="", help=f"the moves played so far: {NOTATION}")
    parser.add_argument("--budget", type=int, default=HINT_BUDGET,
                        help=f"tests the orders' searches may make after the first {FIRST_ORDERS} orders, "
                             f"about a million a second (default {HINT_BUDGET}, as the bot's Hint); 0: judge orders "
                             f"until sure, up to {MAX_ORDERS}")
    args = parser.parse_args(argv)
    try:
        rules = rules_from(args)
        deck = deck_from(args, rules)
        state = new_game(rules, deck=tuple(deck))
        for action in read_moves(rules, deck, args.moves):
            state = apply(state, action)
        if state.over:
            raise ValueError(f"the game is over after these moves (score {state.score}): there is no move to hint")
        started = time.perf_counter()
        # Every move's figures where the orders are few; sampled, the moves shown worse are only bounded.
        advice = Coach(rules).advise(state, judge=legal_actions(state) if every_order(state) else (),
                                     budget=args.budget or None)
        elapsed = time.perf_counter() - started
    except (SeedError, CardParseError, RulesError, SolverRefused, ActionParseError, IllegalAction,
            ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    room = " ".join(card.label if card is not None else "·" for card in state.room)
    print(readable(f"Room {state.turn}: {room}; health {state.health}."))  # cards as the bot and the game write them
    if advice.exact:
        print(f"Judged on what a player sees: every one of the {advice.orders} orders of the unseen cards solved "
              f"({elapsed:.2f} s).")
    else:
        sure = "sure at 95 %" if advice.sure else "not sure: too close to call on them"
        print(f"Judged on what a player sees: {advice.orders} orders of the unseen cards drawn at random and solved "
              f"({elapsed:.2f} s); {sure}.")
    for move in sorted(advice.moves, key=lambda move: -move.expected):
        mark = "→" if move is advice.best else ("≈" if move.action in advice.close else " ")
        figures = (f"at most {move.expected:6.1f}" if move.at_most else f"expected {move.expected:6.1f}"
                   + (f" ±{move.margin:4.1f}" if move.win_low is not None else ""))
        win = "" if move.at_most else f"  wins {100 * move.win:3.0f} %"
        print(f"  {mark} {typed_move(state, move.action):>3}  {readable(move_words(state, move.action)):<34} "
              f"{figures}{win}")
    print(readable(hint_phrase(state, advice).replace("**", "")))
    best = advice.best
    print(f"hint={typed_move(state, best.action)} expected={best.expected:.1f} win={round(100 * best.win)}%")
    return 0
