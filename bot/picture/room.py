"""The table of a Scoundrel game as a picture: where every card goes (``room_layout``) and the PNG
(``render_room``).

The layout is a plain model (boxes and the card in each) so tests can check what is drawn where without
reading pixels; ``render_room`` only paints it. Its words are written in the reader's language (``tr``, a
``bot.i18n.messages.Messages``, English by default) and measured: a chip, label or banner too wide for its place is
drawn smaller. 800 × 368 px, shown about 280 px wide on a phone::

    ┌────────────────────────────────────────────┬──────────────┐
    │  room slot 1   2   3   4                   │ weapon with  │
    │                                            │ its kills    │
    ├────────┬───────────────────────────────────┤ fanned over  │
    │dungeon │ health: number and bar            │ it           │
    │ stack  │ chips (avoid, reach, final, loop) │              │
    │        │ or the phase: merchant, underworld│              │
    └────────┴───────────────────────────────────┴──────────────┘
"""

from __future__ import annotations

from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.engine import DEAD, WON, State
from bot.engine.cards import Card
from bot.engine.game import AT_CROSSROADS, AT_MERCHANT, AT_NECROMANCER, IN_UNDERWORLD, NECROMANCER_COST
from bot.engine.rules import LOWER_OR_EQUAL, MAX_LOOPS
from bot.i18n.messages import ENGLISH, Messages

from .draw import (
    BAR_EMPTY,
    CHIP_OFF,
    CHIP_ON,
    CHIP_WARN,
    FELT,
    GOLD,
    HEALTH,
    HEALTH_LOW,
    MUTED,
    WHITE,
    card_back,
    card_face,
    chip,
    empty_place,
    fitting,
    font,
    text_centered,
    to_png,
)

WIDTH, HEIGHT = 800, 368  # 2.2 : 1, about 280 × 127 px on a phone
FILENAME = "table.png"

MARGIN = 16
CARD_W, CARD_H = 120, 160
ROOM_SLOTS = 4
ROOM_STEP = CARD_W + 12
WEAPON_X = MARGIN + ROOM_SLOTS * ROOM_STEP + 8  # 552
KILL_DX, KILL_DY = 22, 30  # a kill's offset over the previous card: its corner (rank and suit) stays visible
MINI_W, MINI_H = 56, 78
MINI_BOTTOM = 10  # the phase row's small cards sit this far above the bottom edge
LOWER_Y = MARGIN + CARD_H + 20  # 196: the row under the room
DUNGEON_W, DUNGEON_H = 96, 132
PANEL_X = MARGIN + DUNGEON_W + 24  # 136: health, chips and phases
PANEL_RIGHT = WEAPON_X - 20  # 532
HEALTH_FONT, CHIP_FONT = 48, 30  # shown at about a third of their size on a phone


class Box(NamedTuple):
    x: int
    y: int
    w: int
    h: int

    @property
    def centre(self) -> tuple[int, int]:
        return self.x + self.w // 2, self.y + self.h // 2


class Place(NamedTuple):
    """One card place of the picture; ``card`` None is an empty place (a card resolved this turn)."""

    role: str  # "room", "weapon", "kill", "offer" (merchant), "above" (the room above the underworld)
    index: int  # type: ignore[assignment]  # a field, hiding tuple.index
    box: Box
    card: Card | None


class Chip(NamedTuple):
    text: str
    tone: str  # "on", "off", "warn", "gold"


class RoomLayout(NamedTuple):
    places: tuple[Place, ...]
    dungeon: int  # cards left in the dungeon
    health: int
    max_health: int
    chips: tuple[Chip, ...]
    phase: str | None  # the label over the phase row (merchant, underworld), or None
    banner: str | None  # across the room when the game is over or a loop is cleared
    banner_tone: str


def _kill_offsets(count: int) -> tuple[int, int]:
    """The fan's step: the full step while it fits, then squeezed so the last kill stays on the picture."""
    if count == 0:
        return KILL_DX, KILL_DY
    room_x = WIDTH - MARGIN - CARD_W - WEAPON_X
    room_y = HEIGHT - MARGIN - CARD_H - MARGIN - 12
    return min(KILL_DX, room_x // count), min(KILL_DY, room_y // count)


def room_layout(state: State, *, abandoned: bool = False, tr: Messages = ENGLISH) -> RoomLayout:
    places: list[Place] = []
    phase = state.pending[0] if state.pending else None
    room = state.room if phase != AT_CROSSROADS else ()
    for i in range(max(ROOM_SLOTS, len(room))):
        card = room[i] if i < len(room) else None
        places.append(Place("room", i, Box(MARGIN + i * ROOM_STEP, MARGIN, CARD_W, CARD_H), card))
    places.append(Place("weapon", 0, Box(WEAPON_X, MARGIN, CARD_W, CARD_H), state.weapon))
    if state.weapon is not None:
        dx, dy = _kill_offsets(len(state.kills))
        for k, kill in enumerate(state.kills, start=1):
            places.append(Place("kill", k - 1, Box(WEAPON_X + k * dx, MARGIN + 12 + k * dy, CARD_W, CARD_H), kill))
    label = None
    if phase == AT_MERCHANT:
        label = tr("MERCHANT · buy one")
        for i, card in enumerate(state.pending[1]):
            places.append(Place("offer", i, Box(PANEL_X + i * (MINI_W + 6), HEIGHT - MINI_BOTTOM - MINI_H,
                                                MINI_W, MINI_H), card))
    elif phase == IN_UNDERWORLD:
        label = tr("UNDERWORLD · the room above")
        for i, card in enumerate(state.pending[1]):
            places.append(Place("above", i, Box(PANEL_X + i * (MINI_W + 6), HEIGHT - MINI_BOTTOM - MINI_H,
                                                MINI_W, MINI_H), card))
    chips = _chips(state, phase, tr)
    banner, tone = _banner(state, abandoned, phase, tr)
    return RoomLayout(tuple(places), len(state.dungeon), state.health, state.rules.max_health, chips, label,
                      banner, tone)


def _chips(state: State, phase: str | None, tr: Messages) -> tuple[Chip, ...]:
    chips: list[Chip] = []
    if state.over:
        pass
    elif phase == AT_NECROMANCER:
        chips.append(Chip(tr("NECROMANCER · raise 4 for {cost} ♥", cost=NECROMANCER_COST), "warn"))
        chips.append(Chip(tr("graveyard {count}", count=len(state.discard)), "off"))
    elif phase is None:
        if state.final_room:  # nothing left to avoid into
            chips.append(Chip(tr("FINAL ROOM"), "gold"))
        else:
            chips.append(Chip(tr("AVOID ✓"), "on") if state.can_avoid else Chip(tr("AVOID ✗"), "off"))
    if state.weapon is not None and not state.over and phase in (None, IN_UNDERWORLD):
        last = state.last_kill
        if last is None:
            chips.append(Chip(tr("⚔ hits any"), "on"))
        else:
            limit = "≤" if state.rules.weapon_limit == LOWER_OR_EQUAL else "<"
            chips.append(Chip(tr("⚔ hits {limit}{value}", limit=limit, value=last.value), "on"))
    if state.rules.looping:
        chips.append(Chip(tr("LOOP {loop}/{loops}", loop=state.loop, loops=MAX_LOOPS), "off"))
    return tuple(chips)


def _banner(state: State, abandoned: bool, phase: str | None, tr: Messages) -> tuple[str | None, str]:
    if abandoned:
        return tr("GIVEN UP"), "off"
    if state.status == WON:
        return tr("SURVIVED · SCORE {score}", score=state.score), "gold"
    if state.status == DEAD:
        return tr("DIED · SCORE {score}", score=state.score), "dead"
    if phase == AT_CROSSROADS:
        return tr("LOOP {loop} CLEARED", loop=state.loop), "gold"
    return None, ""


_TONES = {"on": CHIP_ON, "off": CHIP_OFF, "warn": CHIP_WARN, "gold": (150, 110, 20), "dead": (120, 20, 28)}


def render_room(state: State, *, abandoned: bool = False, tr: Messages = ENGLISH) -> bytes:
    """The table as PNG bytes, its words in ``tr``'s language; the same state and language give the same bytes."""
    return to_png(paint(room_layout(state, abandoned=abandoned, tr=tr), tr))


CHIP_ROWS = 2  # rows of chips under the health bar
SMALLEST_CHIP = 14


def _chip_rows(chips: tuple[Chip, ...], size: int, wrap_at: int) -> list[list[tuple[Chip, int]]]:
    """The chips in rows from the panel's left edge, each with its width: a chip that would end past ``wrap_at``
    starts a row."""
    rows: list[list[tuple[Chip, int]]] = []
    x = PANEL_X
    for c in chips:
        width = int(font(size).getlength(c.text)) + 24
        if not rows or (x + width > wrap_at and x > PANEL_X):
            rows.append([])
            x = PANEL_X
        rows[-1].append((c, width))
        x += width + 12
    return rows


def _fitted_chip_rows(chips: tuple[Chip, ...], right: int) -> tuple[int, list]:
    """The largest chip size whose rows fit under the health bar and end before ``right``, and those rows: rows
    end with the health bar where they can, else run on to ``right``."""
    size = CHIP_FONT
    while True:
        for wrap_at in (PANEL_RIGHT, right):
            rows = _chip_rows(chips, size, wrap_at)
            ends = [PANEL_X + sum(w for _, w in row) + 12 * (len(row) - 1) for row in rows]
            if len(rows) <= CHIP_ROWS and all(end <= right for end in ends):
                return size, rows
        if size <= SMALLEST_CHIP:
            return size, rows
        size -= 2


def paint(layout: RoomLayout, tr: Messages = ENGLISH) -> Image.Image:
    img = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    d = ImageDraw.Draw(img)
    for place in layout.places:
        x, y, w, h = place.box
        if place.card is None:
            img.paste(empty := empty_place(w, h), (x, y), empty)
            if place.role == "weapon":
                _paint_no_weapon(d, place.box, tr)
            continue
        face = card_face(place.card, w, h, tr)
        img.paste(face, (x, y), face)
    _paint_dungeon(img, d, layout.dungeon, tr)
    _paint_health(d, layout.health, layout.max_health)
    # Right of the panel: the kills fanned under the weapon, or free felt when there are none.
    right = PANEL_RIGHT if any(p.role == "kill" for p in layout.places) else WIDTH - MARGIN
    row_y = LOWER_Y + 56
    if layout.phase:
        row_y = LOWER_Y + 50
        label_size = fitting(layout.phase, 22, WEAPON_X - 8 - PANEL_X, smallest=14)
        d.text((PANEL_X, row_y), layout.phase, font=font(label_size), fill=GOLD)
        beside = PANEL_X + int(d.textlength(layout.phase, font=font(label_size))) + 12
        minis = [p.box for p in layout.places if p.role in ("offer", "above")]
        stack_x, stack_y = max(b.x + b.w for b in minis) + 10 if minis else PANEL_X, HEIGHT - MINI_BOTTOM - MINI_H
        for c in layout.chips:  # beside the phase's label, else stacked beside the small cards
            width = int(d.textlength(c.text, font=font(18))) + 24
            if beside + width <= PANEL_RIGHT:
                beside = chip(d, beside, row_y - 5, c.text, _TONES[c.tone], size=18, height=32) + 8
            else:
                size = fitting(c.text, 18, right - stack_x - 24, smallest=11)
                chip(d, stack_x, stack_y, c.text, _TONES[c.tone], size=size, height=32)
                stack_y += 40
    else:
        size, rows = _fitted_chip_rows(layout.chips, right)
        for r, row in enumerate(rows):
            x = PANEL_X
            for c, _width in row:
                x = chip(d, x, row_y + 60 * r, c.text, _TONES[c.tone], size=size, height=52) + 12
    if layout.banner:
        _paint_banner(d, layout.banner, _TONES[layout.banner_tone])
    return img


def _paint_no_weapon(d: ImageDraw.ImageDraw, box: Box, tr: Messages) -> None:
    """The empty weapon place says so on two lines, each as large as fits."""
    lines = tr("no\nweapon").split("\n")[:2]
    x, y, w, h = box
    for line, size, dy in zip(lines, (28, 23), (-16, 16) if len(lines) == 2 else (0,), strict=False):
        text_centered(d, x + w / 2, y + h / 2 + dy, line, fitting(line, size, w - 12, smallest=12), MUTED)


def _paint_dungeon(img: Image.Image, d: ImageDraw.ImageDraw, count: int, tr: Messages) -> None:
    x, y = MARGIN, LOWER_Y - 6
    if count == 0:
        img.paste(empty := empty_place(DUNGEON_W, DUNGEON_H), (x, y), empty)
    else:
        back = card_back(DUNGEON_W, DUNGEON_H)
        layers = min(3, (count + 9) // 10)
        for i in range(layers - 1, -1, -1):
            img.paste(back, (x + i * 4, y + i * 4), back)
    label_y = y + DUNGEON_H // 2
    d.rounded_rectangle((x + 8, label_y - 32, x + DUNGEON_W - 8, label_y + 32), radius=12, fill=(20, 20, 24))
    text_centered(d, x + DUNGEON_W / 2, label_y - 8, str(count), 36, WHITE)
    left = tr("left")  # cards left in the dungeon, under their number
    text_centered(d, x + DUNGEON_W / 2, label_y + 20, left, fitting(left, 17, DUNGEON_W - 20, smallest=10), MUTED)


def health_bar(health: int, maximum: int) -> tuple[Box, int]:
    """The bar's box and the x where its filled part ends (its left edge when empty)."""
    text_width = int(font(HEALTH_FONT).getlength(health_text(health, maximum)))
    x = PANEL_X + max(150, text_width + 16)
    box = Box(x, LOWER_Y + 4, PANEL_RIGHT - x, 36)
    share = max(0, min(health, maximum)) / maximum
    return box, x + (max(28, round(box.w * share)) if share > 0 else 0)


def health_text(health: int, maximum: int) -> str:
    return f"♥ {max(health, 0)}/{maximum}"


def _paint_health(d: ImageDraw.ImageDraw, health: int, maximum: int) -> None:
    d.text((PANEL_X - 4, LOWER_Y + 22), health_text(health, maximum), font=font(HEALTH_FONT), fill=WHITE,
           anchor="lm")
    box, filled = health_bar(health, maximum)
    d.rounded_rectangle((box.x, box.y, box.x + box.w, box.y + box.h), radius=18, fill=BAR_EMPTY)
    if filled > box.x:
        low = health <= maximum * 0.3
        d.rounded_rectangle((box.x, box.y, filled, box.y + box.h), radius=18, fill=HEALTH_LOW if low else HEALTH)


def _paint_banner(d: ImageDraw.ImageDraw, text: str, fill) -> None:
    y = MARGIN + CARD_H // 2
    size = 34
    while size > 16 and d.textlength(text, font=font(size)) > WEAPON_X - 2 * MARGIN - 48:
        size -= 2
    width = int(d.textlength(text, font=font(size))) + 48
    x = (WEAPON_X - 4 - width) // 2
    d.rounded_rectangle((x, y - 34, x + width, y + 34), radius=16, fill=fill, outline=WHITE, width=3)
    d.text((x + width / 2, y), text, font=font(size), fill=WHITE, anchor="mm")


__all__ = ["FILENAME", "HEIGHT", "WIDTH", "Box", "Chip", "Place", "RoomLayout", "health_bar", "paint",
           "render_room", "room_layout"]
