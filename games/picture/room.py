"""The table of a Scoundrel game as a picture: where every card goes (``room_layout``) and the PNG
(``render_room``).

The layout is a plain model (boxes, the card in each, every word and its size) so tests can check what is drawn
where without reading pixels; ``render_room`` only paints it. Its words are written in the reader's language
(``tr``, a ``games.i18n.messages.Messages``, English by default) and are few and large: none smaller than
``legible.smallest_size(WIDTH)`` (33 px, 11 px on a phone, which shows the picture 270 px wide). A word that
would not fit at that size is left to the message's text. 800 × 368 px::

    ┌────────────────────────────────────────────┬──────────────┐
    │  room slot 1   2   3   4                   │╭ ⚔ hits <6 ─╮│
    │                                            ││ the weapon, ││
    ├────────┬───────────────────────────────────┤│ its kills   ││
    │dungeon │ health: number and bar            ││ fanned over ││
    │ stack  │ chips (avoid or final room, loop) ││ it          ││
    │        │ or the phase: merchant, underworld│╰─────────────╯│
    └────────┴───────────────────────────────────┴──────────────┘

The weapon lies in its own gold frame, labelled with what it can still hit, so it never reads as a fifth room
card. A finished game's banner (or a cleared loop's) takes the chips' place, so it never covers a card.
"""

from __future__ import annotations

from typing import NamedTuple

from PIL import Image

from games.engine import DEAD, WON, State
from games.engine.cards import Card
from games.engine.rules import LOWER_OR_EQUAL, MAX_LOOPS
from games.engine.state import AT_CROSSROADS, AT_MERCHANT, AT_NECROMANCER, IN_UNDERWORLD
from games.i18n import N_
from games.i18n.messages import ENGLISH, Messages
from games.picture import tiles
from games.picture.draw import CHIP_OFF, CHIP_ON, CHIP_WARN, GOLD, MUTED, card_words, fitting, text_length, to_png
from games.picture.legible import Word, smallest_size

WIDTH, HEIGHT = 800, 368  # 2.2 : 1, 270 × 124 px on a phone
FILENAME = "table.png"
SMALLEST = smallest_size(WIDTH)  # 33 px: 11 px on a phone

MARGIN = 16
CARD_W, CARD_H = 120, 160
ROOM_SLOTS = 4
ROOM_STEP = CARD_W + 4
FRAME = (516, 8, 276, 352)  # the weapon's frame: x, y, width, height
# The frame's label (what the weapon can hit, or "no weapon"): its ink starts this far inside the frame's top edge,
# clear of the border even at a third of the size (a phone), and ends above the weapon's card.
LABEL_Y = FRAME[1] + 16
WEAPON_X, WEAPON_Y = FRAME[0] + 12, 60  # under the frame's label
KILL_DX, KILL_DY = 22, 36  # a kill's offset over the previous card: its corner (rank and suit) stays visible
MINI_W, MINI_H = 58, 80  # the merchant's offer and the room above the underworld: rank over suit
MINI_Y = HEIGHT - 4 - MINI_H
LOWER_Y = MARGIN + CARD_H + 20  # 196: the row under the room
DUNGEON_W, DUNGEON_H = 96, 132
PANEL_X = MARGIN + DUNGEON_W + 24  # 136: health, chips and phases
PANEL_RIGHT = MARGIN + ROOM_SLOTS * ROOM_STEP - 4  # 508: under the room's last card
HEALTH_FONT, COUNT_FONT, CHIP_FONT, LABEL_FONT = 44, 44, 34, 36

MERCHANT_LABEL = N_("MERCHANT")
UNDERWORLD_LABEL = N_("UNDERWORLD")
NECROMANCER_LABEL = N_("NECROMANCER")
NO_WEAPON = N_("no weapon")


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
    phase: str | None  # the label over the phase's small cards (merchant, underworld), or None
    banner: str | None  # in the panel when the game is over or a loop is cleared
    banner_tone: str
    banner_box: Box | None = None
    banner_size: int = 0  # the banner's font size: as large as fits its box
    banner_lines: tuple[str, ...] = ()  # the banner's words on one or two lines
    weapon_label: str = ""  # over the weapon, in its frame: what it can hit (or that there is none)
    weapon_size: int = 0
    phase_size: int = 0
    chip_size: int = 0
    chip_rows: tuple[tuple[tuple[Chip, int], ...], ...] = ()  # each row's chips and their widths

    def words(self) -> tuple[Word, ...]:
        """Every text the picture shows and its font size: cards, numbers, labels, chips and the banner."""
        words = [Word(w.text, w.size) for p in self.places if p.card is not None
                 for w in card_words(p.card, p.box.w, p.box.h)]
        words += [Word(str(self.dungeon), COUNT_FONT), Word(health_text(self.health, self.max_health), HEALTH_FONT),
                  Word(self.weapon_label, self.weapon_size)]
        words += [Word(c.text, self.chip_size) for row in self.chip_rows for c, _ in row]
        words += [Word(line, self.banner_size) for line in self.banner_lines]
        if self.phase:
            words.append(Word(self.phase, self.phase_size))
        return tuple(words)


def _kill_offsets(count: int) -> tuple[int, int]:
    """The fan's step: the full step while it fits, then squeezed so the last kill stays in the frame."""
    if count == 0:
        return KILL_DX, KILL_DY
    room_x = FRAME[0] + FRAME[2] - 8 - CARD_W - WEAPON_X
    room_y = FRAME[1] + FRAME[3] - 6 - CARD_H - WEAPON_Y
    return min(KILL_DX, room_x // count), min(KILL_DY, room_y // count)


def room_layout(state: State, *, abandoned: bool = False, tr: Messages = ENGLISH) -> RoomLayout:
    places: list[Place] = []
    phase = state.pending[0] if state.pending else None
    room = state.room if phase != AT_CROSSROADS else ()
    for i in range(max(ROOM_SLOTS, len(room))):
        card = room[i] if i < len(room) else None
        places.append(Place("room", i, Box(MARGIN + i * ROOM_STEP, MARGIN, CARD_W, CARD_H), card))
    places.append(Place("weapon", 0, Box(WEAPON_X, WEAPON_Y, CARD_W, CARD_H), state.weapon))
    if state.weapon is not None:
        dx, dy = _kill_offsets(len(state.kills))
        for k, kill in enumerate(state.kills, start=1):
            places.append(Place("kill", k - 1, Box(WEAPON_X + k * dx, WEAPON_Y + k * dy, CARD_W, CARD_H), kill))
    label = None
    if abandoned:  # a given-up game's offer is moot: its banner takes the panel
        phase = None
    elif phase in (AT_MERCHANT, IN_UNDERWORLD):
        label = tr(MERCHANT_LABEL if phase == AT_MERCHANT else UNDERWORLD_LABEL)
        role = "offer" if phase == AT_MERCHANT else "above"
        for i, card in enumerate(state.pending[1]):
            places.append(Place(role, i, Box(PANEL_X + i * (MINI_W + 6), MINI_Y, MINI_W, MINI_H), card))
    chips = _chips(state, phase, abandoned, tr)
    banner, tone = _banner(state, abandoned, phase, tr)
    box, size, lines = _banner_box(banner) if banner else (None, 0, ())
    reach = _weapon_label(state, tr)
    chip_size, rows = _fitted_chip_rows(chips) if not banner else (0, [])
    return RoomLayout(tuple(places), len(state.dungeon), state.health, state.rules.max_health, chips, label,
                      banner, tone, box, size, lines, reach, fitting(reach, LABEL_FONT, FRAME[2] - 16, SMALLEST),
                      fitting(label, LABEL_FONT, PANEL_RIGHT - PANEL_X, SMALLEST) if label else 0,
                      chip_size, tuple(tuple(row) for row in rows))


def _weapon_label(state: State, tr: Messages) -> str:
    """The frame's label: what the weapon can still hit, or that there is none."""
    if state.weapon is None:
        return tr(NO_WEAPON)
    last = state.last_kill
    limit = "≤" if state.rules.weapon_limit == LOWER_OR_EQUAL else "<"
    said = tr("⚔ hits any") if last is None else tr("⚔ hits {limit}{value}", limit=limit, value=last.value)
    if text_length(said, SMALLEST) <= FRAME[2] - 16:
        return said
    return "⚔" if last is None else f"⚔ {limit}{last.value}"  # words too long for the frame: the sign alone


BANNER_Y, BANNER_H, BANNER_FONT = LOWER_Y + 52, HEIGHT - 12 - LOWER_Y - 52, 40


def _banner_box(text: str) -> tuple[Box, int, tuple[str, ...]]:
    """The banner under the health bar, in place of the chips: its words on one line, or on two (split at its
    " · ", else at a space) when that draws them larger; as large as fits."""
    width = PANEL_RIGHT - PANEL_X - 32
    options: list[tuple[str, ...]] = [(text,)]
    if " · " in text:
        options.append(tuple(text.split(" · ", 1)))
    elif " " in text:
        words = text.split(" ")
        options.append((" ".join(words[:len(words) // 2]), " ".join(words[len(words) // 2:])))
    best = max(options, key=lambda lines: (min(fitting(line, BANNER_FONT, width, 1) for line in lines), -len(lines)))
    size = min(fitting(line, BANNER_FONT, width, SMALLEST) for line in best)
    return Box(PANEL_X, BANNER_Y, PANEL_RIGHT - PANEL_X, BANNER_H), size, best


def _chips(state: State, phase: str | None, abandoned: bool, tr: Messages) -> tuple[Chip, ...]:
    """The chips under the health bar. A phase shows its own (the loop is in the message's footer then)."""
    if state.over or abandoned:
        return ()
    if phase == AT_NECROMANCER:  # what he offers and costs: the message's status line
        return Chip(tr(NECROMANCER_LABEL), "warn"), Chip(tr("graveyard {count}", count=len(state.discard)), "off")
    if phase is not None:
        return ()
    chips: list[Chip] = []
    if state.final_room:  # nothing left to avoid into
        chips.append(Chip(tr("FINAL ROOM"), "gold"))
    else:
        chips.append(Chip(tr("AVOID ✓"), "on") if state.can_avoid else Chip(tr("AVOID ✗"), "off"))
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
CHIPS_Y, CHIP_ROW_H, CHIP_STEP = LOWER_Y + 52, 48, 56


def _chip_rows(chips: tuple[Chip, ...], size: int) -> list[list[tuple[Chip, int]]]:
    """The chips in rows from the panel's left edge, each with its width: a chip that would end past the panel's
    right edge starts a row."""
    rows: list[list[tuple[Chip, int]]] = []
    x = PANEL_X
    for c in chips:
        width = tiles.chip_width(c.text, size)
        if not rows or (x + width > PANEL_RIGHT and x > PANEL_X):
            rows.append([])
            x = PANEL_X
        rows[-1].append((c, width))
        x += width + 12
    return rows


def _fitted_chip_rows(chips: tuple[Chip, ...]) -> tuple[int, list]:
    """The largest chip size (down to ``SMALLEST``) whose rows fit under the health bar, and those rows. At the
    smallest size, a chip that still does not fit is left out (the message's text says as much)."""
    for size in range(CHIP_FONT, SMALLEST - 1, -1):
        rows = _chip_rows(chips, size)
        ends = [PANEL_X + sum(w for _, w in row) + 12 * (len(row) - 1) for row in rows]
        if len(rows) <= CHIP_ROWS and all(end <= PANEL_RIGHT for end in ends):
            return size, rows
    fitting_chips = tuple(c for c in chips if PANEL_X + tiles.chip_width(c.text, SMALLEST) <= PANEL_RIGHT)
    return SMALLEST, _chip_rows(fitting_chips, SMALLEST)[:CHIP_ROWS]


def paint(layout: RoomLayout, tr: Messages = ENGLISH) -> Image.Image:
    """The table in the shared palette ("P"): pre-drawn tiles pasted in the order the pieces overlap."""
    img = tiles.canvas(WIDTH, HEIGHT).copy()
    tiles.frame(*FRAME).paste(img, FRAME[0], FRAME[1])
    tone = GOLD if any(p.role == "weapon" and p.card is not None for p in layout.places) else MUTED
    tiles.text_tile(layout.weapon_label, layout.weapon_size, tone, "mt", "dark").paste(
        img, FRAME[0] + FRAME[2] // 2, LABEL_Y)
    for place in layout.places:
        x, y, w, h = place.box
        if place.card is not None:
            tile = tiles.card(place.card, w, h, tr)
        else:
            tile = tiles.empty(w, h)
        tile.paste(img, x, y)
    tiles.dungeon(layout.dungeon, DUNGEON_W, DUNGEON_H, COUNT_FONT).paste(img, MARGIN, LOWER_Y - 6)
    box, filled = health_bar(layout.health, layout.max_health)
    tiles.health_row(layout.health, layout.max_health, (PANEL_X - 4, LOWER_Y + 22), box, filled,
                     HEALTH_FONT).paste(img, 0, 0)
    if layout.phase:
        tiles.text_tile(layout.phase, layout.phase_size, GOLD, "ls").paste(img, PANEL_X, MINI_Y - 6)
    if layout.banner_box is not None:
        x, y, w, h = layout.banner_box
        tiles.banner(layout.banner_lines, _TONES[layout.banner_tone], layout.banner_size, w, h).paste(img, x, y)
    for r, row in enumerate(layout.chip_rows):
        x = PANEL_X
        for c, width in row:
            tiles.chip_tile(c.text, _TONES[c.tone], layout.chip_size, CHIP_ROW_H).paste(img, x, CHIPS_Y + CHIP_STEP * r)
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
