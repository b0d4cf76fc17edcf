"""Words for the duel: board lines and typed input, shared by the terminal and the Discord embed.

Each function takes the reader's ``Messages`` (English by default: the terminal duel is English).
"""

from __future__ import annotations

from games.duel.actions import DuelAction, build, done, finish, place, steal
from games.duel.cards import SUITS, Card
from games.duel.game import OVER, PAIRS, PLACING, TARGETS, Column, DuelState
from games.engine.digits import whole_number
from games.i18n import N_
from games.i18n.messages import ENGLISH, Messages
from games.i18n.phrase import Phrase, translated

ARROWS = {1: "↑", -1: "↓", 0: ""}
_RANK_WORDS = {"A": 1, "J": 11, "Q": 12, "K": 13}
PLAYER_NAMES = (N_("Player 1"), N_("Player 2"))


def column_text(column: Column, tr: Messages = ENGLISH) -> str:
    if not column.cards:
        return tr("(empty)")
    text = " ".join(card.label for card in column.cards)
    marks = ARROWS[column.direction]
    if column.finished:
        marks = (marks + " " + tr("✅ finished")).strip()
    return f"{text} {marks}".rstrip() + f" [{len(column.cards)}]"


def event_text(event: str, names=None, tr: Messages = ENGLISH) -> str:
    """An engine event in ``tr``'s language with the players' names put in (events name players as {0} and {1})."""
    text = translated(event, tr) if isinstance(event, Phrase) else event  # plain: an event saved before Phrases
    text = text.format(*_names(names, tr))
    return text[:1].upper() + text[1:]


def hand_text(hand, tr: Messages = ENGLISH) -> str:
    return " ".join(card.label for card in hand) or tr("(no cards)")


def die_text(state: DuelState, pair: int, tr: Messages = ENGLISH) -> str:
    value = state.die_on(pair)
    if value is not None:
        return f"🎲{value}"
    return tr("✖ closed") if state.pair_closed(pair) else tr("no die")


def phase_text(state: DuelState, names=None, tr: Messages = ENGLISH) -> str:
    names = _names(names, tr)
    if state.phase == OVER:
        return tr("{name} wins!", name=names[state.winner])
    who = names[state.actor]
    if state.phase == PLACING:
        free = [str(v) for v, where in zip(state.dice, state.placed, strict=True) if where == -1]
        return tr("{name} rolled {dice} and places the dice (left to place: {left})", name=who,
                  dice=" ".join(map(str, state.dice)), left=" ".join(free))
    if state.actor == state.roller:
        return tr("{name} (roller) plays cards", name=who)
    return tr("{name} (non-roller) plays cards", name=who)


def board_lines(state: DuelState, names=None, tr: Messages = ENGLISH) -> list[str]:
    names = _names(names, tr)
    lines = [tr("Turn {turn} · roller: {roller} · stock {stock} · stolen pile {stolen} · hands {first}/{second}",
                turn=state.turn, roller=names[state.roller], stock=len(state.stock), stolen=len(state.stolen),
                first=len(state.hands[0]), second=len(state.hands[1]))]
    for pair in range(PAIRS):
        lines.append(tr("Pair {pair} [{die}]  {first}: {first_column}  |  {second}: {second_column}",
                        pair=pair + 1, die=die_text(state, pair, tr), first=names[0],
                        first_column=column_text(state.columns[0][pair], tr), second=names[1],
                        second_column=column_text(state.columns[1][pair], tr)))
    return lines


def _names(names, tr: Messages) -> tuple[str, ...]:
    """The players' names as given, or "Player 1" and "Player 2" in ``tr``'s language."""
    return tuple(tr(name) for name in PLAYER_NAMES) if names is None else tuple(names)


_SUIT_LETTERS = str.maketrans({"♣": "C", "♧": "C", "♦": "D", "♥": "H", "♠": "S", "♤": "S", "\ufe0f": None})


def parse_card(text: str) -> Card:
    """A card as typed: as it reads (``♥J``, ``♤10``), ``jh``, ``10s``, ``J♥``, ``h11`` or the code ``H11``."""
    raw = text.strip().upper().translate(_SUIT_LETTERS)
    if raw[:1] in SUITS and whole_number(raw[1:]) is not None:
        return Card.parse(raw)
    if text.strip()[:1] in "♣♧♦♥♠♤":  # suit first, as cards are written
        raw = raw[1:] + raw[:1]
    rank, suit = raw[:-1], raw[-1:]
    if suit not in SUITS:
        raise ValueError(f"{text[:12]!r} is not a card: write it like ♥️J, jh, 10s or ♤A")
    value = _RANK_WORDS.get(rank) or whole_number(rank, digits=2) or 0
    if not 1 <= value <= 13:
        raise ValueError(f"{text[:12]!r} is not a card: ranks are A, 2-10, J, Q, K")
    return Card(value, suit)


def _pair(text: str) -> int:
    pair = whole_number(text, digits=2)
    if pair is None or not 1 <= pair <= PAIRS:
        raise ValueError(f"{text[:12]!r} is not a pair: pairs are 1-{PAIRS}")
    return pair - 1


def parse_command(text: str) -> DuelAction:
    """Terminal moves: ``p DIE PAIR``, ``b PAIR CARD``, ``s PAIR CARD``, ``f PAIR``, ``d`` (1-based numbers)."""
    words = text.split()
    if not words:
        raise ValueError("type a move (h for help)")
    verb, args = words[0].lower(), words[1:]
    if verb == "d" and not args:
        return done()
    die = whole_number(args[0], digits=2) if verb == "p" and len(args) == 2 else None
    if die is not None:
        return place(die - 1, _pair(args[1]))
    if verb in ("b", "s") and len(args) == 2:
        return (build if verb == "b" else steal)(_pair(args[0]), parse_card(args[1]))
    if verb == "f" and len(args) == 1:
        return finish(_pair(args[0]))
    raise ValueError(f"{text[:20]!r} is not a move (h for help)")


def rules_text(tr: Messages = ENGLISH) -> str:
    """The duel's rules for players (as in docs/RULES.md), built from the engine's numbers."""
    from games.duel.game import ANY_CARD_DIE, DICE, HAND_SIZE, MIN_FINISH

    numbers = {"first": TARGETS[0], "second": TARGETS[1], "last": TARGETS[3], "hand": HAND_SIZE, "pairs": PAIRS,
               "dice": DICE, "any": ANY_CARD_DIE, "least": MIN_FINISH}
    paragraphs = (
        N_("**Goal:** be first to finish four columns: one of {first}+ cards, two of {second}+, one of {last}+. "
           "A longer column may count for any target it reaches."),
        N_("**Deal:** {hand} cards each, one base card under each of your {pairs} columns; the rest is the stock. "
           "Your column and your opponent's facing it form a *pair*. Ranks wrap: K is next to A."),
        N_("**Turn:** the roller rolls {dice} dice (one fewer for each pair whose two columns are finished, at "
           "least one) and puts each on a different pair. Then the non-roller plays, then the roller. Then both "
           "draw back to {hand}, non-roller first, and the roles swap."),
        N_("**Playing:** only on pairs with a die. On each such pair either *build* or *steal*, not both:"),
        N_("• Build on your own column: up to the die's number of cards. A card must match the last card's rank "
           "or be one step up or down; the first step sets the column's direction (↑/↓) and later steps must "
           "follow it. An empty column takes any card. A die of {any}: exactly one card of any rank, and the "
           "column loses its direction."),
        N_("• Steal: play a card of the same rank as your opponent's last card; their column and your card go to "
           "the stolen pile (shuffled into the stock when it runs out)."),
        N_("**Finishing:** during your play, declare a column of {least}+ cards finished, as long as your finished "
           "columns still fit the goal. Finished columns can't be built on or stolen. Finishing your fourth wins "
           "at once."),
        N_("Run out of cards during your play and you draw {hand} more. You may end your play (Done) whenever you "
           "like; either player may resign at any time."),
    )
    return "\n".join(tr(paragraph, **numbers) for paragraph in paragraphs)  # format ignores unused numbers
