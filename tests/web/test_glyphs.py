"""Glyphs that show everywhere: every character the table's words hold is drawn by a plain text font or by the
symbols font the client ships (a device without an emoji font drew 💀, 💡 and the share grid as empty boxes).
That the page really draws them with it is tests/web/test_browser.py's (the end screen's 💀, the share grid)."""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from pathlib import Path

from web.routes import static_folder

ROOT = Path(__file__).resolve().parents[2]


def symbols_font():
    spec = importlib.util.spec_from_file_location("symbols_font", ROOT / "scripts" / "symbols_font.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_character_of_the_tables_words_has_a_glyph_in_a_text_font_or_the_shipped_symbols():
    fonts = symbols_font()
    text, shipped = fonts.cmap(fonts.TEXT_FONT), fonts.cmap(fonts.FONT)
    missing = sorted(c for c in fonts.characters() if ord(c) not in text | shipped)
    assert not missing, ("no glyph for " + ", ".join(f"U+{ord(c):04X} {c} {unicodedata.name(c, '?')}" for c in missing)
                         + ": run scripts/symbols_font.py, then npm run build in web/client")
    assert {0x1F480, 0x1F4A1, 0x1F7E9, 0x1F7E5, 0x1F3C6} <= shipped  # 💀 💡 🟩 🟥 🏆


def test_the_built_client_ships_the_symbols_font_first_in_its_font_list_for_its_characters_only():
    folder = static_folder()
    fonts = symbols_font()
    assert any(path.read_bytes() == fonts.FONT.read_bytes() for path in (folder / "assets").glob("symbols-*.woff"))
    css = "".join(path.read_text() for path in (folder / "assets").glob("*.css"))
    face = re.search(r"@font-face\{[^}]*Scoundrel Symbols[^}]*unicode-range:([^;}]*)", css)
    assert face, "the built CSS declares no symbols font limited to its characters"
    ranged = {int(part.strip()[2:], 16) for part in face.group(1).split(",")}
    assert ranged == fonts.cmap(fonts.FONT)  # exactly its glyphs: every other character is the text font's
    body = re.search(r"html,\s*body\s*\{[^}]*font:([^;}]*)", css)
    assert body and re.search(r'^[^,]*\d+px(/[\d.]+)?\s*"?Scoundrel Symbols"?,', body.group(1).strip())
