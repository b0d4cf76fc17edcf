"""The table's committed screens (``docs/screens/activity-*``), each compared with what the client draws now.

A screen is two files: the PNG a reader of the docs sees, and beside it ``<name>.aria.yml``, the page's
accessibility tree as Playwright reads it (every role, name and word on the page, a dialog's too). The words are
compared exactly. The pixels are compared within a tolerance: Chromium's font rasterizing and antialiasing may move
a few pixels from one build or machine to the next, while anything a player would notice (an element moved or
overlapping, a colour, a missing glyph, a line wrapped differently) changes hundreds. With
``SCOUNDREL_SCREENS=docs/screens`` both files are written anew instead (and the test passes).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "screens"
SCREENS = os.environ.get("SCOUNDREL_SCREENS")
SHADE = 48  # a channel differing by more than this is a pixel that changed, not antialiasing
TOLERANCE = 0.0005  # the share of the pixels that may change so (0.05 %: about 160 of a phone's 329,160)


async def check_screen(page, name: str) -> None:
    """Capture the page as ``name`` (``activity-phone-room``): written with SCOUNDREL_SCREENS, else compared."""
    words = await page.locator("body").aria_snapshot()
    png = await page.screenshot(animations="disabled", caret="hide")  # each card as it lands
    if SCREENS:
        write(Path(SCREENS), name, png, words)
        return
    hint = ("regenerate the table's screens (SCOUNDREL_SCREENS=docs/screens .venv/bin/python -m pytest "
            "tests/web/test_browser.py -n 0) and look at them")
    committed, before = read(name)
    assert words == committed, f"{name}: the words on the table changed; {hint}"
    changed, total = pixels_changed(before, png)
    assert changed <= TOLERANCE * total, f"{name}: {changed} of {total} pixels changed; {hint}"


def write(folder: Path, name: str, png: bytes, words: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.png").write_bytes(png)
    (folder / f"{name}.aria.yml").write_text(words + "\n", encoding="utf-8")


def read(name: str) -> tuple[str, bytes]:
    """A committed screen: its words and its PNG."""
    return (DOCS / f"{name}.aria.yml").read_text(encoding="utf-8").rstrip("\n"), (DOCS / f"{name}.png").read_bytes()


def pixels_changed(before: bytes, after: bytes) -> tuple[int, int]:
    """How many pixels differ by more than ``SHADE`` in a channel (every pixel, when the sizes differ)."""
    from PIL import Image, ImageChops

    with Image.open(io.BytesIO(before)) as old, Image.open(io.BytesIO(after)) as new:
        total = new.width * new.height
        if old.size != new.size:
            return total, total
        diff = ImageChops.difference(old.convert("RGB"), new.convert("RGB"))
        strongest = diff.split()
        mask = ImageChops.lighter(ImageChops.lighter(strongest[0], strongest[1]), strongest[2])
        return sum(mask.point(lambda v: 255 if v > SHADE else 0).histogram()[255:]), total
