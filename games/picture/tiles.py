"""The table's pieces drawn once, on the felt, in the one shared palette: a picture is then only tiles pasted
into a palette ("P") canvas, and its PNG needs no colour conversion.

Every tile is drawn with the same code and at the same sub-pixel position as the piece would be on the whole
table, then mapped onto ``draw.palette()`` (no dithering), so a tile's pixels are the pixels the piece had when
the table was drawn in colour and quantized as a whole. Cards and the banner also carry a one-bit mask of their
shape (Pillow's rounded rectangles are not antialiased, so the shape is exact): pasted with it, a card's corners
leave what lies under them (the weapon under its kills). Words sit on rectangles of felt: they are only ever
pasted over bare felt.

The caches are bounded: a card per (card, size, language); chips, labels and banners per text; the health row per
(health, maximum); the dungeon per (count, language).
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from games.engine.cards import Card
from games.i18n.messages import Messages
from games.picture.draw import (
    BAR_EMPTY,
    FELT,
    FELT_DARK,
    GOLD,
    HEALTH,
    HEALTH_LOW,
    WHITE,
    card_back,
    card_face,
    chip,
    empty_place,
    font,
    palette,
    text_centered,
    text_length,
)


class Tile(NamedTuple):
    image: Image.Image  # mode "P", the shared palette
    mask: Image.Image | None  # mode "1": the piece's shape, or None for an opaque rectangle
    dx: int = 0  # where the tile's corner lies from the point it is pasted at
    dy: int = 0

    def paste(self, canvas: Image.Image, x: int, y: int) -> None:
        canvas.paste(self.image, (x + self.dx, y + self.dy), self.mask)


def on_palette(img: Image.Image) -> Image.Image:
    """A colour picture mapped onto the shared palette, nearest colour, no dithering."""
    return img.convert("RGB").quantize(palette=palette(), dither=Image.Dither.NONE)


def felt(width: int, height: int) -> Image.Image:
    return Image.new("RGB", (width, height), FELT)


@cache
def canvas(width: int, height: int) -> Image.Image:
    """Bare felt in the palette; copied for every picture."""
    return on_palette(felt(width, height))


def _shape(alpha: Image.Image) -> Image.Image:
    return alpha.point(lambda a: 255 if a else 0).convert("1")


def _with_shape(rgba: Image.Image) -> Tile:
    base = felt(*rgba.size)
    base.paste(rgba, (0, 0), rgba)
    return Tile(on_palette(base), _shape(rgba.getchannel("A")))


@lru_cache(maxsize=2048)
def card(face: Card, width: int, height: int, tr: Messages) -> Tile:
    return _with_shape(card_face(face, width, height, tr))


@cache
def empty(width: int, height: int) -> Tile:
    return _with_shape(empty_place(width, height))


@cache
def frame(x: int, y: int, width: int, height: int) -> Tile:
    """The weapon's frame: a dark panel outlined in gold, pasted at its top-left corner."""
    img = felt(width, height)
    ImageDraw.Draw(img).rounded_rectangle((0, 0, width - 1, height - 1), radius=16, fill=FELT_DARK, outline=GOLD,
                                          width=3)
    return Tile(on_palette(img), None)


@lru_cache(maxsize=1024)
def chip_tile(text: str, fill: tuple[int, int, int], size: int, height: int) -> Tile:
    """A chip drawn at (0, 0): ``draw.chip``'s rounded label on its rectangle of felt."""
    width = int(text_length(text, size)) + 24
    img = felt(width + 1, height + 1)
    chip(ImageDraw.Draw(img), 0, 0, text, fill, size=size, height=height)
    return Tile(on_palette(img), None)


def chip_width(text: str, size: int) -> int:
    return int(text_length(text, size)) + 24


@lru_cache(maxsize=256)
def text_tile(text: str, size: int, fill: tuple[int, int, int], anchor: str = "la", ground: str = "felt") -> Tile:
    """Words drawn at an integer point with ``anchor``, on the rectangle of felt (or of the weapon frame's dark
    ground) their ink covers."""
    left, top, right, bottom = map(int, font(size).getbbox(text, anchor=anchor))  # whole pixels for FreeType
    img = Image.new("RGB", (max(1, right - left), max(1, bottom - top)), FELT if ground == "felt" else FELT_DARK)
    ImageDraw.Draw(img).text((-left, -top), text, font=font(size), fill=fill, anchor=anchor)
    return Tile(on_palette(img), None, left, top)


@lru_cache(maxsize=512)
def health_row(health: int, maximum: int, text_at: tuple[int, int], bar: tuple[int, int, int, int],
               filled: int, size: int) -> Tile:
    """The health number and its bar, pasted at (0, 0) of the table (the tile carries its own offset)."""
    text = f"♥ {max(health, 0)}/{maximum}"
    left, top, right, bottom = map(int, font(size).getbbox(text, anchor="lm"))
    bx, by, bw, bh = bar
    x0, y0 = min(text_at[0] + left, bx), min(text_at[1] + top, by)
    x1, y1 = max(text_at[0] + right, bx + bw + 1), max(text_at[1] + bottom, by + bh + 1)
    img = felt(x1 - x0, y1 - y0)
    d = ImageDraw.Draw(img)
    d.text((text_at[0] - x0, text_at[1] - y0), text, font=font(size), fill=WHITE, anchor="lm")
    d.rounded_rectangle((bx - x0, by - y0, bx + bw - x0, by + bh - y0), radius=18, fill=BAR_EMPTY)
    if filled > bx:
        low = health <= maximum * 0.3
        d.rounded_rectangle((bx - x0, by - y0, filled - x0, by + bh - y0), radius=18,
                            fill=HEALTH_LOW if low else HEALTH)
    return Tile(on_palette(img), None, x0, y0)


@lru_cache(maxsize=512)
def dungeon(count: int, width: int, height: int, size: int) -> Tile:
    """The dungeon stack (up to three backs, 4 px apart) with the count of its cards, pasted at its top-left."""
    img = felt(width + 9, height + 9)
    if count == 0:
        place = empty_place(width, height)
        img.paste(place, (0, 0), place)
    else:
        back = card_back(width, height)
        for i in range(min(3, (count + 9) // 10) - 1, -1, -1):
            img.paste(back, (i * 4, i * 4), back)
    d = ImageDraw.Draw(img)
    label_y = height // 2
    d.rounded_rectangle((8, label_y - 30, width - 8, label_y + 30), radius=12, fill=(20, 20, 24))
    text_centered(d, width / 2, label_y, str(count), size, WHITE)
    return Tile(on_palette(img), None)


@lru_cache(maxsize=256)
def banner(lines: tuple[str, ...], fill: tuple[int, int, int], size: int, width: int, height: int) -> Tile:
    """A banner's rounded box (``width`` × ``height``, its outline inside) and its lines of words, pasted at its
    top-left corner with its shape."""
    img = felt(width, height)
    shape = Image.new("1", img.size, 0)
    box = (0, 0, width - 1, height - 1)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(box, radius=16, fill=fill, outline=WHITE, width=3)
    step = size + 6
    for i, line in enumerate(lines):
        d.text((width / 2, height / 2 + (i - (len(lines) - 1) / 2) * step), line, font=font(size), fill=WHITE,
               anchor="mm")
    ImageDraw.Draw(shape).rounded_rectangle(box, radius=16, fill=1, outline=1, width=3)
    return Tile(on_palette(img), shape)
