"""Review and hint for the bot: run in the solver's worker process, under its bounded, fair queue (``bot.par``).

Plain data crosses the process boundary: rules as a dict, the deck and the moves as codes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from bot.engine import Action, Rules, apply, decode, encode, new_game, parse_deck
from bot.engine.cards import Card
from bot.par import run_in_solver
from bot.solver import SolverRefused, refusal
from bot.solver.position import Position
from bot.solver.review import move_words, review

REVIEW_TIME_LIMIT = 60.0  # seconds of solving (waiting in the queue does not count)
HINT_TIME_LIMIT = 20.0


class ReviewText(NamedTuple):
    summary: str
    rooms: list[str]
    machine: str  # par=N score=M lost=K perfect=P/D


class Hint(NamedTuple):
    code: str  # the engine action code of the best move
    words: str  # "equipping ♦9"
    best: int  # the best score still reachable


def _review_in_worker(rules_data: dict, deck_codes: str, moves: str) -> ReviewText:
    rules = Rules.from_dict(rules_data)
    result = review(rules, parse_deck(deck_codes, rules.full_deck()), decode(moves))
    return ReviewText(result.summary(), result.room_lines(), result.machine_line())


def _hint_in_worker(rules_data: dict, deck_codes: str, moves: str) -> Hint:
    rules = Rules.from_dict(rules_data)
    deck = parse_deck(deck_codes, rules.full_deck())
    state = new_game(rules, deck=deck)
    for action in decode(moves):
        state = apply(state, action)
    action, best = Position(rules, deck).best_action(state)
    return Hint(action.code, move_words(state, action), best)


def _check(rules: Rules) -> None:
    reason = refusal(rules)
    if reason:
        raise SolverRefused(reason)


async def review_game(rules: Rules, deck: Sequence[Card], moves: Sequence[Action], *,
                      requester: int | None = None) -> ReviewText:
    """The review of ``moves`` from the deal, solved in the worker (``SolverBusy``/``ParTimeout`` as for par)."""
    _check(rules)
    return await run_in_solver(_review_in_worker, rules.to_dict(), " ".join(c.code for c in deck), encode(moves),
                               requester=requester, time_limit=REVIEW_TIME_LIMIT)


async def hint_for(rules: Rules, deck: Sequence[Card], moves: Sequence[Action], *,
                   requester: int | None = None) -> Hint:
    """The best move after ``moves`` from the deal, solved in the worker."""
    _check(rules)
    return await run_in_solver(_hint_in_worker, rules.to_dict(), " ".join(c.code for c in deck), encode(moves),
                               requester=requester, time_limit=HINT_TIME_LIMIT)
