"""The duel board's pieces drawn once in the shared palette, as ``tiles.py`` draws the table's: a board is then
tiles pasted into a palette canvas, the same pixels whether it is posted as a PNG or is a frame of a replay.

The board's rows are dark bands on the felt, so its cards, dice and column marks are drawn on the band's colour.
Cards carry a one-bit mask of their shape (their rounded rectangle is not antialiased), so a card fanned over the
one before leaves that card's corner showing; a column's mark carries the mask of its ink, so a mark running into
a long column's last card does not cover it with a box of band.

The caches are bounded: a card per (card, size); a die per (value, closed); a mark per text; four bands.
"""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageDraw

from games.duel.cards import RANK_LABELS, Card
from games.picture.draw import BLACK, FACE, FACE_EDGE, FELT, FELT_DARK, FELT_LINE, GOLD, MUTED, RED, SUIT_GLYPHS, font
from games.picture.tiles import Tile, on_palette

Box = tuple[int, int, int, int]  # left, top, right, bottom (inclusive, as Pillow draws rectangles)


@cache
def band(width: int, height: int, outlines: tuple[Box, ...] = ()) -> Tile:
    """A row of the board: a dark band with rounded corners on the felt (``width`` × ``height`` including its
    corners' felt), with a gold outline around each finished column's side (``outlines``, in the band's pixels)."""
    img = Image.new("RGB", (width, height), FELT)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, width - 1, height - 1), radius=12, fill=FELT_DARK)
    for box in outlines:
        d.rounded_rectangle(box, radius=10, outline=GOLD, width=3)
    return Tile(on_palette(img), None)


@lru_cache(maxsize=256)
def card(face: Card, width: int, height: int, top: bool = True) -> Tile:
    """A duel card on the band: a column's last card (``top``) with its rank over its suit, red or black, as
    large as the card allows; a card under it blank (only its edge shows)."""
    img = Image.new("RGB", (width, height), FELT_DARK)
    shape = Image.new("1", (width, height), 0)
    box = (0, 0, width - 1, height - 1)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(box, radius=max(4, width // 10), fill=FACE, outline=FACE_EDGE, width=2)
    ImageDraw.Draw(shape).rounded_rectangle(box, radius=max(4, width // 10), fill=1, outline=1, width=2)
    if top:
        colour = RED if face.suit in "DH" else BLACK
        rank, suit = index_texts(face)
        d.text((width / 2, height * 0.30), rank, font=font(INDEX_FONT), fill=colour, anchor="mm")
        d.text((width / 2, height * 0.72), suit, font=font(INDEX_FONT), fill=colour, anchor="mm")
    return Tile(on_palette(img), shape)


def index_texts(face: Card) -> tuple[str, str]:
    """What a column's last card shows: its rank and its suit."""
    return RANK_LABELS.get(face.rank, str(face.rank)), SUIT_GLYPHS[face.suit]


INDEX_FONT = 30  # the rank and the suit of a column's last card (``duel.INDEX_FONT``)
DIE_FONT = 38


@lru_cache(maxsize=32)
def die(value: int | None, closed: bool, size: int) -> Tile:
    """A pair's die on the band: its face with the value, an empty outline (no die this turn), or a closed pair's
    cross."""
    img = Image.new("RGB", (size + 1, size + 1), FELT_DARK)
    d = ImageDraw.Draw(img)
    centre = (size // 2, size // 2)
    if closed or value is None:
        d.rounded_rectangle((0, 0, size, size), radius=12, outline=FELT_LINE, width=3)
        if closed:
            d.text(centre, "✖", font=font(26), fill=MUTED, anchor="mm")
    else:
        d.rounded_rectangle((0, 0, size, size), radius=12, fill=FACE, outline=FACE_EDGE, width=2)
        d.text(centre, str(value), font=font(DIE_FONT), fill=BLACK, anchor="mm")
    return Tile(on_palette(img), None)


PAD = 2
OUTLINE = 3  # a finished column's gold outline: the mark stands on its inner edge


@lru_cache(maxsize=256)
def mark(text: str, size: int, fill: tuple[int, int, int], anchor: str, outlined: bool = False) -> Tile:
    """A column's mark ("↑5 ✓") on the band, drawn at an integer point with ``anchor``, masked by its ink. A
    finished column's mark starts on its outline's straight edge (right of the point for "l…" anchors, left for
    "r…"): that edge is drawn under its words, so their antialiased rim blends into the gold as on one picture."""
    left, top, right, bottom = map(int, font(size).getbbox(text, anchor=anchor))
    left, top, right, bottom = left - PAD, top - PAD, right + PAD, bottom + PAD  # ink a glyph puts past its box
    img = Image.new("RGB", (right - left, bottom - top), FELT_DARK)
    ink = Image.new("L", img.size, 0)
    if outlined:
        x = -left if anchor.startswith("l") else -left - OUTLINE + 1
        ImageDraw.Draw(img).rectangle((x, 0, x + OUTLINE - 1, img.height - 1), fill=GOLD)
        ImageDraw.Draw(ink).rectangle((x, 0, x + OUTLINE - 1, img.height - 1), fill=255)
    ImageDraw.Draw(img).text((-left, -top), text, font=font(size), fill=fill, anchor=anchor)
    ImageDraw.Draw(ink).text((-left, -top), text, font=font(size), fill=255, anchor=anchor)
    return Tile(on_palette(img), ink.point(lambda a: 255 if a else 0).convert("1"), left, top)
