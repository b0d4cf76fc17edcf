"""A game reviewed fairly: each move judged by the fair coach (``fair.py``) on what the player could see then.

A move is a mistake only when another move was clearly better on the orders of the dungeon the player could be
in: its expected score was at least ``MISTAKE_POINTS`` higher. Where the orders are sampled, the coach takes the
census of the move played (``census``: whether it still wins on every order, the orders it loses judged whole) and
judges more orders until the 95 % interval of what the move gave away lies on one side of that threshold
(``racing.verdict``), or its budget is spent; a move still undecided then is called a mistake only if it gave away at
least the threshold and was worse at 95 %. The review says by how much, in the same folded,
short form as the hindsight review (``review.py``: perfect stretches of rooms on one line, each mistake on its
own). Pure: the bot runs it in the solver's worker process; its words are ``Phrase``s the bot translates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.engine import Action, Rules, State, apply, legal_actions, new_game
from games.engine.cards import Card
from games.i18n import N_
from games.i18n.phrase import Phrase
from games.solver.fair import REVIEW_FIRST_ORDERS, REVIEW_MOVE_BUDGET, Advice, Coach
from games.solver.racing import verdict
from games.solver.review import Review, Room, Step, move_words
from games.solver.search import gc_paused

# Expected points a move must give away against the best move, on what the player could see, to be a mistake:
# below that, two moves are too close to call on a sample of the orders the player could be in.
MISTAKE_POINTS = 3.0


class FairReview(Review):
    """A ``Review`` whose steps' ``before`` is the best move's expected score (rounded) and ``after`` that minus
    what a mistake gave away (equal for every move that was not clearly worse); ``par`` is the hindsight best."""

    def mistakes(self) -> list[int]:
        """The mistakes' move numbers, from 1."""
        return [number for number, step in enumerate(self.steps, 1) if step.lost]

    def machine_line(self) -> str:
        return super().machine_line() + " mistakes=" + ",".join(map(str, self.mistakes()))

    def summary(self) -> Phrase:
        decided = Phrase(N_("{perfect}/{decisions} decisions as good as the best on what you could see"),
                         perfect=self.perfect, decisions=self.decisions)
        if not self.lost and self.score is None:
            return Phrase(N_("No clear mistakes so far ({decided})."), decided=decided)
        if not self.lost:
            return Phrase(N_("No clear mistakes: on what you could see, no other move was clearly better "
                             "({decided})."), decided=decided)
        worst = max(self.rooms, key=lambda room: room.lost)
        return Phrase.plural("You gave away about {n} expected point on what you could see; the costliest was room "
                             "{room} (−{lost}); {decided}.",
                             "You gave away about {n} expected points on what you could see; the costliest was "
                             "room {room} (−{lost}); {decided}.", self.lost, room=worst.number, lost=worst.lost,
                             decided=decided)


def fair_mistake_words(state: State, action: Action, better: Action, lost: int) -> Phrase:
    return Phrase.sentence_of(N_("{move} gave away about {lost} expected points on what you could see; {better} "
                                 "was clearly better."), move=move_words(state, action),
                              better=move_words(state, better), lost=lost)


def fair_review(rules: Rules, deck: Sequence[Card], actions: Sequence[Action], start: State | None = None,
                coach: Coach | None = None, par: int = 0, budget: int | None = REVIEW_MOVE_BUDGET,
                progress: Callable[[int, int], None] | None = None) -> FairReview:
    """The line ``actions`` judged move by move on what the player could see (``IllegalAction`` if a move is not
    legal). ``par``: the deal's hindsight best, carried into the machine line; ``coach``: one to reuse; ``budget``:
    tests a move's orders' searches may make before it is judged (``Coach.advise``); ``progress``: called with the moves
    judged and their number."""
    coach = coach if coach is not None else Coach(rules)
    first = state = start if start is not None else new_game(rules, deck=tuple(deck))
    steps: list[Step] = []
    with gc_paused():
        for action in actions:
            choices = legal_actions(state)
            if action not in choices:
                apply(state, action)  # raises IllegalAction, which says why
            before = after = 0
            better, text, words, better_words = None, "", "", ""
            if len(choices) > 1:
                # the same line move after move: a room's orders, solved for its first move, serve its next ones
                advice = coach.advise(state, judge=(action,), threshold=MISTAKE_POINTS, budget=budget,
                                      first=REVIEW_FIRST_ORDERS, continuing=bool(steps))
                before = after = round(advice.best.expected)
                lost = advice.best.expected - advice.value_of(action).expected
                if is_mistake(advice, action):
                    after = before - round(lost)
                    better = advice.best.action
                    text = fair_mistake_words(state, action, better, round(lost))
                    words, better_words = move_words(state, action), move_words(state, better)
            steps.append(Step(state.turn, action, before, after, len(choices), better, text, words, better_words))
            state = apply(state, action)
            if progress is not None:
                progress(len(steps), len(actions))
    score = state.score if state.over else None
    return FairReview(par, score, tuple(steps), _rooms(first, actions, steps))


def is_mistake(advice: Advice, action: Action) -> bool:
    """Whether ``action`` gave away at least ``MISTAKE_POINTS`` against the best move: exactly where every order was
    judged; else once the interval says so, and, where it still cannot tell, if its mean says so and it was worse
    at 95 %."""
    gaps = dict(advice.gaps)
    if action not in gaps:
        return advice.best.expected - advice.value_of(action).expected >= MISTAKE_POINTS
    g = gaps[action]
    decided = verdict(g, MISTAKE_POINTS)
    return decided if decided is not None else g.mean >= MISTAKE_POINTS and g.low > 0


def _rooms(state: State, actions: Sequence[Action], steps: list[Step]) -> tuple[Room, ...]:
    """The steps room by room; a room's ``lost`` is what its mistakes gave away."""
    rooms: list[Room] = []
    for action, step in zip(actions, steps, strict=True):
        if not rooms or rooms[-1].number != step.room:
            cards = " ".join(card.label for card in state.room if card is not None)
            rooms.append(Room(step.room, cards, 0, 0, ()))
        room = rooms[-1]
        rooms[-1] = room._replace(before=room.before + step.lost, steps=room.steps + (step,))
        state = apply(state, action)
    return tuple(rooms)
