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

from functools import cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.duel.game import PAIRS, PLACING, DuelState
from bot.engine.cards import MONSTER, POTION
from bot.engine.cards import Card as TableCard
from bot.i18n.messages import ENGLISH, Messages

from .draw import (
    CHIP_OFF,
    FACE,
    FACE_EDGE,
    FELT,
    FELT_DARK,
    FELT_LINE,
    GOLD,
    MUTED,
    PLAYER_COLOURS,
    WHITE,
    chip,
    fan_face,
    font,
    to_png,
)
from .room import Box

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
    card: object  # bot.duel.cards.Card


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


@cache
def _face(card) -> Image.Image:
    """A duel card drawn like a table card: the same face, red or black, rank in the corner."""
    kind = POTION if card.suit in "DH" else MONSTER  # only the colour matters here
    return fan_face(TableCard(card.suit, card.rank, kind), CARD_W, CARD_H)


def render_duel(state: DuelState, tr: Messages = ENGLISH) -> bytes:
    return to_png(paint_duel(duel_layout(state, tr)))


def paint_duel(layout: DuelLayout) -> Image.Image:
    img = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    d = ImageDraw.Draw(img)
    for player in (0, 1):
        tone = PLAYER_COLOURS[player] if layout.actor in (None, player) else CHIP_OFF
        text = layout.players[player]
        if player == 0:
            chip(d, MARGIN, 8, text, tone, size=20, height=36)
        else:
            width = int(d.textlength(text, font=font(20))) + 24
            chip(d, WIDTH - MARGIN - width, 8, text, tone, size=20, height=36)
    if layout.actor is None:
        d.text((CENTRE, 26), layout.turn_text, font=font(20), fill=MUTED, anchor="mm")
    for pair in range(PAIRS):
        y = ROW_Y + pair * ROW_H
        d.rounded_rectangle((MARGIN - 6, y + 2, WIDTH - MARGIN + 6, y + ROW_H - 2), radius=12, fill=FELT_DARK)
    for player in (0, 1):
        for pair in range(PAIRS):
            text, finished = layout.marks[player * PAIRS + pair]
            if finished:
                y = ROW_Y + pair * ROW_H
                x0, x1 = (MARGIN - 4, CENTRE - DIE // 2 - 8) if player == 0 else (CENTRE + DIE // 2 + 8,
                                                                                  WIDTH - MARGIN + 4)
                d.rounded_rectangle((x0, y + 4, x1, y + ROW_H - 4), radius=10, outline=GOLD, width=3)
    for place in layout.places:
        face = _face(place.card)
        img.paste(face, (place.box.x, place.box.y), face)
    for player in (0, 1):
        for pair in range(PAIRS):
            text, finished = layout.marks[player * PAIRS + pair]
            label = (text + (" ✓" if finished else "")).strip()
            if label:
                cy = ROW_Y + pair * ROW_H + ROW_H // 2
                x = CENTRE - DIE // 2 - 8 if player == 0 else CENTRE + DIE // 2 + 8
                d.text((x, cy), label, font=font(22), fill=GOLD if finished else WHITE,
                       anchor="rm" if player == 0 else "lm")
    for box, value, closed in layout.dice:
        if closed:
            d.rounded_rectangle((box.x, box.y, box.x + box.w, box.y + box.h), radius=12, outline=FELT_LINE, width=3)
            d.text(box.centre, "✖", font=font(26), fill=MUTED, anchor="mm")
        elif value is None:
            d.rounded_rectangle((box.x, box.y, box.x + box.w, box.y + box.h), radius=12, outline=FELT_LINE, width=3)
        else:
            d.rounded_rectangle((box.x, box.y, box.x + box.w, box.y + box.h), radius=12, fill=FACE,
                                outline=FACE_EDGE, width=2)
            d.text(box.centre, str(value), font=font(38), fill=(28, 28, 32), anchor="mm")
    d.text((CENTRE, HEIGHT - 20), layout.footer, font=_fitting(d, layout.footer, 20, WIDTH - 2 * MARGIN), fill=MUTED,
           anchor="mm")
    return img


def _fitting(d: ImageDraw.ImageDraw, text: str, size: int, width: int):
    """The font of ``size``, or a smaller one if ``text`` would be wider than ``width`` (longer words of another
    language get smaller rather than running off the picture)."""
    while size > 12 and d.textlength(text, font=font(size)) > width:
        size -= 1
    return font(size)


__all__ = ["FILENAME", "HEIGHT", "WIDTH", "DuelLayout", "DuelPlace", "duel_layout", "paint_duel", "render_duel"]
