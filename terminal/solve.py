"""``python -m bot solve``: the best possible score (par) of a deal and one line that reaches it.

Par sees every card; the coach's score (``games.solver.fair.coach_play``) is what the fair coach makes of the deal
seeing only what a player sees, a score a human can aim for. Par is printed as soon as it is solved; the coach's
game takes longer (it judges every move on many orders of the dungeon), so a progress bar on the terminal's error
stream shows how far into the dungeon it is."""

from __future__ import annotations

import argparse
import inspect
import sys
import time
from collections.abc import Sequence
from typing import NamedTuple

from tqdm import tqdm

from games.engine import (
    CardParseError,
    Rules,
    RulesError,
    SeedError,
    State,
    apply,
    deal,
    legal_actions,
    new_game,
    parse_deck,
    readable,
    seed_to_text,
)
from games.solver import Coach, SolverRefused, coach_play, line_text, native, solve
from terminal.deal_options import add_deal_options, rules_from
from terminal.play import parse_seed, typed_move  # (parse_seed: every command reads a seed alike)
from terminal.usage import prog


def typed_line(rules, deck, actions) -> list[str]:
    """The line in the terminal game's notation (``2w`` weapon, ``2b`` barehanded, ``a`` avoid, ...)."""
    state, typed = new_game(rules, deck=tuple(deck)), []
    for action in actions:
        typed.append(typed_move(state, action))
        state = apply(state, action)
    return typed


# The orders a move is judged on in the coach's own play: ``coach_play``'s, so the game below is the same game.
PLAY_SAMPLES = inspect.signature(coach_play).parameters["samples"].default


class CoachGame(NamedTuple):
    moves: tuple
    score: int
    state: State


def coach_game(rules: Rules, deck: Sequence, start: State | None = None, shown=None) -> CoachGame:
    """The coach's own game (``games.solver.fair.coach_play``, move by move the same), a bar on the terminal's error
    stream moved on as the dungeon empties (``shown``: a tqdm bar instead)."""
    coach = Coach(rules, PLAY_SAMPLES)
    state = start if start is not None else new_game(rules, deck=tuple(deck))
    cards = len(state.dungeon) + sum(card is not None for card in state.room)
    bar = shown if shown is not None else tqdm(total=cards, desc="The coach plays", unit="card", file=sys.stderr,
                                                  disable=None)  # no bar where stderr is no terminal
    moves = []
    with bar:
        while not state.over:
            actions = legal_actions(state)
            action = actions[0] if len(actions) == 1 else coach.advise(state).best.action
            moves.append(action)
            state = apply(state, action)
            bar.update(cards - len(state.dungeon) - sum(card is not None for card in state.room) - bar.n)
    return CoachGame(tuple(moves), state.score, state)  # type: ignore[arg-type]  # over: scored


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=prog("solve"), description=__doc__.splitlines()[0])
    add_deal_options(parser)
    parser.add_argument("--quiet", action="store_true", help="print only the final best_score line (no coach)")
    parser.add_argument("--no-coach", action="store_true",
                        help="leave out the coach's own play (it judges every move on what a player sees: slower)")
    args = parser.parse_args(argv)
    try:
        rules = rules_from(args)
        if args.seed is not None:
            seed = parse_seed(args.seed)
            deck = deal(rules, seed)
            title = f"Seed {seed_to_text(seed)}"
        else:
            deck = parse_deck(args.deck, rules.full_deck())
            title = "Deck"
        started = time.perf_counter()
        solution = solve(rules, deck)
        elapsed = time.perf_counter() - started
    except (SeedError, CardParseError, RulesError, SolverRefused, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not args.quiet:
        print(f"{title} ({rules.name} rules): {' '.join(c.code for c in deck)}")
        outcome = "winnable" if solution.winnable else "not winnable: the best is to die as late as possible"
        print(f"Par: {solution.best_score} ({outcome}); {solution.states:,} situations searched in {elapsed:.2f} s "
              f"(solver: {native.describe()}).")
        print("Optimal line, as typed in `scoundrel-bot play`: " + " ".join(typed_line(rules, deck, solution.actions)))
        for text in line_text(rules, deck, solution.actions):
            print("  " + readable(text))
        sys.stdout.flush()  # par at once: the coach's game takes a while longer
    if not args.quiet and not args.no_coach:
        started = time.perf_counter()
        coach = coach_game(rules, deck)
        print(f"The coach, seeing only the room and what was seen before, plays: "
              f"{' '.join(typed_line(rules, deck, coach.moves))} ({time.perf_counter() - started:.1f} s).")
        print(f"Coach (seeing only the room): {coach.score}")
    print(f"best_score={solution.best_score} winnable={'yes' if solution.winnable else 'no'}")
    return 0
