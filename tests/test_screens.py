"""The chat's committed screens tell the truth: every screen in docs/screens/ is reached again from its fixed deal,
as scripts/capture_screens.py reaches it (the real bot under SimCord, the solver running), and what the bot sends
there, its words and its pictures' digests (``scripts/screen_words.py``), must be the committed ``<screen>.json``
beside the capture. The table's screens are compared by tests/web/test_browser.py."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

from scripts import capture_screens

DOCS = Path(__file__).resolve().parents[1] / "docs" / "screens"
AGAIN = "capture them again: .venv/bin/python scripts/capture_screens.py (then look at the PNGs and commit them)"


def chat_screens(folder: Path) -> set[str]:
    return {path.name.removesuffix("-phone.png") for path in folder.glob("*-phone.png")
            if not path.name.startswith("activity-")}


async def test_every_committed_chat_screen_is_what_the_bot_sends_now(tmp_path):
    assert await capture_screens.main(["--words-only", "--out", str(tmp_path)]) == 0
    drawn = {path.stem: path.read_text(encoding="utf-8") for path in tmp_path.glob("*.json")}
    assert chat_screens(DOCS) == set(drawn), f"the screens the script reaches are not the ones committed; {AGAIN}"
    for name, words in sorted(drawn.items()):
        committed = (DOCS / f"{name}.json").read_text(encoding="utf-8")
        if words != committed:
            diff = "\n".join(difflib.unified_diff(committed.splitlines(), words.splitlines(), "committed", "now",
                                                  lineterm="", n=2))
            raise AssertionError(f"docs/screens/{name}: the bot no longer sends what its capture shows; {AGAIN}\n"
                                 f"{diff[:4000]}")
        assert json.loads(words)["embeds"] or json.loads(words)["content"]  # a screen with something on it
