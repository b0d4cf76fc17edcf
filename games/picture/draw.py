"""Drawing primitives shared by every picture: the font, the palette, card faces and backs, chips, PNG bytes.

Card faces are drawn once per (card, size, language) and cached, so a room picture is mostly pasting; they write
no words, only ranks, suits, values and signs (``card_words``). Words are measured before they are drawn
(``fitting``): a longer word in another language gets a smaller size, down to the picture's legible size
(``legible``), never cut.
"""

from __future__ import annotations

import struct
import threading
import zlib
from functools import cache, lru_cache
from pathlib import Path

from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFont

from games.engine.cards import MERCHANT, NECROMANCER, Card
from games.i18n.messages import ENGLISH, Messages
from games.picture.legible import Word

FONT_PATH = Path(__file__).with_name("fonts") / "DejaVuSans-Bold.ttf"

# A card table: green felt reads on Discord's dark and light themes alike.
FELT = (22, 74, 52)
FELT_DARK = (15, 52, 37)
FELT_LINE = (58, 120, 90)
FACE = (252, 250, 244)
FACE_EDGE = (196, 188, 170)
RED = (200, 30, 40)
BLACK = (28, 28, 32)
GOLD = (240, 196, 64)
WHITE = (245, 245, 240)
MUTED = (170, 200, 185)
HEALTH = (226, 60, 70)
HEALTH_LOW = (255, 150, 40)
BAR_EMPTY = (40, 40, 44)
BACK = (120, 36, 48)
BACK_LINE = (170, 80, 90)
CHIP_ON = (46, 160, 90)
CHIP_OFF = (70, 78, 84)
CHIP_WARN = (190, 120, 20)
PLAYER_COLOURS = ((52, 120, 220), (200, 100, 30))  # the duel's two players

SUIT_GLYPHS = {"S": "♠", "C": "♣", "H": "♥", "D": "♦"}
RED_SUITS = frozenset("HD")


_THREAD = threading.local()


def font(size: int) -> ImageFont.FreeTypeFont:
    """The font at ``size``, one per thread: FreeType draws with a face that must not be used by two threads at once
    (a duel's board and hand are drawn in worker threads side by side, replays in a thread of their own)."""
    fonts: dict[int, ImageFont.FreeTypeFont] = _THREAD.__dict__.setdefault("fonts", {})
    if size not in fonts:
        fonts[size] = ImageFont.truetype(str(FONT_PATH), size)
    return fonts[size]


def ink(card: Card) -> tuple[int, int, int]:
    """The colour a card is printed in: red for hearts and diamonds (and the red joker), else black."""
    if card.suit == "X":
        return RED if card.value == 2 else BLACK
    return RED if card.suit in RED_SUITS else BLACK


def text_centered(draw: ImageDraw.ImageDraw, cx: float, cy: float, text: str, size: int, fill) -> None:
    draw.text((cx, cy), text, font=font(size), fill=fill, anchor="mm")


@lru_cache(maxsize=8192)
def text_length(text: str, size: int) -> float:
    """How wide ``text`` is at ``size`` (measured once: a picture measures the same few words again and again)."""
    return font(size).getlength(text)


@cache
def fitting(text: str, size: int, width: float, smallest: int = 9) -> int:
    """The largest size up to ``size`` at which ``text`` is at most ``width`` pixels wide (``smallest`` at least)."""
    while size > smallest and text_length(text, size) > width:
        size -= 1
    return size


# The expansion's special cards show a sign in the middle, not a word: a word large enough to read on a phone does
# not fit a card (the message's text and buttons name them).
SIGNS = {MERCHANT: "⚖", NECROMANCER: "☠"}
JOKER_SIGN = "★"


def card_face(card: Card, width: int, height: int, tr: Messages = ENGLISH) -> Image.Image:
    """A playing card: rank and suit in the corner as large as the card allows, the suit (or the special card's
    sign) large in the middle, and the rules' value of a face or ace in the opposite corner. A mini card (wider
    than tall, or nearly) shows only its rank over its suit. ``card_words`` lists what it writes."""
    return _cached_face(card, width, height, tr)


def index_size(width: int, height: int) -> int:
    """The font size of a card's rank and suit: a full card's corner, a mini card's two lines."""
    if is_full(width, height):
        return width * 28 // 100
    return min(width * 57 // 100, height * 42 // 100)


def is_full(width: int, height: int) -> bool:
    """A full card (a room's, the weapon's) rather than a mini card (the merchant's offer, the room above)."""
    return width >= 100 and height >= width * 1.2


def card_words(card: Card, width: int, height: int) -> tuple[Word, ...]:
    """Every text ``card_face`` writes on ``card`` at this size, with its font size."""
    size = index_size(width, height)
    if card.suit == "X":
        return (Word(JOKER_SIGN, size), Word(JOKER_SIGN, width * 55 // 100))
    suit = SUIT_GLYPHS[card.suit]
    if not is_full(width, height):
        return Word(card.rank, size), Word(suit, size)
    words = [Word(card.rank + suit, size), Word(SIGNS.get(card.kind, suit), height * 40 // 100)]
    if card.rank in ("J", "Q", "K", "A") and card.kind not in SIGNS:
        words.append(Word(str(card.value), size))  # the value the rules give it (aces 14, or 1 in the full deck)
    return tuple(words)


@cache
def _cached_face(card: Card, width: int, height: int, tr: Messages) -> Image.Image:
    return _card_face(card, width, height)


@cache
def fan_face(card: Card, width: int, height: int) -> Image.Image:
    """A card made to be fanned tightly: rank over suit in a narrow top-left corner, rank and suit in the
    middle. Only its left strip shows under the next card."""
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, width - 1, height - 1), radius=max(4, width // 10), fill=FACE, outline=FACE_EDGE,
                        width=2)
    colour, size, pad = ink(card), max(12, width * 30 // 100), max(3, width // 14)
    d.text((pad, pad), card.rank, font=font(size), fill=colour)
    d.text((pad, pad + size + 2), SUIT_GLYPHS[card.suit], font=font(size), fill=colour)
    text_centered(d, width * 0.66, height * 0.45, card.rank, width * 32 // 100, colour)
    text_centered(d, width * 0.66, height * 0.75, SUIT_GLYPHS[card.suit], width * 30 // 100, colour)
    return img


def _card_face(card: Card, width: int, height: int) -> Image.Image:
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, width - 1, height - 1), radius=max(4, width // 10), fill=FACE, outline=FACE_EDGE,
                        width=2)
    colour, words = ink(card), card_words(card, width, height)
    pad = max(3, width // 20)
    if not is_full(width, height):  # rank over suit, centred
        (rank, size), (suit, _) = words
        text_centered(d, width / 2, height * 0.30, rank, size, colour)
        text_centered(d, width / 2, height * 0.72, suit, size, colour)
        return img
    (corner, size), (middle, big), *value = words
    d.text((pad, pad), corner, font=font(size), fill=colour, anchor="lt")
    text_centered(d, width / 2, height * 0.58, middle, big, colour)
    for text, value_size in value:
        d.text((width - pad, height - pad), text, font=font(value_size), fill=colour, anchor="rd")
    return img


@cache
def card_back(width: int, height: int) -> Image.Image:
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = max(4, width // 10)
    d.rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=FACE, outline=FACE_EDGE, width=2)
    inset = max(4, width // 14)
    pw, ph = width - 2 * inset, height - 2 * inset
    panel = Image.new("RGB", (pw, ph), BACK)
    pd = ImageDraw.Draw(panel)
    step = max(6, width // 8)
    for x in range(-ph, pw, step):  # a diagonal lattice
        pd.line((x, 0, x + ph, ph), fill=BACK_LINE, width=1)
        pd.line((x, ph, x + ph, 0), fill=BACK_LINE, width=1)
    mask = Image.new("L", (pw, ph), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, pw - 1, ph - 1), radius=radius // 2, fill=255)
    img.paste(panel, (inset, inset), mask)
    return img


@cache
def empty_place(width: int, height: int) -> Image.Image:
    """Where a card was: an outline on the felt."""
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, width - 1, height - 1), radius=max(4, width // 10), fill=FELT_DARK,
                        outline=FELT_LINE, width=3)
    return img


def chip(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, fill, size: int = 20, height: int = 34) -> int:
    """A rounded label; returns its right edge."""
    width = int(draw.textlength(text, font=font(size))) + 24
    draw.rounded_rectangle((x, y, x + width, y + height), radius=height // 2, fill=fill)
    draw.text((x + width / 2, y + height / 2), text, font=font(size), fill=WHITE, anchor="mm")
    return x + width


# Every colour a picture may hold: the palette's colours and the blends antialiasing makes between the pairs
# that touch. A fixed palette makes quantizing cheap (no colour search per picture) and the PNG small.
BLENDS = (
    (FACE, RED), (FACE, BLACK), (FACE, FACE_EDGE), (FELT, FACE_EDGE), (FELT, FACE), (FELT, WHITE), (FELT, MUTED),
    (FELT, GOLD), (FELT, FELT_DARK), (FELT_DARK, FELT_LINE), (FELT, FELT_LINE), (FELT_DARK, MUTED),
    (CHIP_ON, WHITE), (CHIP_OFF, WHITE), (CHIP_WARN, WHITE), ((150, 110, 20), WHITE), ((120, 20, 28), WHITE),
    (FELT, CHIP_ON), (FELT, CHIP_OFF), (FELT, BAR_EMPTY), (BAR_EMPTY, HEALTH), (BAR_EMPTY, HEALTH_LOW),
    (FELT, HEALTH), (BACK, BACK_LINE), (FACE, BACK), ((20, 20, 24), WHITE), ((20, 20, 24), MUTED),
    (BACK, (20, 20, 24)), (FELT, (20, 20, 24)), (FELT, RED), (FACE_EDGE, RED), (FACE_EDGE, BLACK),
    (PLAYER_COLOURS[0], WHITE), (PLAYER_COLOURS[1], WHITE), (FELT_DARK, WHITE), (FELT_DARK, GOLD),
)
# Each blend in STEPS steps: two shades between its ends. Antialiased edges then show four tones instead of eight,
# which look the same at the size Discord shows the picture and opened at full size, and the PNG is smaller: a
# palette of 95 colours instead of 239 and fewer different edges to encode.
STEPS = 3


@cache
def palette_colours() -> tuple[tuple[int, ...], ...]:
    colours: list[tuple[int, ...]] = []
    for a, b in BLENDS:
        for i in range(STEPS + 1):
            c = tuple(round(a[k] + (b[k] - a[k]) * i / STEPS) for k in range(3))
            if c not in colours:
                colours.append(c)
    if len(colours) > 256:  # pragma: no cover - a guard for whoever adds blends
        raise ValueError(f"{len(colours)} colours do not fit a PNG palette")
    return tuple(colours)


def palette_size() -> int:
    return len(palette_colours())


@cache
def palette() -> Image.Image:
    colours = palette_colours()
    flat = [v for c in colours for v in c]
    img = Image.new("P", (1, 1))
    img.putpalette(flat + flat[:3] * (256 - len(colours)))
    return img


def to_png(img: Image.Image, *, again_over: int | None = None) -> bytes:
    """PNG bytes of a picture on the fixed palette (a colour picture is mapped onto it first; one painted in the
    palette, mode "P", is written as it is); no metadata, so the same picture is the same bytes.

    Written here rather than by Pillow's PNG plugin, whose zlib deflate was most of a picture's time: rows are
    unfiltered (the picture is long runs of a few indices, which filters would not shorten) and deflated by ISA-L
    (``isal``) at level 1, about 0.13 ms for a table. With ``again_over``, a PNG that comes out larger than that
    many bytes (the busiest pictures, whose repeats of the row above a level-1 deflate misses) is deflated again by
    zlib at level 5, a third smaller for about 1.2 ms more: the usual picture is not slowed down, the largest
    shrink. The choice depends only on the picture, so the same picture is still the same bytes.
    """
    if img.mode != "P":
        img = img.quantize(palette=palette(), dither=Image.Dither.NONE)
    width, height = img.size
    # Each row behind its filter byte (0: none): Pillow's raw encoder zero-pads every row to the stride, so the
    # padding after a row is the next row's filter byte.
    rows = memoryview(img.tobytes("raw", "P", width + 1))[:-1]
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit indices, palette colour
    head = PNG_SIGNATURE + _chunk(b"IHDR", header) + _palette_chunk()
    idat = _deflate(isal_zlib.compressobj(PNG_LEVEL), rows)
    if again_over is not None and len(head) + len(idat) + TAIL > again_over:
        idat = _deflate(zlib.compressobj(BUSY_PNG_LEVEL), rows)
    return b"".join((head, _chunk(b"IDAT", idat), IEND))


def _deflate(deflate, rows: memoryview) -> bytes:
    return deflate.compress(b"\0") + deflate.compress(rows) + deflate.flush()


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_LEVEL = 1  # ISA-L's fastest that still finds runs: five times zlib's level 1 speed, as small
BUSY_PNG_LEVEL = 5  # zlib's lazy matcher: the repeats of the row above that ISA-L's level 1 misses


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@cache
def _palette_chunk() -> bytes:
    return _chunk(b"PLTE", bytes((palette().getpalette() or [])[:3 * palette_size()]))


IEND = _chunk(b"IEND", b"")
TAIL = len(IEND) + 12  # the IDAT chunk's length, type and CRC, and the IEND chunk
