"""The table of a Scoundrel game as a picture: where every card goes (``room_layout``) and the PNG
(``render_room``).

The layout is a plain model (boxes and the card in each) so tests can check what is drawn where without
reading pixels; ``render_room`` only paints it. Its words are written in the reader's language (``tr``, a
``games.i18n.messages.Messages``, English by default) and measured: a chip, label or banner too wide for its place is
drawn smaller. 800 × 368 px, shown about 280 px wide on a phone::

    ┌────────────────────────────────────────────┬──────────────┐
    │  room slot 1   2   3   4                   │ weapon with  │
    │                                            │ its kills    │
    ├────────┬───────────────────────────────────┤ fanned over  │
    │dungeon │ health: number and bar            │ it           │
    │ stack  │ chips (avoid, reach, final, loop) │              │
    │        │ or the phase: merchant, underworld│              │
    └────────┴───────────────────────────────────┴──────────────┘

A finished game's banner (or a cleared loop's) takes the first chip row, so it never covers a card: the room's
last cards stay readable under the result.
"""

from __future__ import annotations

from typing import NamedTuple

from PIL import Image

from games.engine import DEAD, WON, State
from games.engine.cards import Card
from games.engine.game import AT_CROSSROADS, AT_MERCHANT, AT_NECROMANCER, IN_UNDERWORLD, NECROMANCER_COST
from games.engine.rules import LOWER_OR_EQUAL, MAX_LOOPS
from games.i18n.messages import ENGLISH, Messages
from games.picture import tiles
from games.picture.draw import CHIP_OFF, CHIP_ON, CHIP_WARN, GOLD, fitting, text_length, to_png

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
    banner: str | None  # in the panel when the game is over or a loop is cleared
    banner_tone: str
    banner_box: Box | None = None
    banner_size: int = 0  # the banner's font size: as large as fits its box


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
    if abandoned:  # a given-up game's offer is moot: its banner takes the panel
        phase = None
    elif phase == AT_MERCHANT:
        label = tr("MERCHANT · buy one")
        for i, card in enumerate(state.pending[1]):
            places.append(Place("offer", i, Box(PANEL_X + i * (MINI_W + 6), HEIGHT - MINI_BOTTOM - MINI_H,
                                                MINI_W, MINI_H), card))
    elif phase == IN_UNDERWORLD:
        label = tr("UNDERWORLD · the room above")
        for i, card in enumerate(state.pending[1]):
            places.append(Place("above", i, Box(PANEL_X + i * (MINI_W + 6), HEIGHT - MINI_BOTTOM - MINI_H,
                                                MINI_W, MINI_H), card))
    chips = _chips(state, phase, abandoned, tr)
    banner, tone = _banner(state, abandoned, phase, tr)
    box, size = _banner_box(banner, _panel_right(places)) if banner else (None, 0)
    return RoomLayout(tuple(places), len(state.dungeon), state.health, state.rules.max_health, chips, label,
                      banner, tone, box, size)


def _panel_right(places: list[Place] | tuple[Place, ...]) -> int:
    """Where the panel's words may run to: the health bar's end beside fanned kills, else the picture's edge."""
    return PANEL_RIGHT if any(p.role == "kill" for p in places) else WIDTH - MARGIN


BANNER_H, BANNER_FONT, SMALLEST_BANNER = 56, 32, 16


def _banner_box(text: str, right: int) -> tuple[Box, int]:
    """The banner in the panel's first chip row, from its left edge, its words as large as fit before ``right``."""
    size = fitting(text, BANNER_FONT, right - PANEL_X - 48, smallest=SMALLEST_BANNER)
    width = min(int(text_length(text, size)) + 48, right - PANEL_X)
    return Box(PANEL_X, CHIPS_Y, width, BANNER_H), size


def _chips(state: State, phase: str | None, abandoned: bool, tr: Messages) -> tuple[Chip, ...]:
    chips: list[Chip] = []
    if state.over or abandoned:
        pass
    elif phase == AT_NECROMANCER:
        chips.append(Chip(tr("NECROMANCER · raise 4 for {cost} ♥", cost=NECROMANCER_COST), "warn"))
        chips.append(Chip(tr("graveyard {count}", count=len(state.discard)), "off"))
    elif phase is None:
        if state.final_room:  # nothing left to avoid into
            chips.append(Chip(tr("FINAL ROOM"), "gold"))
        else:
            chips.append(Chip(tr("AVOID ✓"), "on") if state.can_avoid else Chip(tr("AVOID ✗"), "off"))
    if state.weapon is not None and not (state.over or abandoned) and phase in (None, IN_UNDERWORLD):
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
    return to_png(paint(room_layout(state, abandoned=abandoned, tr=tr), tr), again_over=DEFLATE_AGAIN_OVER)


# Bytes: a table whose PNG comes out larger is deflated again, harder (``draw.to_png``). About one table in
# twenty: the busiest (fanned kills, long chips) end well under 16 KB, a Discord embed's picture loads fast.
DEFLATE_AGAIN_OVER = 15_000


CHIP_ROWS = 2  # rows of chips under the health bar
CHIPS_Y, CHIP_ROW_H, CHIP_STEP = LOWER_Y + 56, 52, 60
SMALLEST_CHIP = 14


def _chip_rows(chips: tuple[Chip, ...], size: int, wrap_at: int) -> list[list[tuple[Chip, int]]]:
    """The chips in rows from the panel's left edge, each with its width: a chip that would end past ``wrap_at``
    starts a row."""
    rows: list[list[tuple[Chip, int]]] = []
    x = PANEL_X
    for c in chips:
        width = int(text_length(c.text, size)) + 24
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
    """The table in the shared palette ("P"): pre-drawn tiles pasted in the order the pieces overlap."""
    img = tiles.canvas(WIDTH, HEIGHT).copy()
    for place in layout.places:
        x, y, w, h = place.box
        if place.card is not None:
            tile = tiles.card(place.card, w, h, tr)
        elif place.role == "weapon":
            tile = tiles.no_weapon(w, h, tr)
        else:
            tile = tiles.empty(w, h)
        tile.paste(img, x, y)
    tiles.dungeon(layout.dungeon, DUNGEON_W, DUNGEON_H, tr).paste(img, MARGIN, LOWER_Y - 6)
    box, filled = health_bar(layout.health, layout.max_health)
    tiles.health_row(layout.health, layout.max_health, (PANEL_X - 4, LOWER_Y + 22), box, filled,
                     HEALTH_FONT).paste(img, 0, 0)
    # Right of the panel: the kills fanned under the weapon, or free felt when there are none.
    right = _panel_right(layout.places)
    row_y = CHIPS_Y
    if layout.phase:
        row_y = LOWER_Y + 50
        label_size = fitting(layout.phase, 22, WEAPON_X - 8 - PANEL_X, smallest=14)
        tiles.text_tile(layout.phase, label_size, GOLD).paste(img, PANEL_X, row_y)
        beside = PANEL_X + int(text_length(layout.phase, label_size)) + 12
        minis = [p.box for p in layout.places if p.role in ("offer", "above")]
        stack_x, stack_y = max(b.x + b.w for b in minis) + 10 if minis else PANEL_X, HEIGHT - MINI_BOTTOM - MINI_H
        for c in layout.chips:  # beside the phase's label, else stacked beside the small cards
            width = tiles.chip_width(c.text, 18)
            if beside + width <= PANEL_RIGHT:
                tiles.chip_tile(c.text, _TONES[c.tone], 18, 32).paste(img, beside, row_y - 5)
                beside += width + 8
            else:
                size = fitting(c.text, 18, right - stack_x - 24, smallest=11)
                tiles.chip_tile(c.text, _TONES[c.tone], size, 32).paste(img, stack_x, stack_y)
                stack_y += 40
    else:
        size, rows = _fitted_chip_rows(layout.chips, right)
        first = 0
        if layout.banner and layout.banner_box:  # the banner takes the first row; a loop's chip goes under it
            x, y, w, h = layout.banner_box
            tiles.banner(layout.banner, _TONES[layout.banner_tone], layout.banner_size, w, h).paste(img, x, y)
            first, rows = 1, rows[:CHIP_ROWS - 1]
        for r, row in enumerate(rows, start=first):
            x = PANEL_X
            for c, width in row:
                tiles.chip_tile(c.text, _TONES[c.tone], size, CHIP_ROW_H).paste(img, x, row_y + CHIP_STEP * r)
                x += width + 12
    return img


def health_bar(health: int, maximum: int) -> tuple[Box, int]:
    """The bar's box and the x where its filled part ends (its left edge when empty)."""
    text_width = int(text_length(health_text(health, maximum), HEALTH_FONT))
    x = PANEL_X + max(150, text_width + 16)
    box = Box(x, LOWER_Y + 4, PANEL_RIGHT - x, 36)
    share = max(0, min(health, maximum)) / maximum
    return box, x + (max(28, round(box.w * share)) if share > 0 else 0)


def health_text(health: int, maximum: int) -> str:
    return f"♥ {max(health, 0)}/{maximum}"



__all__ = ["FILENAME", "HEIGHT", "WIDTH", "Box", "Chip", "Place", "RoomLayout", "health_bar", "paint",
           "render_room", "room_layout"]
