"""Words for the duel: board lines and typed input, shared by the terminal and the Discord embed."""

from __future__ import annotations

from .actions import DuelAction, build, done, finish, place, steal
from .cards import SUITS, Card
from .game import OVER, PAIRS, PLACING, TARGETS, Column, DuelState

ARROWS = {1: "↑", -1: "↓", 0: ""}
_RANK_WORDS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def column_text(column: Column) -> str:
    if not column.cards:
        return "(empty)"
    text = " ".join(card.label for card in column.cards)
    marks = ARROWS[column.direction]
    if column.finished:
        marks = (marks + " ✅ finished").strip()
    return f"{text} {marks}".rstrip() + f" [{len(column.cards)}]"


def event_text(event: str, names=("Player 1", "Player 2")) -> str:
    """An engine event with the players' names put in (events name players as {0} and {1})."""
    text = event.format(*names)
    return text[:1].upper() + text[1:]


def hand_text(hand) -> str:
    return " ".join(card.label for card in hand) or "(no cards)"


def die_text(state: DuelState, pair: int) -> str:
    value = state.die_on(pair)
    if value is not None:
        return f"🎲{value}"
    return "✖ closed" if state.pair_closed(pair) else "no die"


def phase_text(state: DuelState, names=("Player 1", "Player 2")) -> str:
    if state.phase == OVER:
        return f"{names[state.winner]} wins!"
    who = names[state.actor]
    if state.phase == PLACING:
        free = [str(v) for v, where in zip(state.dice, state.placed, strict=True) if where == -1]
        return f"{who} rolled {' '.join(map(str, state.dice))} and places the dice (left to place: {' '.join(free)})"
    role = "roller" if state.actor == state.roller else "non-roller"
    return f"{who} ({role}) plays cards"


def board_lines(state: DuelState, names=("Player 1", "Player 2")) -> list[str]:
    lines = [f"Turn {state.turn} · roller: {names[state.roller]} · stock {len(state.stock)} · "
             f"stolen pile {len(state.stolen)} · hands {len(state.hands[0])}/{len(state.hands[1])}"]
    for pair in range(PAIRS):
        lines.append(f"Pair {pair + 1} [{die_text(state, pair)}]  {names[0]}: {column_text(state.columns[0][pair])}"
                     f"  |  {names[1]}: {column_text(state.columns[1][pair])}")
    return lines


def parse_card(text: str) -> Card:
    """A card as typed: ``J♥``, ``jh``, ``10s``, ``h11`` or the code ``H11``."""
    raw = text.strip().upper().replace("♣", "C").replace("♦", "D").replace("♥", "H").replace("♠", "S")
    if raw[:1] in SUITS and raw[1:].isdigit():
        return Card.parse(raw)
    rank, suit = raw[:-1], raw[-1:]
    if suit not in SUITS:
        raise ValueError(f"{text!r} is not a card: write it like J♥, jh, 10s or A♠")
    value = _RANK_WORDS.get(rank) or (int(rank) if rank.isdigit() else 0)
    if not 1 <= value <= 13:
        raise ValueError(f"{text!r} is not a card: ranks are A, 2-10, J, Q, K")
    return Card(value, suit)


def _pair(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= PAIRS:
        raise ValueError(f"{text!r} is not a pair: pairs are 1-{PAIRS}")
    return int(text) - 1


def parse_command(text: str) -> DuelAction:
    """Terminal moves: ``p DIE PAIR``, ``b PAIR CARD``, ``s PAIR CARD``, ``f PAIR``, ``d`` (1-based numbers)."""
    words = text.split()
    if not words:
        raise ValueError("type a move (h for help)")
    verb, args = words[0].lower(), words[1:]
    if verb == "d" and not args:
        return done()
    if verb == "p" and len(args) == 2 and args[0].isdigit():
        return place(int(args[0]) - 1, _pair(args[1]))
    if verb in ("b", "s") and len(args) == 2:
        return (build if verb == "b" else steal)(_pair(args[0]), parse_card(args[1]))
    if verb == "f" and len(args) == 1:
        return finish(_pair(args[0]))
    raise ValueError(f"{text!r} is not a move (h for help)")


def rules_text() -> str:
    """The duel's rules for players (as in docs/RULES.md), built from the engine's numbers."""
    from .game import ANY_CARD_DIE, DICE, HAND_SIZE, MIN_FINISH

    return f"""**Goal:** be first to finish four columns: one of {TARGETS[0]}+ cards, two of {TARGETS[1]}+, one of \
{TARGETS[3]}+. A longer column may count for any target it reaches.
**Deal:** {HAND_SIZE} cards each, one base card under each of your {PAIRS} columns; the rest is the stock. Your \
column and your opponent's facing it form a *pair*. Ranks wrap: K is next to A.
**Turn:** the roller rolls {DICE} dice (one fewer for each pair whose two columns are finished, at least one) and \
puts each on a different pair. Then the non-roller plays, then the roller. Then both draw back to {HAND_SIZE}, \
non-roller first, and the roles swap.
**Playing:** only on pairs with a die. On each such pair either *build* or *steal*, not both:
• Build on your own column: up to the die's number of cards. A card must match the last card's rank or be one \
step up or down; the first step sets the column's direction (↑/↓) and later steps must follow it. An empty \
column takes any card. A die of {ANY_CARD_DIE}: exactly one card of any rank, and the column loses its direction.
• Steal: play a card of the same rank as your opponent's last card; their column and your card go to the \
stolen pile (shuffled into the stock when it runs out).
**Finishing:** during your play, declare a column of {MIN_FINISH}+ cards finished, as long as your finished \
columns still fit the goal. Finished columns can't be built on or stolen. Finishing your fourth wins at once.
Run out of cards during your play and you draw {HAND_SIZE} more. You may end your play (Done) whenever you like; \
either player may resign at any time."""
