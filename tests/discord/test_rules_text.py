"""/scoundrel rules states what the engine does: its numbers come from the engine's own constants."""

from __future__ import annotations

from cogs.game.commands import rules_page
from cogs.game.rules_text import PAGES, PRESET_BLURB_MARKS, expansion_page, options_page, pages
from cogs.text.card_text import readable
from games.engine.rules import MAX_LOOPS, PRESET_BLURBS, PRESETS
from games.engine.state import LOOP_BONUS, MERCHANT_HEAL, MERCHANT_OFFER, NECROMANCER_COST, weapon_price
from games.i18n.messages import SHIPPED, SOURCE, messages_for


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


def test_the_preset_blurbs_marked_for_translation_are_the_engines():
    # The engine is pure and does not mark text; the rules page marks a copy of its blurbs, which must not drift.
    assert PRESET_BLURB_MARKS == tuple(PRESET_BLURBS[name] for name in PRESETS)


def test_every_page_in_every_language_fits_discords_limits_and_states_the_engines_numbers():
    for code in (SOURCE, *SHIPPED):
        tr = messages_for(code)
        for number, (title, text) in enumerate(pages(tr)):
            embed, view = rules_page(number, tr)
            assert embed.title == title and embed.description == readable(text)
            assert 0 < len(embed.title) <= 256 and 0 < len(embed.description) <= 4096
            assert len(embed.footer.text) <= 2048 and len(embed) <= 6000
            assert all(0 < len(item.item.label) <= 80 for item in view.children)
            assert "{" not in text and "}" not in text  # every field filled in
        expansion = expansion_page(tr)
        for number in (MERCHANT_OFFER, MERCHANT_HEAL, NECROMANCER_COST, MAX_LOOPS, LOOP_BONUS):
            assert str(number) in expansion
        if code != SOURCE:  # a translated catalogue translates every page and title
            assert all(english != translated for english, translated in zip(PAGES, pages(tr), strict=True))
