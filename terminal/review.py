"""``python -m bot review``: a line of moves judged on what the player could see, room by room, in a player's words.

A move is a mistake only when another was clearly better on the orders of the dungeon the player could be in
(``games.solver.fair_review``); the machine line ends with the mistakes' move numbers."""

from __future__ import annotations

import argparse
import re
import sys
import time

from games.engine import (
    Action,
    ActionParseError,
    CardParseError,
    IllegalAction,
    RulesError,
    SeedError,
    apply,
    new_game,
    readable,
)
from games.solver import SolverRefused, fair_review, solve
from terminal.deal_options import add_deal_options, deck_from, rules_from
from terminal.play import parse_move, quoted
from terminal.usage import prog

NOTATION = ('as typed in `scoundrel-bot play` and printed by `solve` ("1w 2 a 3b ...": a card by its place 1-4, '
            "w with the weapon, b barehanded, a avoid, b1-b6 buy, l leave, r/d raise or decline, o/e loop or "
            'retire), or as action codes ("W0 T1 A T2 ...")')
_CODE = re.compile(r"[TWB][0-9]|[ALRDOE]")


def read_moves(rules, deck, text: str) -> tuple[Action, ...]:
    """The moves in the terminal's notation (replayed to read each in its position), or all as action codes."""
    tokens = text.split()
    codes = all(_CODE.fullmatch(token) for token in tokens)
    state, moves = new_game(rules, deck=tuple(deck)), []
    for number, token in enumerate(tokens, 1):
        action = Action.parse(token) if codes else parse_move(state, token)
        if action is None:
            raise ActionParseError(f"move {number}, {quoted(token)}, is not a move: write the moves {NOTATION}")
        state = play_move(state, action, number, token)
        moves.append(action)
    return tuple(moves)


def play_move(state, action: Action, number: int, token: str):
    """``state`` after the line's move ``number`` (``token`` as written); refused, it says which move and why."""
    if state.over:
        raise IllegalAction(f"move {number}, {quoted(token)}, comes after the end: the game ended with move "
                            f"{number - 1} (score {state.score}); leave out the moves from {number} on")
    try:
        return apply(state, action)
    except IllegalAction as refused:
        reason = str(refused)
        raise IllegalAction(f"move {number}, {quoted(token)}, is not allowed there: {reason[:1].lower()}{reason[1:]}") \
            from None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=prog("review"), description=__doc__.splitlines()[0])
    add_deal_options(parser)
    parser.add_argument("--moves", required=True, help=f"the moves played: {NOTATION}")
    args = parser.parse_args(argv)
    try:
        rules = rules_from(args)
        deck = deck_from(args, rules)
        moves = read_moves(rules, deck, args.moves)
        started = time.perf_counter()
        result = fair_review(rules, deck, moves, par=solve(rules, deck).best_score)
        elapsed = time.perf_counter() - started
    except (SeedError, CardParseError, RulesError, SolverRefused, ActionParseError, IllegalAction,
            ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    *told, verdict = result.lines()
    print(readable(verdict))  # cards as the bot and the game write them
    for line in told:
        print("  " + readable(line))
    if result.score is None:
        print("The moves stop before the end of the game." if result.steps else "No moves given.")
    print(f"Reviewed {len(result.steps)} moves in {elapsed:.2f} s.")
    print(result.machine_line())
    return 0
