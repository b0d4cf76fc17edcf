"""/scoundrel rules states what the engine does: its numbers come from the engine's own constants."""

from __future__ import annotations

from bot.engine.game import LOOP_BONUS, MERCHANT_HEAL, MERCHANT_OFFER, NECROMANCER_COST, weapon_price
from bot.engine.rules import MAX_LOOPS, PRESETS
from cogs.rules_text import PAGES, expansion_page, options_page


def test_every_page_fits_an_embed():
    assert len(PAGES) == 5
    for title, text in PAGES:
        assert 0 < len(title) <= 256 and 0 < len(text) <= 4096


def test_every_preset_is_listed():
    page = options_page()
    for name in PRESETS:
        assert f"`{name}`" in page


def test_the_expansion_page_matches_the_engine():
    page = expansion_page()
    assert f"{MERCHANT_OFFER} cards are offered" in page
    assert f"heals {MERCHANT_HEAL} for free" in page
    assert (weapon_price(1), weapon_price(2), weapon_price(10)) == (3, 4, 5)
    assert "costs 3 health (4 in the second loop, at most 5)" in page
    assert f"pay {NECROMANCER_COST} health" in page and f"more than {NECROMANCER_COST}" in page
    assert f"Up to {MAX_LOOPS} loops" in page and f"{LOOP_BONUS} to the score" in page
