"""Review and hint for the bot: run in the solver's worker process, under its bounded, fair queue
(``app.solver.worker``).

Plain data crosses the process boundary: rules as a dict, the deck and the moves as codes. Both judge moves on what
the player could see (``games.solver.fair``); the deck is only used to rebuild the game's position, which the coach
reads as the player sees it, and for the review's hindsight par.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import NamedTuple

from app.solver import progress
from app.solver.progress import Watch
from app.solver.tidying import TIDIER
from app.solver.worker import run_in_solver
from games.engine import Action, Rules, apply, decode, encode, new_game, parse_deck
from games.engine.cards import Card
from games.i18n.phrase import Phrase
from games.solver import SolverRefused, refusal
from games.solver.fair import HINT_BUDGET, REVIEW_MOVE_BUDGET, Coach, visible
from games.solver.fair_review import fair_review
from games.solver.hint_words import hint_phrase
from games.solver.position import Position
from games.solver.review import move_words

REVIEW_TIME_LIMIT = 120.0  # seconds of solving (waiting in the queue does not count): a whole game judged fairly
HINT_TIME_LIMIT = 60.0  # seconds of solving: far above what the budgets below let a hint take
POSITIONS_KEPT = 3  # deals whose solved positions the worker keeps: the review's par reuses them
POSITION_SIZE_KEPT = 400_000  # ... unless a search grew past this many situations (memory: hundreds of MB)
_positions: OrderedDict[tuple[str, str], Position] = OrderedDict()  # in the worker process, most recent last
_coaches: dict[str, Coach] = {}  # by rules (a coach judging until sure keeps no order's search: one at a time)
HINTS_KEPT = 512  # hints the worker keeps, by the position as the player sees it (a few hundred bytes each)
# The advice depends only on what the player sees (``fair.visible``), so a position asked again (by the same player, or
# by everyone playing the same deal: the daily's first rooms) is answered at once.
_hints: OrderedDict[tuple, Hint] = OrderedDict()


class ReviewText(NamedTuple):
    summary: str
    lines: list[Phrase]  # what mattered, the verdict (``summary``) last; translated where shown
    machine: str  # par=N score=M lost=K perfect=P/D


class Hint(NamedTuple):
    code: str  # the engine action code of the best move
    words: str  # "equipping ♦9"
    expected: float  # its expected score over the orders of the dungeon the player could be in
    win: float  # ... and its chance to win there (0..1)
    sentence: Phrase  # the hint as the player reads it, saying how sure it is (``hint_words.hint_phrase``)


def _position(rules: Rules, deck_codes: str) -> tuple[Position, tuple[Card, ...]]:
    """The deal's ``Position``, kept from an earlier hint or review of the same deal when there was one: what its
    search proved still holds, so a game's second hint is mostly answered from the table."""
    key = (rules.key, deck_codes)
    position = _positions.pop(key, None)
    if position is None:
        position = Position(rules, parse_deck(deck_codes, rules.full_deck()))
    _positions[key] = position
    while len(_positions) > POSITIONS_KEPT:
        TIDIER.let_go([_positions.popitem(last=False)[1]])
    return position, position.deal.cards


def _done_with(rules: Rules, deck_codes: str, position: Position) -> None:
    if position.size() > POSITION_SIZE_KEPT:
        TIDIER.let_go([_positions.pop((rules.key, deck_codes))])


def _coach(rules: Rules) -> Coach:
    coach = _coaches.get(rules.key)
    if coach is None:
        coach = _coaches[rules.key] = Coach(rules)
    return coach


def _review_in_worker(rules_data: dict, deck_codes: str, moves: str) -> ReviewText:
    """The fair review (moves judged on what the player could see), with the deal's hindsight par."""
    with TIDIER.request():
        rules = Rules.from_dict(rules_data)
        position, deck = _position(rules, deck_codes)
        par = position.value(new_game(rules, deck=deck))
        _done_with(rules, deck_codes, position)
        coach = _coach(rules)
        result = fair_review(rules, deck, decode(moves), coach=coach, par=par, budget=REVIEW_MOVE_BUDGET,
                             progress=progress.report)
        coach.forget()  # no order's search outlives the request: an idle worker holds little
        TIDIER.let_go(coach.retired)
        return ReviewText(result.summary(), result.lines(), result.machine_line())


def _hint_in_worker(rules_data: dict, deck_codes: str, moves: str) -> Hint:
    """The best move on what the player can see: the deal's order reaches the coach only as the state, which it
    reads as the player sees it (``games.solver.fair.visible``)."""
    with TIDIER.request():
        rules = Rules.from_dict(rules_data)
        state = new_game(rules, deck=parse_deck(deck_codes, rules.full_deck()))
        for action in decode(moves):
            state = apply(state, action)
        key = (rules.key, visible(state))
        kept = _hints.pop(key, None)
        if kept is None:
            coach = _coach(rules)
            advice = coach.advise(state, budget=HINT_BUDGET, progress=lambda orders: progress.report(orders, 0))
            coach.forget()
            TIDIER.let_go(coach.retired)  # freed after the answer, while the worker waits for its next request
            best = advice.best
            kept = Hint(best.action.code, move_words(state, best.action), best.expected, best.win,
                        hint_phrase(state, advice))
        _hints[key] = kept
        while len(_hints) > HINTS_KEPT:
            _hints.popitem(last=False)
        return kept


def _check(rules: Rules) -> None:
    reason = refusal(rules)
    if reason:
        raise SolverRefused(reason)


async def review_game(rules: Rules, deck: Sequence[Card], moves: Sequence[Action], *,
                      requester: int | None = None, watch: Watch | None = None) -> ReviewText:
    """The review of ``moves`` from the deal, solved in the worker (``SolverBusy``/``ParTimeout`` as for par);
    ``watch`` sees its place in the queue, then the moves judged so far."""
    _check(rules)
    return await run_in_solver(_review_in_worker, rules.to_dict(), " ".join(c.code for c in deck), encode(moves),
                               requester=requester, time_limit=REVIEW_TIME_LIMIT, watch=watch)


async def hint_for(rules: Rules, deck: Sequence[Card], moves: Sequence[Action], *,
                   requester: int | None = None, watch: Watch | None = None) -> Hint:
    """The best move after ``moves`` from the deal, solved in the worker; ``watch`` sees its place in the queue."""
    _check(rules)
    return await run_in_solver(_hint_in_worker, rules.to_dict(), " ".join(c.code for c in deck), encode(moves),
                               requester=requester, time_limit=HINT_TIME_LIMIT, watch=watch)
