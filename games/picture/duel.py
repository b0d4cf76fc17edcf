"""The duel board as a picture: four pairs of columns, each pair around its die, both players face to face.

``duel_layout(state, tr)`` places every card (a plain model the tests read) and words it in ``tr``'s language;
``render_duel(state, tr)`` paints it. A column shows what play needs: its last card, large (rank over suit), the
cards under it as edges, and its mark (direction and length, "↑5", with "✓" once finished). No word is drawn
smaller than ``legible.smallest_size(WIDTH)`` (27 px, 11 px on a phone); the stock, the stolen pile and the hands
are counted in the message's footer. Player 1's columns grow from the left edge towards the dice, player 2's
from the right edge::

    PLAYER 1                 turn 7               ▸ PLAYER 2
    ▯▯▯[4♦] ↑4             ( 5 )             ↓3 ▯▯[J♦]
    ...                                   (four pairs)
"""

from __future__ import annotations

from typing import NamedTuple

from PIL import Image

from games.duel.game import PAIRS, DuelState
from games.i18n.messages import ENGLISH, Messages
from games.picture import duel_tiles, tiles
from games.picture.draw import CHIP_OFF, GOLD, MUTED, PLAYER_COLOURS, WHITE, text_length, to_png
from games.picture.legible import Word, smallest_size
from games.picture.room import Box

WIDTH = 640
FILENAME = "duel.png"
SMALLEST = smallest_size(WIDTH)  # 27 px: 11 px on a phone
MARGIN = 14
CARD_W, CARD_H = 74, 104
ROW_Y, ROW_H = 54, 124
HEIGHT = ROW_Y + PAIRS * ROW_H + 6  # 556: a phone shows it 270 × 235; a replay adds its caption
DIE = 60
CENTRE = WIDTH // 2
WORD_FONT = SMALLEST + 1  # the chips, the marks and the turn
MARK_W = int(text_length("↑13 ✓", WORD_FONT)) + 4  # the widest mark, beside the die
SIDE = CENTRE - DIE // 2 - 8 - MARK_W - MARGIN  # width a column may take
STEP = 12  # an earlier card's edge showing under the next


class DuelPlace(NamedTuple):
    player: int
    pair: int
    index: int  # type: ignore[assignment]  # a field, hiding tuple.index
    box: Box
    card: object  # games.duel.cards.Card
    top: bool = True  # the column's last card, shown whole; the ones under it show only their edge


class DuelLayout(NamedTuple):
    places: tuple[DuelPlace, ...]
    dice: tuple[tuple[Box, int | None, bool], ...]  # per pair: the die's box, its value, closed
    marks: tuple[tuple[str, bool], ...]  # per (player, pair) in order p0 pairs, p1 pairs: "↑4" and finished
    actor: int | None
    turn: int
    players: tuple[str, ...] = ("PLAYER 1", "PLAYER 2")  # each side's chip, "▸" before the one to play
    turn_text: str = ""  # shown between the chips once the duel is over

    def words(self) -> tuple[Word, ...]:
        """Every text the board shows and its font size: the chips, the turn, the marks, the dice, the cards."""
        words = [Word(p, WORD_FONT) for p in self.players] + [Word(m, WORD_FONT) for m in self.mark_texts() if m]
        if self.actor is None:
            words.append(Word(self.turn_text, WORD_FONT))
        words += [Word(str(value), duel_tiles.DIE_FONT) for _, value, closed in self.dice
                  if value is not None and not closed]
        words += [Word(text, duel_tiles.INDEX_FONT) for p in self.places if p.top
                  for text in duel_tiles.index_texts(p.card)]  # type: ignore[arg-type]
        return tuple(words)

    def mark_texts(self) -> tuple[str, ...]:
        return tuple((text + (" ✓" if finished else "")).strip() for text, finished in self.marks)


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
                places.append(DuelPlace(player, pair, i, Box(x, y, CARD_W, CARD_H), card,
                                        i == len(column.cards) - 1))
            arrow = {1: "↑", -1: "↓", 0: ""}[column.direction]
            marks.append((f"{arrow}{len(column.cards)}" if column.cards else "", column.finished))
    for pair in range(PAIRS):
        y = ROW_Y + pair * ROW_H + (ROW_H - DIE) // 2
        dice.append((Box(CENTRE - DIE // 2, y, DIE, DIE), state.die_on(pair), state.pair_closed(pair)))
    actor = None if state.over else state.actor
    players = tuple(("▸ " if actor == player else "") + tr("PLAYER {number}", number=player + 1) for player in (0, 1))
    return DuelLayout(tuple(places), tuple(dice), tuple(marks), actor, state.turn, players,
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
        tiles.text_tile(layout.turn_text, WORD_FONT, MUTED, "mm").paste(img, CENTRE, 27)
    for player in (0, 1):
        tone = PLAYER_COLOURS[player] if layout.actor in (None, player) else CHIP_OFF
        text = layout.players[player]
        x = MARGIN if player == 0 else WIDTH - MARGIN - tiles.chip_width(text, WORD_FONT)
        tiles.chip_tile(text, tone, WORD_FONT, 42).paste(img, x, 6)
    for pair in range(PAIRS):
        y = ROW_Y + pair * ROW_H
        duel_tiles.band(BAND_W, BAND_H, _outlines(layout, pair)).paste(img, BAND_X, y + BAND_DY)
    for place in layout.places:
        duel_tiles.card(place.card, CARD_W, CARD_H, place.top).paste(img, place.box.x, place.box.y)
    for index, label in enumerate(layout.mark_texts()):
        player, pair = divmod(index, PAIRS)
        if label:
            finished = layout.marks[index][1]
            cy = ROW_Y + pair * ROW_H + ROW_H // 2
            x = CENTRE - DIE // 2 - 8 if player == 0 else CENTRE + DIE // 2 + 8
            duel_tiles.mark(label, WORD_FONT, GOLD if finished else WHITE, "rm" if player == 0 else "lm",
                            finished).paste(img, x, cy)
    for box, value, closed in layout.dice:
        duel_tiles.die(value, closed, DIE).paste(img, box.x, box.y)
    return img


def _outlines(layout: DuelLayout, pair: int) -> tuple[tuple[int, int, int, int], ...]:
    """The gold outlines of a row's finished columns, in its band's pixels."""
    sides = ((MARGIN - 4, CENTRE - DIE // 2 - 8), (CENTRE + DIE // 2 + 8, WIDTH - MARGIN + 4))
    return tuple((x0 - BAND_X, 4 - BAND_DY, x1 - BAND_X, ROW_H - 4 - BAND_DY)
                 for player, (x0, x1) in enumerate(sides) if layout.marks[player * PAIRS + pair][1])


__all__ = ["FILENAME", "HEIGHT", "WIDTH", "DuelLayout", "DuelPlace", "duel_layout", "paint_duel", "render_duel"]
