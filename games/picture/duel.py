"""The duel board as a picture: four pairs of columns, each pair around its die, both players face to face.

``duel_layout(state, tr)`` places every card (a plain model the tests read) and words it in ``tr``'s language;
``render_duel(state, tr)`` paints it.
Player 1's columns grow from the left edge towards the dice, player 2's from the right edge::

    PLAYER 1                 turn 7                 PLAYER 2
    [A♥ 2♥ 3♣ 4♦] ↑4        ( 5 )        ↓3 [K♠ Q♥ J♦]
    ...                                   (four pairs)
    stock 20 · stolen pile 3 · hands 5 / 6
"""

from __future__ import annotations

from typing import NamedTuple

from PIL import Image

from games.duel.game import PAIRS, PLACING, DuelState
from games.i18n.messages import ENGLISH, Messages
from games.picture import duel_tiles, tiles
from games.picture.draw import CHIP_OFF, GOLD, MUTED, PLAYER_COLOURS, WHITE, fitting, to_png
from games.picture.room import Box

WIDTH, HEIGHT = 640, 640  # nearly square: a phone shows it about 280 px wide
FILENAME = "duel.png"
MARGIN = 14
CARD_W, CARD_H = 74, 104
ROW_Y, ROW_H = 52, 136
DIE = 60
CENTRE = WIDTH // 2
SIDE = CENTRE - DIE // 2 - 64 - MARGIN  # width a column may fan over: 212 (the rest: its "↑5 ✓" mark)
STEP = 36  # a card's offset over the previous one in a column, while it fits (its corner index is ~30 px wide)


class DuelPlace(NamedTuple):
    player: int
    pair: int
    index: int  # type: ignore[assignment]  # a field, hiding tuple.index
    box: Box
    card: object  # games.duel.cards.Card


class DuelLayout(NamedTuple):
    places: tuple[DuelPlace, ...]
    dice: tuple[tuple[Box, int | None, bool], ...]  # per pair: the die's box, its value, closed
    marks: tuple[tuple[str, bool], ...]  # per (player, pair) in order p0 pairs, p1 pairs: "↑4" and finished
    actor: int | None
    turn: int
    footer: str
    players: tuple[str, ...] = ("PLAYER 1", "PLAYER 2")  # each side's chip, "▸ to play" included
    turn_text: str = ""  # shown between the chips once the duel is over


def _step(count: int) -> int:
    return STEP if count <= 1 else min(STEP, (SIDE - CARD_W) // (count - 1))


def duel_layout(state: DuelState, tr: Messages = ENGLISH) -> DuelLayout:
    """Where everything goes, and the picture's words in ``tr``'s language (the same state and language always
    give the same layout, so the same picture)."""
    places, marks, dice = [], [], []
    for player in (0, 1):
        for pair in range(PAIRS):
            column = state.columns[player][pair]
            step, y = _step(len(column.cards)), ROW_Y + pair * ROW_H + (ROW_H - CARD_H) // 2
            for i, card in enumerate(column.cards):
                # player 2's column is right-aligned, still laid left to right: every corner index shows
                x = MARGIN + i * step if player == 0 else WIDTH - MARGIN - CARD_W - (len(column.cards) - 1 - i) * step
                places.append(DuelPlace(player, pair, i, Box(x, y, CARD_W, CARD_H), card))
            arrow = {1: "↑", -1: "↓", 0: ""}[column.direction]
            marks.append((f"{arrow}{len(column.cards)}" if column.cards else "", column.finished))
    for pair in range(PAIRS):
        y = ROW_Y + pair * ROW_H + (ROW_H - DIE) // 2
        dice.append((Box(CENTRE - DIE // 2, y, DIE, DIE), state.die_on(pair), state.pair_closed(pair)))
    footer = tr("stock {stock} · stolen pile {stolen} · hands {first} / {second}", stock=len(state.stock),
                stolen=len(state.stolen), first=len(state.hands[0]), second=len(state.hands[1]))
    if state.phase == PLACING:
        free = [str(v) for v, where in zip(state.dice, state.placed, strict=True) if where == -1]
        if free:
            footer = tr("to place: {dice} · {rest}", dice=" ".join(free), rest=footer)
    actor = None if state.over else state.actor
    players = tuple(tr("PLAYER {number} ▸ to play", number=player + 1) if actor == player else  # no room for "turn"
                    tr("PLAYER {number}", number=player + 1) for player in (0, 1))
    return DuelLayout(tuple(places), tuple(dice), tuple(marks), actor, state.turn, footer, players,
                      tr("turn {turn}", turn=state.turn))


def render_duel(state: DuelState, tr: Messages = ENGLISH) -> bytes:
    """The board as PNG bytes, its words in ``tr``'s language; the same state and language give the same bytes."""
    return to_png(paint_duel(duel_layout(state, tr)))


BAND_X, BAND_W = MARGIN - 6, WIDTH - 2 * MARGIN + 13  # a row's dark band, its rounded corners' felt included
BAND_DY, BAND_H = 2, ROW_H - 3


def paint_duel(layout: DuelLayout) -> Image.Image:
    """The board in the shared palette ("P"): pre-drawn tiles (``duel_tiles``) pasted in the order the pieces
    overlap; a replay's frames are these pictures."""
    img = tiles.canvas(WIDTH, HEIGHT).copy()
    if layout.actor is None:
        tiles.text_tile(layout.turn_text, 20, MUTED, "mm").paste(img, CENTRE, 26)
    for player in (0, 1):
        tone = PLAYER_COLOURS[player] if layout.actor in (None, player) else CHIP_OFF
        text = layout.players[player]
        x = MARGIN if player == 0 else WIDTH - MARGIN - tiles.chip_width(text, 20)
        tiles.chip_tile(text, tone, 20, 36).paste(img, x, 8)
    for pair in range(PAIRS):
        y = ROW_Y + pair * ROW_H
        duel_tiles.band(BAND_W, BAND_H, _outlines(layout, pair)).paste(img, BAND_X, y + BAND_DY)
    for place in layout.places:
        duel_tiles.card(place.card, CARD_W, CARD_H).paste(img, place.box.x, place.box.y)
    for player in (0, 1):
        for pair in range(PAIRS):
            text, finished = layout.marks[player * PAIRS + pair]
            label = (text + (" ✓" if finished else "")).strip()
            if label:
                cy = ROW_Y + pair * ROW_H + ROW_H // 2
                x = CENTRE - DIE // 2 - 8 if player == 0 else CENTRE + DIE // 2 + 8
                duel_tiles.mark(label, 22, GOLD if finished else WHITE, "rm" if player == 0 else "lm",
                                finished).paste(img, x, cy)
    for box, value, closed in layout.dice:
        duel_tiles.die(value, closed, DIE).paste(img, box.x, box.y)
    size = fitting(layout.footer, 20, WIDTH - 2 * MARGIN, smallest=12)  # another language's words: smaller
    tiles.text_tile(layout.footer, size, MUTED, "mm").paste(img, CENTRE, HEIGHT - 20)
    return img


def _outlines(layout: DuelLayout, pair: int) -> tuple[tuple[int, int, int, int], ...]:
    """The gold outlines of a row's finished columns, in its band's pixels."""
    sides = ((MARGIN - 4, CENTRE - DIE // 2 - 8), (CENTRE + DIE // 2 + 8, WIDTH - MARGIN + 4))
    return tuple((x0 - BAND_X, 4 - BAND_DY, x1 - BAND_X, ROW_H - 4 - BAND_DY)
                 for player, (x0, x1) in enumerate(sides) if layout.marks[player * PAIRS + pair][1])


__all__ = ["FILENAME", "HEIGHT", "WIDTH", "DuelLayout", "DuelPlace", "duel_layout", "paint_duel", "render_duel"]
