"""A whole game as an animated GIF: the table as the room picture draws it, one frame per move with the move
named under the table, and a pause on the result.

``render_replay(rules, deck, actions, seed=..., par=..., tr=...)`` returns the GIF's bytes; with ``par`` (an
optimal line of the same deal) the player's line plays first, then par's, each frame saying whose line it is.

How it stays small and fast (the technique of lichess's game GIFs):
- every frame is painted by ``room.paint`` from tiles drawn once on the felt in the one shared palette, so a frame
  is palette indices from the start: no colour quantizing and no antialiasing recomputed per frame;
- the GIF has one global colour table (that palette); each frame after the first carries only the rectangle that
  changed since the one before, and inside it the pixels that did not change are the transparent index (disposal
  "leave in place"), which LZW packs into almost nothing;
- the caption is the exception: its changed box is sent whole, since marking the pixels the old and new words
  happen to share as transparent leaves the old words' outline to encode; and its words are drawn with FreeType's
  monochrome hinting (two colours, crisp at this size) rather than antialiased, a third of its bytes;
- Pillow's C LZW encoder writes each frame's pixels (``GifImagePlugin.getdata``); the container is written here.

GIF rather than animated WebP (both lossless over the same pixels, so of equal quality): libwebp's animation
encoder makes a 40-move game about 35 % smaller but takes 3 to 10 times as long (0.26 s at its fastest setting
that is smaller, 0.7 s at its default), against a goal of 0.15 s per replay; its fastest setting is twice the
GIF's size. ``benchmarks/replay_bench.py --webp`` prints both side by side.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from games.engine import Action, Rules, State, apply, new_game
from games.engine.cards import Card
from games.i18n import N_
from games.i18n.messages import ENGLISH, Messages
from games.picture import tiles
from games.picture.draw import GOLD, MUTED, WHITE, font, palette, palette_colours, palette_size, text_length
from games.picture.legible import Word, smallest_size
from games.picture.room import HEIGHT, WIDTH, paint, room_layout

FILENAME = "replay.gif"
CAPTION_BG = (20, 20, 24)
MOVE_MS = 900  # each move's frame
FIRST_MS = 2500  # the deal, before the first move (long enough to take it in)
RESULT_MS = 4000  # the pause on the result (then the animation starts over)

THE_DEAL = N_("The deal")
YOUR_LINE = N_("Your line")
PARS_LINE = N_("Par's line")


def transparent_index() -> int:
    """The first palette slot no colour uses: frames mark their unchanged pixels with it."""
    return palette_size()


def line_states(rules: Rules, deck: Sequence[Card], actions: Sequence[Action], seed: int | None) -> list[State]:
    """The deal and the state after each move (raises ``IllegalAction`` on a bad line)."""
    state = new_game(rules, seed=seed, deck=tuple(deck))
    states = [state]
    for action in actions:
        state = apply(state, action)
        states.append(state)
    return states


def move_caption(state: State, tr: Messages) -> str:
    """What the move did, as the engine told it (the new room's line left out, and the dungeon's end after the move
    that reached it: the table's banner says it), in ``tr``'s language. How far the game has gone is the progress
    line over it (``progress_width``), whose few changed pixels a frame costs less than a changing move number."""
    events = [e for e in state.events if not e.text.startswith("Room ")]
    if len(events) > 1:  # the last room cleared: the table's banner says the dungeon is survived, the caption the move
        events = [e for e in events if e.kind != "clear"]
    said = [tr.event(e) for e in events] or [tr.event(state.events[0])]
    return " ".join(said)


PROGRESS_H = 4  # the progress line along the caption's top edge


def progress_width(number: int, total: int, width: int = WIDTH) -> int:
    return round(width * number / total) if total else 0


# The move under the table, on one line or two, at the smallest size a phone reads (33 px of the 800-px frame,
# 11 px on a phone: ``legible``), no larger: a 40-move replay's caption boxes are most of its bytes. A caption still
# too long for two lines (no move's is, in any language: tests/picture/test_legible.py) ends in "…".
CAPTION_FONT = smallest_size(WIDTH)
CAPTION_H = 2 * (smallest_size(WIDTH) + 8) + PROGRESS_H + 8  # the strip under the table: two lines
FRAME_H = HEIGHT + CAPTION_H
_GOLD_INDEX = palette_colours().index(GOLD)


PAD = 12  # the caption's words from the strip's edges


class Caption(NamedTuple):
    """The caption's words laid out: its font size, its lines, and the grey label ("Your line") that starts the
    first line, if any."""

    size: int
    lines: tuple[str, ...]
    label: str | None = None

    def words(self) -> tuple[Word, ...]:
        return tuple(Word(line, self.size) for line in ((self.label,) if self.label else ()) + self.lines)


def caption_layout(text: str, label: str | None, width: int = WIDTH, size: int = CAPTION_FONT,
                   most: int = 2, height: int | None = None) -> Caption:
    """The largest size from ``size`` down to the legible size of a frame ``width`` × ``height`` (the table's
    replay frame by default) at which ``label`` and ``text`` fit ``most`` lines of ``width``, and those lines."""
    smallest = smallest_size(width, FRAME_H if height is None else height)
    for at in range(size, smallest - 1, -1):
        lines = _wrapped(text, label, width - 2 * PAD, at, most)
        if lines is not None:
            return Caption(at, lines, label)
    lines = _wrapped(text, label, width - 2 * PAD, smallest, most, cut=True) or ()
    return Caption(smallest, lines, label)


def _wrapped(text: str, label: str | None, width: int, size: int, most: int,
             cut: bool = False) -> tuple[str, ...] | None:
    """``text`` in at most ``most`` lines of ``width`` px at ``size`` after the label, or None if it does not
    fit; ``cut``: the last line ends in "…" where it would not fit."""
    lines: list[str] = []
    start = indent = text_length(label + " ", size) if label else 0
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if line and start + text_length(trial, size) > width:
            lines.append(line)
            line, start = word, 0
        else:
            line = trial
    lines.append(line)
    if len(lines) == 2:  # two lines: as even as they go, no word left alone
        words = text.split(" ")
        splits = [[" ".join(words[:i]), " ".join(words[i:])] for i in range(1, len(words))]

        def longest(pair: list[str]) -> float:
            return max(indent + text_length(pair[0], size), text_length(pair[1], size))

        # break where the words do (before a " · ", after a ":" or a ".") when such a break fits, else evenly
        natural = [pair for pair in splits if (pair[1].startswith("· ") or pair[0].endswith((":", ".")))
                   and longest([pair[0], pair[1].removeprefix("· ")]) <= width]
        lines = min(natural or splits, key=longest)
        lines[1] = lines[1].removeprefix("· ")
    if len(lines) <= most and all(text_length(line, size) <= width for line in lines[1:]):
        return tuple(lines)
    if not cut:
        return None
    last = " ".join(lines[most - 1:])
    while last and text_length(last + "…", size) > width:
        last = last[:-1]
    return (*lines[:most - 1], last + "…")


@lru_cache(maxsize=512)
def caption_tile(caption: Caption, width: int = WIDTH, height: int = CAPTION_H) -> tiles.Tile:
    """The strip under the picture (``width`` × ``height``): whose line (if told) in grey, then the move. The
    words are drawn with monochrome hinting, not antialiased: the caption changes on every frame, and its
    antialiasing's shades were a third of its bytes."""
    img = Image.new("RGB", (width, height), CAPTION_BG)
    draw = ImageDraw.Draw(img)
    draw.fontmode = "1"  # FreeType's monochrome rendering: hinted for two colours, so it stays crisp
    step = caption.size + 6
    top = PROGRESS_H + (height - PROGRESS_H - step * len(caption.lines)) // 2 + step // 2
    for i, line in enumerate(caption.lines):
        x = PAD
        if i == 0 and caption.label:
            draw.text((x, top), caption.label, font=font(caption.size), fill=MUTED, anchor="lm")
            x += int(text_length(caption.label + " ", caption.size))
        draw.text((x, top + i * step), line, font=font(caption.size), fill=WHITE, anchor="lm")
    return tiles.Tile(tiles.on_palette(img), None)


def replay_frames(rules: Rules, deck: Sequence[Card], actions: Sequence[Action], *, seed: int | None = None,
                  par: Sequence[Action] | None = None, abandoned: bool = False, title: str | None = None,
                  tr: Messages = ENGLISH) -> list[tuple[Image.Image, int]]:
    """Every frame (a palette picture, ``WIDTH`` × ``FRAME_H``) and how long it shows, in milliseconds. The first
    is the deal, captioned with ``title`` (the game and its player) when given."""
    lines = [(actions, tr(YOUR_LINE) if par is not None else None, abandoned)]
    if par is not None:
        lines.append((par, tr(PARS_LINE), False))
    frames: list[tuple[Image.Image, int]] = []
    blank = tiles.canvas(WIDTH, FRAME_H)
    for moves, label, given_up in lines:
        states = line_states(rules, deck, moves, seed)
        for number, state in enumerate(states):
            last = number == len(states) - 1
            frame = blank.copy()
            frame.paste(paint(room_layout(state, abandoned=given_up and last, tr=tr), tr), (0, 0))
            named = number == 0 and label != tr(PARS_LINE)  # the first frame names the game, not whose line
            text = deal_caption(title if named else None, tr) if number == 0 else move_caption(state, tr)
            caption_tile(caption_layout(text, None if named else label)).paste(frame, 0, HEIGHT)
            frame.paste(_GOLD_INDEX, (0, HEIGHT, progress_width(number, len(moves)), HEIGHT + PROGRESS_H))
            frames.append((frame, RESULT_MS if last else FIRST_MS if number == 0 else MOVE_MS))
    return frames


def deal_caption(title: str | None, tr: Messages) -> str:
    """The first frame's words: the deal, then the game and its player."""
    return f"{tr(THE_DEAL)} · {title}" if title else tr(THE_DEAL)


def render_replay(rules: Rules, deck: Sequence[Card], actions: Sequence[Action], *, seed: int | None = None,
                  par: Sequence[Action] | None = None, abandoned: bool = False, title: str | None = None,
                  tr: Messages = ENGLISH) -> bytes:
    """The game as an animated GIF that loops; the same game, line, title and language give the same bytes."""
    return to_gif(replay_frames(rules, deck, actions, seed=seed, par=par, abandoned=abandoned, title=title, tr=tr),
                  words_from=HEIGHT + PROGRESS_H)


def to_gif(frames: Sequence[tuple[Image.Image, int]], *, words_from: int | None = None) -> bytes:
    """GIF89a bytes: one global palette, the first frame whole, then each frame's changed rectangle with its
    unchanged pixels transparent, left in place for the next. Rows from ``words_from`` down hold words that change
    on every frame (the caption): their changed box is sent whole, which packs smaller than the pixels the old
    and new words differ in."""
    width, height = frames[0][0].size
    colours = bytes(palette().getpalette() or ())[:768].ljust(768, b"\0")
    out = [b"GIF89a", struct.pack("<HHBBB", width, height, 0xF7, 0, 0), colours,
           b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"]  # a 256-colour global table; loop forever
    see_through = transparent_index()
    band = height if words_from is None else words_from  # where the words' rows start (none: the bottom edge)
    previous: Image.Image | None = None
    pieces: list[tuple[Image.Image, tuple[int, int], int]] = []  # each frame's rectangle, where, how long
    for frame, duration in frames:
        if previous is None:
            pieces.append((frame, (0, 0), duration))
        else:
            changed = ImageChops.difference(frame, previous)
            box = changed.getbbox()
            if box is None:  # nothing moved: the frame before shows longer
                piece, offset, shown = pieces[-1]
                pieces[-1] = (piece, offset, shown + duration)
                continue
            moved = changed.crop(box).point(_CHANGED, "1")  # the palette indices' differences, as a mask
            words = changed.crop((0, band, width, height)).getbbox()
            if words is not None:
                x0, y0, x1, y1 = words
                moved.paste(255, (x0 - box[0], band + y0 - box[1], x1 - box[0], band + y1 - box[1]))
            piece = Image.new("P", (box[2] - box[0], box[3] - box[1]), see_through)
            piece.putpalette(colours)
            piece.paste(frame.crop(box), (0, 0), moved)
            pieces.append((piece, (box[0], box[1]), duration))
        previous = frame
    for piece, offset, duration in pieces:
        out += _frame(piece, offset, duration, see_through)
    out.append(b";")
    return b"".join(out)


_CHANGED = [0] + [255] * 255


def _frame(piece: Image.Image, offset: tuple[int, int], duration: int, see_through: int) -> list[bytes]:
    control = struct.pack("<4BHBB", 0x21, 0xF9, 4, (1 << 2) | 1, round(duration / 10), see_through, 0)
    return [control, *GifImagePlugin.getdata(piece, offset)]
