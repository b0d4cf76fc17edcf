"""A finished (or unfinished) game checked against perfect play, move by move, told in a player's words.

For every move the best score still reachable before and after it is known exactly (``Position``); a move that
lowered it is a mistake, told with what it cost and a move that would have kept it. Moves with no alternative
are not decisions. Pure: the bot runs it in the solver's worker process. Its words are English ``Phrase``s that
keep their templates, so the bot translates them for the reader.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from games.engine import Action, Rules, State, apply, legal_actions, new_game
from games.engine.actions import AVOID, FIGHT_WITH_WEAPON
from games.engine.cards import MONSTER, POTION, WEAPON, Card
from games.i18n import N_
from games.i18n.phrase import Phrase

from .position import Position
from .search import gc_paused

REVIEW_LINES = 12  # a review's lines at most, the verdict included: it fits a phone's screen


class Step(NamedTuple):
    room: int  # the room number the move was made in
    action: Action
    before: int  # the best score reachable before the move
    after: int  # … and after it
    choices: int  # legal moves there were (1: forced, not a decision)
    better: Action | None  # a move that kept ``before`` (only for a mistake)
    text: str  # the mistake in words ("" for a move that kept the best)
    words: str = ""  # the move in words ("drinking ♥5"; only for a mistake)
    better_words: str = ""  # ... and the move that would have kept ``before``

    @property
    def lost(self) -> int:
        return self.before - self.after


class Room(NamedTuple):
    number: int
    cards: str  # the room as dealt, e.g. "♠Q ♦9 ♥5 ♣2"
    before: int
    after: int
    steps: tuple[Step, ...]

    @property
    def lost(self) -> int:
        return self.before - self.after


class Review(NamedTuple):
    par: int
    score: int | None  # the line's final score, None if the game is not over
    steps: tuple[Step, ...]
    rooms: tuple[Room, ...]

    @property
    def lost(self) -> int:
        return sum(step.lost for step in self.steps)

    @property
    def decisions(self) -> int:
        return sum(1 for step in self.steps if step.choices > 1)

    @property
    def perfect(self) -> int:
        return sum(1 for step in self.steps if step.choices > 1 and not step.lost)

    def machine_line(self) -> str:
        score = "-" if self.score is None else self.score
        return f"par={self.par} score={score} lost={self.lost} perfect={self.perfect}/{self.decisions}"

    def summary(self) -> Phrase:
        """One line, the verdict: points lost, the costliest room and how many decisions were perfect."""
        decided = Phrase(N_("{perfect}/{decisions} decisions perfect"), perfect=self.perfect,
                         decisions=self.decisions)
        if not self.lost and self.score is None:  # the moves stop before the end: nothing is perfect yet
            return Phrase(N_("No points lost so far: the best possible is still {par} ({decided})."),
                          par=self.par, decided=decided)
        if not self.lost:
            return Phrase(N_("A perfect game: every move kept the best possible score, {par} ({decided})."),
                          par=self.par, decided=decided)
        worst = max(self.rooms, key=lambda room: room.lost)
        return Phrase.plural("You lost {n} point against par {par}; the costliest was room {room} (−{lost}); "
                             "{decided}.",
                             "You lost {n} points against par {par}; the costliest was room {room} (−{lost}); "
                             "{decided}.", self.lost, par=self.par, room=worst.number, lost=worst.lost,
                             decided=decided)

    def lines(self, limit: int = REVIEW_LINES) -> list[Phrase]:
        """What mattered, in at most ``limit`` lines ending with the verdict: perfect stretches of rooms as one
        line each ("Rooms 1–9: perfect"), each mistake on its own line (its mark first, the room, what it cost,
        the better move); when they do not fit, the costliest mistakes and how many more there were."""
        mistakes = [step for step in self.steps if step.lost]
        for shown in range(len(mistakes), -1, -1):
            kept = {id(step) for step in sorted(mistakes, key=lambda step: -step.lost)[:shown]}
            lines = self._lines_with(kept, stretches=True) + self._more(mistakes, kept)
            if len(lines) < limit:
                return lines + [self.summary()]
        # Mistakes scattered over many rooms: the stretches between them would not fit either.
        for shown in range(len(mistakes), -1, -1):
            kept = {id(step) for step in sorted(mistakes, key=lambda step: -step.lost)[:shown]}
            lines = self._lines_with(kept, stretches=False) + self._more(mistakes, kept)
            if len(lines) < limit:
                return lines + [self.summary()]
        return [self.summary()]  # pragma: no cover - limit < 2

    def _lines_with(self, kept: set, stretches: bool) -> list[Phrase]:
        lines: list[Phrase] = []
        run: list[int] = []  # the perfect rooms since the last line

        def close_run() -> None:
            if run and stretches:
                lines.append(Phrase(N_("Room {number}: perfect"), number=run[0]) if len(run) == 1 else
                             Phrase(N_("Rooms {first}–{last}: perfect"), first=run[0], last=run[-1]))
            run.clear()

        for room in self.rooms:
            if not room.lost:
                run.append(room.number)
                continue
            close_run()
            lines += [mistake_line(step) for step in room.steps if id(step) in kept]
        close_run()
        return lines

    @staticmethod
    def _more(mistakes: list[Step], kept: set) -> list[Phrase]:
        left = [step for step in mistakes if id(step) not in kept]
        if not left:
            return []
        return [Phrase.plural("…and {n} more mistake (−{lost})", "…and {n} more mistakes (−{lost})", len(left),
                              lost=sum(step.lost for step in left))]


def mistake_line(step: Step) -> Phrase:
    """One mistake on one line: "✗ Room 3 (−5): drinking ♥10; better: avoiding the room"."""
    return Phrase(N_("✗ Room {number} (−{lost}): {move}; better: {better}"), number=step.room, lost=step.lost,
                  move=step.words, better=step.better_words)


def move_words(state: State, action: Action) -> Phrase:
    """What ``action`` does in ``state``, as a player says it ("fighting ♠Q barehanded")."""
    if action.kind == AVOID:
        return Phrase(N_("avoiding the room"))
    card = state.room[action.index] if action.index is not None else None
    if card is None:
        return Phrase(N_("move {code}"), code=action.code)
    if action.kind == FIGHT_WITH_WEAPON:
        return Phrase(N_("fighting {card} with your {weapon}"), card=card.label, weapon=state.weapon.label)  # type: ignore[union-attr]
    if card.kind == MONSTER:
        return Phrase(N_("fighting {card} barehanded"), card=card.label)
    if card.kind == WEAPON:
        return Phrase(N_("equipping {card}"), card=card.label)
    if card.kind == POTION:
        if state.potion_used:
            return Phrase(N_("discarding {card} (second potion)"), card=card.label)
        return Phrase(N_("drinking {card}"), card=card.label)
    return Phrase(N_("taking {card}"), card=card.label)


def mistake_words(state: State, action: Action, better: Action, before: int, after: int) -> Phrase:
    """A move that lowered the best possible score, what it cost, and a move that would have kept it."""
    return Phrase.sentence_of(N_("{move} dropped your best possible from {before} to {after}; {better} instead "
                                 "kept {before}."), move=move_words(state, action),
                              better=move_words(state, better), before=before, after=after)


def review(rules: Rules, deck: Sequence[Card], actions: Sequence[Action], start: State | None = None,
           position: Position | None = None) -> Review:
    """The line ``actions`` from the deal checked move by move (``IllegalAction`` if a move is not legal).

    ``start`` replaces ``new_game(rules, deck=deck)`` (tests use it for small deals the engine cannot deal).
    ``position``: a ``Position`` of this deal that earlier questions filled (its table is reused).
    """
    with gc_paused():  # one pause for the whole line (see ``gc_paused``)
        return _review(rules, deck, actions, start, position)


def _review(rules, deck, actions, start, position) -> Review:
    if position is None:
        position = Position(rules, deck)
    state = start if start is not None else new_game(rules, deck=tuple(deck))
    par = position.value(state)
    steps: list[Step] = []
    for action in actions:
        choices = legal_actions(state)
        before = position.value(state)
        nxt = apply(state, action)
        after = position.value(nxt, at_most=before)  # the best reachable never rises along a line
        better, text, words, better_words = None, "", "", ""
        if after < before:
            better, _ = position.best_action(state)
            text = mistake_words(state, action, better, before, after)
            words, better_words = move_words(state, action), move_words(state, better)
        steps.append(Step(state.turn, action, before, after, len(choices), better, text, words, better_words))
        state = nxt
    return Review(par, state.score if state.over else None, tuple(steps), _rooms(rules, deck, actions, steps, start))


def _rooms(rules, deck, actions, steps, start) -> tuple[Room, ...]:
    state = start if start is not None else new_game(rules, deck=tuple(deck))
    rooms: list[Room] = []
    current: list[Step] = []
    cards = _cards(state)
    for action, step in zip(actions, steps, strict=True):
        if current and step.room != current[0].room:
            rooms.append(Room(current[0].room, cards, current[0].before, current[-1].after, tuple(current)))
            current, cards = [], _cards(state)
        current.append(step)
        state = apply(state, action)
    if current:
        rooms.append(Room(current[0].room, cards, current[0].before, current[-1].after, tuple(current)))
    return tuple(rooms)


def _cards(state: State) -> str:
    return " ".join(card.label for card in state.room if card is not None)
