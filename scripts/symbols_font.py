"""The table's symbols font: the few emoji its words hold (💀, 💡, the share grid…), for a device without an
emoji font, which would draw them as empty boxes.

    (cd web/client && npm ci)                       # Noto Emoji, from the @fontsource/noto-emoji package
    .venv/bin/python scripts/symbols_font.py        # writes web/client/src/fonts/symbols.woff and symbols.css
    (cd web/client && npm run build)                # and ships it in web/static

Which characters: every one in the words the table may show (the catalogues, the English text in the code of
``games/``, ``app/`` and ``web/``, and the client's own sources) that a plain text font lacks, DejaVu Sans (the
pictures' font, ``games/picture/fonts``) standing for one. Their glyphs come from Noto Emoji (monochrome, SIL Open
Font License 1.1: ``web/client/src/fonts/OFL.txt``). ``symbols.css`` declares the font with exactly those code
points as its ``unicode-range``, and the page names it first in its font list: Chromium does not fall back to a
web font named after the system's fonts for an emoji (it draws the empty box), while a face limited to its range is
used for those characters alone, the text's own font drawing the rest. ``tests/web/test_glyphs.py`` fails when a
character is missing: run this again then. The same sources give the same bytes.
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FONT = ROOT / "web" / "client" / "src" / "fonts" / "symbols.woff"
CSS = FONT.with_suffix(".css")
NOTO = ROOT / "web" / "client" / "node_modules" / "@fontsource" / "noto-emoji" / "files"
NOTO = NOTO / "noto-emoji-emoji-400-normal.woff"
TEXT_FONT = ROOT / "games" / "picture" / "fonts" / "DejaVuSans-Bold.ttf"
FAMILY = "Scoundrel Symbols"


def sources() -> list[Path]:
    """Where the table's words are written: the catalogues, the English in the code, the client."""
    found = sorted((ROOT / "games" / "i18n" / "locales").glob("*/messages/*.po"))
    for package in ("games", "app", "web"):
        found += sorted((ROOT / package).rglob("*.py"))
    found += sorted((ROOT / "web" / "client" / "src").glob("*.ts"))
    return found


def characters() -> set[str]:
    """Every character in the table's words that is drawn (not a control, a joiner or a variation selector)."""
    chars: set[str] = set()
    for path in sources():
        chars |= set(path.read_text(encoding="utf-8"))
    return {c for c in chars if unicodedata.category(c) not in ("Cc", "Cf", "Mn", "Zs", "Zl", "Zp")}


def cmap(path: Path) -> set[int]:
    from fontTools.ttLib import TTFont

    with TTFont(path) as font:
        return set(font.getBestCmap())


def needed() -> set[int]:
    """The code points a plain text font lacks: the symbols font must draw each."""
    text = cmap(TEXT_FONT)
    return {ord(c) for c in characters() if ord(c) not in text}


def build(out: Path = FONT) -> set[int]:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    wanted = needed()
    font = TTFont(NOTO)
    missing = wanted - set(font.getBestCmap())
    if missing:
        names = ", ".join(f"U+{cp:04X} {chr(cp)} {unicodedata.name(chr(cp), '?')}" for cp in sorted(missing))
        raise SystemExit(f"Noto Emoji has no glyph for: {names}")
    options = subset.Options()
    options.layout_features = []
    options.hinting = False
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # the copyright, the names and the licence
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(wanted))
    subsetter.subset(font)
    for record in font["name"].names:  # its own family name: not to be taken for the whole Noto Emoji
        if record.nameID in (1, 4, 16):
            record.string = FAMILY
        elif record.nameID == 6:
            record.string = FAMILY.replace(" ", "")
    font.flavor = "woff"
    font.recalcTimestamp = False  # the same sources, the same bytes (and the same build of the client)
    out.parent.mkdir(parents=True, exist_ok=True)
    font.save(out)
    out.with_suffix(".css").write_text(face(wanted), encoding="utf-8")
    return wanted


def face(code_points: set[int]) -> str:
    """The @font-face of the symbols font: used for its own characters only (``unicode-range``)."""
    ranges = ", ".join(f"U+{cp:X}" for cp in sorted(code_points))
    return (f"/* Made by scripts/symbols_font.py: the table's emoji, for devices without an emoji font. */\n"
            f'@font-face {{ font-family: "{FAMILY}"; src: url("./symbols.woff") format("woff"); '
            f"font-display: block;\n  unicode-range: {ranges}; }}\n")


def main(argv: list[str]) -> int:
    wanted = build()
    print(f"{FONT.relative_to(ROOT)}: {len(wanted)} glyphs, {FONT.stat().st_size} bytes: "
          + "".join(chr(cp) for cp in sorted(wanted)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
