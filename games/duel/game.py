"""The duel (the two-player "Scoundrel"): a pure, immutable engine. No discord, no I/O.

The rules are docs/RULES.md's; the points a plain statement of the game leaves open are decided here and listed
in ``games/duel/__init__.py``. Players are 0 and 1.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import permutations
from typing import NamedTuple

from games.duel.actions import BUILD, DONE, FINISH, PLACE, RESIGN, STEAL, DuelAction, IllegalDuelAction
from games.duel.cards import Card, build_deck, sort_hand, step
from games.engine.seeds import Stream, shuffled
from games.i18n import N_
from games.i18n.phrase import Phrase

HAND_SIZE = 7
PAIRS = 4
DICE = 3
TARGETS = (4, 5, 5, 6)  # one column of 4+, two of 5+, one of 6+
MIN_FINISH = min(TARGETS)
ANY_CARD_DIE = 6  # a six: exactly one card of any rank, the column becomes directionless
DICE_STREAM = 1 << 20  # dice of roll k come from stream DICE_STREAM + k of the duel's seed
RESHUFFLE_STREAM = 2 << 20  # the k-th reshuffle of the stolen pile uses stream RESHUFFLE_STREAM + k

PLACING, PLAYING, OVER = "place", "play", "over"
STOLE = -1  # usage mark: this player stole on the pair during this play


class Column(NamedTuple):
    cards: tuple[Card, ...] = ()
    direction: int = 0  # +1 ascending, -1 descending, 0 not decided yet
    finished: bool = False

    @property
    def top(self) -> Card | None:
        return self.cards[-1] if self.cards else None


@dataclass(frozen=True)
class DuelState:
    seed: int
    dealer: int  # the non-roller of the first turn
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    columns: tuple[tuple[Column, ...], tuple[Column, ...]]  # columns[player][pair]
    stock: tuple[Card, ...]  # top card first
    stolen: tuple[Card, ...]  # stolen columns, set aside; reshuffled into the stock when it runs out
    roller: int
    phase: str  # place / play / over
    actor: int  # who must act now
    dice: tuple[int, ...]  # values rolled this turn, in roll order
    placed: tuple[int, ...]  # pair of each die, -1 while unplaced
    usage: tuple[int, ...]  # per pair, for the current play: cards built, or STOLE
    rolls: int = 0
    reshuffles: int = 0
    turn: int = 1
    winner: int | None = None
    history: tuple[str, ...] = ()
    # What the last action did, in words (``Phrase``s, translated where shown); players appear as {0} and {1}.
    events: tuple[str, ...] = ()

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def version(self) -> int:
        return len(self.history)

    @property
    def non_roller(self) -> int:
        return 1 - self.roller

    def die_on(self, pair: int) -> int | None:
        for value, where in zip(self.dice, self.placed, strict=True):
            if where == pair:
                return value
        return None

    def pair_closed(self, pair: int) -> bool:
        return self.columns[0][pair].finished and self.columns[1][pair].finished

    def card_count(self) -> int:
        on_board = sum(len(col.cards) for side in self.columns for col in side)
        return len(self.hands[0]) + len(self.hands[1]) + len(self.stock) + len(self.stolen) + on_board


def _seat(player: int) -> str:
    """A player in an event's words: ``{0}`` or ``{1}``, filled with their name where the event is shown."""
    return "{" + str(player) + "}"


# --- dealing and rolling ----------------------------------------------------------------------------
def new_duel(seed: int, dealer: int = 1) -> DuelState:
    """Deal from the seeded shuffle of the 52-card deck: hands 0-6 and 7-13, bases 14-17 and 18-21, stock after."""
    if dealer not in (0, 1):
        raise ValueError("the dealer is player 0 or 1")
    deck = shuffled(build_deck(), seed, 0)
    hands = (sort_hand(deck[0:7]), sort_hand(deck[7:14]))
    columns = tuple(tuple(Column((card,)) for card in deck[start:start + PAIRS]) for start in (14, 18))
    assert len(columns) == 2  # one side a player
    state = DuelState(seed=seed, dealer=dealer, hands=hands, columns=columns, stock=deck[22:], stolen=(),
                      roller=1 - dealer, phase=PLACING, actor=1 - dealer, dice=(), placed=(),
                      usage=(0,) * PAIRS)
    return _roll(state, ())


def dice_count(state: DuelState) -> int:
    """Three dice, one fewer per pair whose two columns are both finished, but never fewer than one."""
    closed = sum(state.pair_closed(p) for p in range(PAIRS))
    return max(1, DICE - closed)


def _roll(state: DuelState, events: tuple[str, ...]) -> DuelState:
    rng = Stream(state.seed, DICE_STREAM + state.rolls)
    dice = tuple(rng.below(6) + 1 for _ in range(dice_count(state)))
    text = Phrase(N_("{player} rolls {dice}"), player=_seat(state.roller), dice=" ".join(map(str, dice)))
    return replace(state, dice=dice, placed=(-1,) * len(dice), rolls=state.rolls + 1, phase=PLACING,
                   actor=state.roller, usage=(0,) * PAIRS, events=events + (text,))


# --- legality -----------------------------------------------------------------------------------------
def finish_fits(lengths) -> bool:
    """Whether columns of these lengths can each take a distinct target (4+, 5+, 5+, 6+).

    A longer column may stand for any target it reaches; we try every assignment (at most 24), i.e. a
    bipartite match of columns to targets by length.
    """
    lengths = list(lengths)
    return any(all(n >= t for n, t in zip(lengths, targets, strict=True))
               for targets in permutations(TARGETS, len(lengths)))


def can_build_on(column: Column, card: Card, die: int) -> bool:
    if column.finished:
        return False
    if die == ANY_CARD_DIE or not column.cards:
        return True
    top = column.top.rank  # type: ignore[union-attr]  # the column has cards
    if card.rank == top:
        return True
    if column.direction:
        return card.rank == step(top, column.direction)
    return card.rank in (step(top, 1), step(top, -1))


def refusal(state: DuelState, action: DuelAction) -> str | None:
    """Why ``action`` is illegal now, in words for the player; None when it is legal."""
    if state.over:
        return Phrase(N_("the duel is over"))
    kind = action.kind
    if kind == RESIGN:
        return None if action.player in (0, 1) else Phrase(N_("only player 1 or 2 can resign"))
    if kind == PLACE:
        if state.phase != PLACING:
            return Phrase(N_("the dice are already placed"))
        if not 0 <= action.die < len(state.dice):
            return Phrase.plural("there is only {n} die", "there are only {n} dice", len(state.dice))
        if state.placed[action.die] != -1:
            return Phrase(N_("that die is already placed"))
        if not 0 <= action.pair < PAIRS:
            return Phrase(N_("there are four column pairs (1-4)"))
        if action.pair in state.placed:
            return Phrase(N_("that pair already has a die"))
        if state.pair_closed(action.pair):
            return Phrase(N_("both columns of that pair are finished: no die may go there"))
        return None
    if state.phase != PLAYING:
        return Phrase(N_("the roller must place the dice first"))
    me = state.actor
    if kind == DONE:
        return None
    if not 0 <= action.pair < PAIRS:
        return Phrase(N_("there are four column pairs (1-4)"))
    mine = state.columns[me][action.pair]
    if kind == FINISH:
        if mine.finished:
            return Phrase(N_("that column is already finished"))
        if len(mine.cards) < MIN_FINISH:
            return Phrase(N_("a column needs at least {count} cards to be finished"), count=MIN_FINISH)
        lengths = [len(c.cards) for c in state.columns[me] if c.finished] + [len(mine.cards)]
        if not finish_fits(lengths):
            return Phrase(N_("that would not fit the goal (one column of 4+, two of 5+, one of 6+): "
                             "build it longer first"))
        return None
    if kind not in (BUILD, STEAL):
        return Phrase(N_("unknown action"))
    assert action.card is not None  # a build or a steal plays a card
    if action.card not in state.hands[me]:
        return Phrase(N_("{card} is not in your hand"), card=action.card.label)
    die = state.die_on(action.pair)
    if die is None:
        return Phrase(N_("there is no die on that pair"))
    used = state.usage[action.pair]
    if kind == BUILD:
        if used == STOLE:
            return Phrase(N_("you stole on that pair this turn: you can't also build there"))
        cap = 1 if die == ANY_CARD_DIE else die
        if used >= cap:
            return Phrase.plural("the die allows {n} card on that pair", "the die allows {n} cards on that pair", cap)
        if mine.finished:
            return Phrase(N_("that column is finished"))
        if not can_build_on(mine, action.card, die):
            return Phrase(N_("{card} can't go on {top} ({rule})"), card=action.card.label, top=mine.top.label,  # type: ignore[union-attr]
                          rule=_direction_text(mine.direction))
        return None
    theirs = state.columns[1 - me][action.pair]
    if used == STOLE:
        return Phrase(N_("you already stole on that pair this turn"))
    if used > 0:
        return Phrase(N_("you built on that pair this turn: you can't also steal there"))
    if theirs.finished:
        return Phrase(N_("a finished column can't be stolen"))
    if not theirs.cards:
        return Phrase(N_("that column is empty"))
    if theirs.top.rank != action.card.rank:  # type: ignore[union-attr]  # the column has cards
        return Phrase(N_("to steal it you need a card of the same rank as {top}"), top=theirs.top.label)  # type: ignore[union-attr]
    return None


def _direction_text(direction: int) -> str:
    if direction == 1:
        return Phrase(N_("ascending: same rank or one higher"))
    if direction == -1:
        return Phrase(N_("descending: same rank or one lower"))
    return Phrase(N_("same rank or one step either way"))


def legal_actions(state: DuelState, *, with_resign: bool = False) -> list[DuelAction]:
    """Every legal action now (resigning, always allowed while the duel is on, only if asked)."""
    if state.over:
        return []
    out: list[DuelAction] = []
    if state.phase == PLACING:
        out += [DuelAction(PLACE, pair=p, die=d) for d in range(len(state.dice)) for p in range(PAIRS)]
    else:
        hand = sorted(set(state.hands[state.actor]))
        for pair in range(PAIRS):
            for card in hand:
                out += [DuelAction(BUILD, pair=pair, card=card), DuelAction(STEAL, pair=pair, card=card)]
            out.append(DuelAction(FINISH, pair=pair))
        out.append(DuelAction(DONE))
    out = [a for a in out if refusal(state, a) is None]
    if with_resign:
        out += [DuelAction(RESIGN, player=0), DuelAction(RESIGN, player=1)]
    return out


# --- applying -------------------------------------------------------------------------------------------
def apply(state: DuelState, action: DuelAction | str) -> DuelState:
    """The state after ``action``; raises ``IllegalDuelAction`` (a player-readable reason) and changes nothing."""
    if isinstance(action, str):
        action = DuelAction.parse(action)
    reason = refusal(state, action)
    if reason is not None:
        raise IllegalDuelAction(reason)
    new = _APPLY[action.kind](state, action)
    return replace(new, history=state.history + (action.code,))


def _set(seq: tuple, index: int, value) -> tuple:
    return seq[:index] + (value,) + seq[index + 1:]


def _set_column(state: DuelState, player: int, pair: int, column: Column) -> tuple:
    return _set(state.columns, player, _set(state.columns[player], pair, column))


def _remove(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1:]


def _place(state: DuelState, action: DuelAction) -> DuelState:
    placed = _set(state.placed, action.die, action.pair)
    events: tuple[Phrase, ...] = (Phrase(N_("die {value} goes on pair {pair}"), value=state.dice[action.die],
                                         pair=action.pair + 1),)
    if -1 in placed:
        return replace(state, placed=placed, events=events)
    events += (Phrase(N_("{player} plays"), player=_seat(state.non_roller)),)
    return replace(state, placed=placed, phase=PLAYING, actor=state.non_roller, events=events)


def _build(state: DuelState, action: DuelAction) -> DuelState:
    me, pair, card = state.actor, action.pair, action.card
    assert card is not None  # refusal: a card of the hand
    column = state.columns[me][pair]
    die = state.die_on(pair)
    if die == ANY_CARD_DIE or not column.cards:
        direction = 0
    elif card.rank == column.top.rank:  # type: ignore[union-attr]  # the column has cards
        direction = column.direction
    else:
        direction = 1 if card.rank == step(column.top.rank, 1) else -1  # type: ignore[union-attr]
    column = Column(column.cards + (card,), direction, False)
    state = replace(state, columns=_set_column(state, me, pair, column),
                    hands=_set(state.hands, me, _remove(state.hands[me], card)),
                    usage=_set(state.usage, pair, state.usage[pair] + 1))
    return _refill_if_empty(state, (Phrase(N_("{player} plays {card} on pair {pair}"), player=_seat(me),
                                           card=card.label, pair=pair + 1),))


def _steal(state: DuelState, action: DuelAction) -> DuelState:
    me, pair, card = state.actor, action.pair, action.card
    assert card is not None  # refusal: a card of the hand
    taken = state.columns[1 - me][pair].cards + (card,)
    state = replace(state, columns=_set_column(state, 1 - me, pair, Column()),
                    hands=_set(state.hands, me, _remove(state.hands[me], card)),
                    stolen=state.stolen + taken, usage=_set(state.usage, pair, STOLE))
    text = Phrase(N_("{player} steals {other}'s column on pair {pair} with {card} ({count} cards)"),
                  player=_seat(me), other=_seat(1 - me), pair=pair + 1, card=card.label, count=len(taken))
    return _refill_if_empty(state, (text,))


def _refill_if_empty(state: DuelState, events: tuple[str, ...]) -> DuelState:
    """A player who runs out of cards during their play draws seven more and may go on."""
    me = state.actor
    if state.hands[me]:
        return replace(state, events=events)
    for _ in range(HAND_SIZE):
        state, drew = _draw(state, me)
        if not drew:
            break
    drawn = Phrase(N_("{player} ran out of cards and draws {count}"), player=_seat(me), count=len(state.hands[me]))
    return replace(state, events=events + (drawn,))


def _draw(state: DuelState, player: int) -> tuple[DuelState, bool]:
    """One card from the stock; an empty stock is first refilled by shuffling the stolen pile."""
    if not state.stock:
        if not state.stolen:
            return state, False
        state = replace(state, stock=shuffled(state.stolen, state.seed, RESHUFFLE_STREAM + state.reshuffles),
                        stolen=(), reshuffles=state.reshuffles + 1)
    hand = sort_hand(state.hands[player] + (state.stock[0],))
    return replace(state, stock=state.stock[1:], hands=_set(state.hands, player, hand)), True


def _finish(state: DuelState, action: DuelAction) -> DuelState:
    me, pair = state.actor, action.pair
    column = state.columns[me][pair]._replace(finished=True)
    state = replace(state, columns=_set_column(state, me, pair, column))
    events = (Phrase(N_("{player} finishes the column on pair {pair} ({count} cards)"), player=_seat(me),
                     pair=pair + 1, count=len(column.cards)),)
    if all(c.finished for c in state.columns[me]):
        return replace(state, phase=OVER, winner=me, events=events + (Phrase(N_("{player} wins"), player=_seat(me)),))
    return replace(state, events=events)


def _done(state: DuelState, action: DuelAction) -> DuelState:
    if state.actor == state.non_roller:
        return replace(state, actor=state.roller, usage=(0,) * PAIRS,
                       events=(Phrase(N_("{player} plays"), player=_seat(state.roller)),))
    state = _replenish(state)
    swapped = replace(state, roller=state.non_roller, turn=state.turn + 1)
    return _roll(swapped, (Phrase(N_("both players draw back up to {count}"), count=HAND_SIZE),))


def _replenish(state: DuelState) -> DuelState:
    """Draw alternately, non-roller first, until both hold 7 or the stock and stolen pile are both empty."""
    order = (state.non_roller, state.roller)
    while any(len(state.hands[p]) < HAND_SIZE for p in order):
        for player in order:
            if len(state.hands[player]) < HAND_SIZE:
                state, drew = _draw(state, player)
                if not drew:
                    return state
    return state


def _resign(state: DuelState, action: DuelAction) -> DuelState:
    return replace(state, phase=OVER, winner=1 - action.player,
                   events=(Phrase(N_("{player} resigns; {other} wins"), player=_seat(action.player),
                                  other=_seat(1 - action.player)),))


_APPLY = {PLACE: _place, BUILD: _build, STEAL: _steal, FINISH: _finish, DONE: _done, RESIGN: _resign}


def replay(seed: int, actions, dealer: int = 1) -> DuelState:
    """The duel dealt from ``seed`` after ``actions`` (codes or DuelActions); raises on an illegal one."""
    state = new_duel(seed, dealer)
    for action in actions:
        state = apply(state, action)
    return state
