"""End to end: Debian's Chromium, driven by Playwright, plays at the table served by the real routes over a real
SQLite store, by tapping its buttons as a player does.

No browser is downloaded: Playwright launches ``/usr/bin/chromium``. Without it the tests are skipped, except under
CI (``CI=true``), where that is a failure. Every game is a fixed deal, so each screen the docs show
(``docs/screens/activity-*``) is drawn the same until the product changes: ``tests/web/screens.py`` compares them,
and ``SCOUNDREL_SCREENS=docs/screens`` writes them anew.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from aiohttp import web

from games.engine import deal, legal_actions, preset
from games.engine.cards import build_deck, parse_deck
from storage import open_store
from storage.models import DAILY
from tests.storage.helpers import Clock
from tests.web.screens import check_screen
from web.identity import LOCAL_PLAYER, LocalIdentity
from web.play import today
from web.routes import Table, add_routes

CHROMIUM = os.environ.get("SCOUNDREL_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-dev-shm-usage"]  # /dev/shm may be 64 MB in a container
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
SEED = 8  # the whole game's deal: tapping the first card each time, it ends in death, ♦9 with 3 kills
DAILY_SEED = 11  # the daily's deal (the day's seed is otherwise the store's own secret)
# A deal whose first room holds a weapon and monsters it can fight: the fight mode's screen.
WEAPON_FIRST = ("D5 S3 S9 H4 C2 C8 S6 D7 H6 C10 S11 C12 D2 H9 S5 C4 S2 C3 S4 C5 C6 C7 S7 S8 C9 S10 C11 S12 C13 "
                "S13 C14 S14 D3 D4 D6 D8 D9 D10 H2 H3 H5 H7 H8 H10")

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists() and os.environ.get("CI", "") not in ("1", "true"),
                                reason=f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium)")


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def table(tmp_path, clock):
    """(the table's address, its store): the real routes and client files on loopback, one local player."""
    store = await open_store(tmp_path / "table.sqlite3", clock=clock)
    app = web.Application()
    add_routes(app, Table(store=lambda: store, identity=LocalIdentity()))
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/", store
    finally:
        await runner.cleanup()
        await store.close()


@pytest.fixture
async def browser():
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield launched
        finally:
            await launched.close()


async def open_table(browser, url: str, viewport=PHONE, scheme: str = "dark", ready: str = "main[data-version]"):
    page = await browser.new_page(viewport=viewport, color_scheme=scheme)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    started = time.perf_counter()
    await page.goto(url)
    await page.wait_for_selector(ready)
    return page, time.perf_counter() - started, errors


async def tap_and_wait(page, button) -> None:
    """Tap ``button`` and wait for the table the server answers with."""
    before = await page.get_attribute("main", "data-version")
    await button.click()
    await page.wait_for_selector(f"main[data-version]:not([data-version='{before}'])")  # (the CSP forbids eval)


async def play_out(page) -> int:
    """Tap the first playable card (or Avoid) until the game ends; the number of taps."""
    taps = 0
    while not await page.locator(".end").count():
        card = page.locator(".room button.card:not([disabled])").first
        await tap_and_wait(page, card if await card.count() else page.get_by_role("button", name="Avoid"))
        taps += 1
        assert taps < 200
    return taps


async def screen(page, name: str) -> None:
    await check_screen(page, name)


async def fonts_loaded(page) -> list[str]:
    """The families of the web fonts the page has loaded (a web font loads only once a character needs it)."""
    return await page.evaluate("[...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)")


async def test_a_newcomer_sees_what_the_game_is_its_rules_and_both_ways_to_start(table, browser):
    url, store = table
    page, _, errors = await open_table(browser, url, ready="main[data-screen=welcome]")
    assert await page.locator("h1").inner_text() == "Scoundrel"
    how = await page.locator(".how").inner_text()
    assert "play 3 of them" in how and "potions ♥" in how
    assert await page.get_by_role("button", name="New game").count() == 1
    assert await page.get_by_role("button", name="Play today's daily").count() == 1  # the daily, on the first screen
    await screen(page, "activity-phone-welcome")
    await page.get_by_role("button", name="Rules").click()  # the rules, a tap away
    dialog = page.locator("dialog[open]")
    assert "Scoundrel — the classic rules" in await dialog.inner_text()
    assert await dialog.locator("strong", has_text="The deck.").count() == 1  # the catalogue's bold, drawn bold
    await screen(page, "activity-phone-rules")
    await page.get_by_role("button", name="Close").click()
    await page.get_by_role("button", name="Play today's daily").click()
    await page.wait_for_selector("main[data-version]")
    record = await store.load_game(int(await page.get_attribute("main", "data-game")))
    assert record.kind == DAILY
    assert errors == []


async def test_a_player_plays_a_whole_game_by_tapping_and_sees_the_score(table, browser):
    from app.solver.worker import close_par

    url, store = table
    rules = preset("classic")
    record = await store.create_game(LOCAL_PLAYER, None, None, rules, SEED, deal(rules, SEED), "normal")
    page, first_table, errors = await open_table(browser, url)
    assert first_table < 5  # (the goal, 1 s on loopback, is measured in benchmarks/web_load.py)
    game_id = int(await page.get_attribute("main", "data-game"))
    assert game_id == record.id  # the game in progress, not the first screen
    cards = page.locator(".room button.card")
    assert await cards.count() == 4
    name = await cards.first.get_attribute("aria-label")  # the card and what tapping it does
    assert any(word in name for word in ("Fight", "Drink", "Equip", "Take"))
    await screen(page, "activity-phone-room")
    await page.set_viewport_size({"width": 844, "height": 390})  # the phone on its side
    await screen(page, "activity-phone-landscape")
    await page.set_viewport_size(PHONE)
    taps = await play_out(page)
    record = await store.load_game(game_id)
    assert record.status in ("won", "dead") and record.version == taps  # every tap one move, none twice
    headline = await page.locator("h1").inner_text()
    assert f"Score {record.score}" in headline
    assert headline[0] in "💀🏆" and "Scoundrel Symbols" in await fonts_loaded(page)  # the page's own glyph
    assert await page.get_by_role("button", name="New game").count() == 1
    assert await page.get_by_role("button", name="Play today's daily").count() == 1
    kills = [await face.bounding_box() for face in await page.locator(".kills .face").all()]
    assert len(kills) >= 2
    pairs = zip(kills, kills[1:], strict=False)
    assert all(left["x"] + left["width"] <= right["x"] for left, right in pairs)  # side by side, none overlapping
    await screen(page, "activity-phone-end")
    try:
        await page.get_by_role("button", name="Review").click()
        summary = page.locator("dialog[open] .summary")
        await summary.wait_for(timeout=180_000)  # the solver reviews the game (seconds; longer on a busy machine)
        box = await summary.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]  # in view, no scrolling
        await screen(page, "activity-phone-review")
    finally:
        await close_par()
    assert errors == []


async def test_a_tap_on_a_stale_table_is_answered_with_the_current_one(table, browser):
    url, store = table
    rules = preset("classic")
    record = await store.create_game(LOCAL_PLAYER, None, None, rules, SEED, deal(rules, SEED), "normal")
    page, _, _ = await open_table(browser, url)
    game_id = int(await page.get_attribute("main", "data-game"))
    assert game_id == record.id
    await store.play(game_id, LOCAL_PLAYER, 0, legal_actions(record.state)[0])  # moved elsewhere (chat)
    shown_before = await page.locator(".room button.card").first.get_attribute("aria-label")
    await tap_and_wait(page, page.locator(".room button.card:not([disabled])").last)
    assert await page.get_attribute("main", "data-version") == "1"  # the current table, not a second move
    assert (await store.load_game(game_id)).version == 1
    assert "moved on" in await page.locator(".events").inner_text()
    assert shown_before is not None


async def test_the_fight_mode_and_the_keyboard(table, browser):
    url, store = table
    rules = preset("classic")
    deck = parse_deck(WEAPON_FIRST, build_deck())
    record = await store.create_game(LOCAL_PLAYER, None, None, rules, None, deck, "normal")
    page, _, _ = await open_table(browser, url, DESKTOP, "light")
    assert int(await page.get_attribute("main", "data-game")) == record.id
    await tap_and_wait(page, page.get_by_role("button", name="Equip ♦5"))
    assert await page.get_by_role("img", name="Weapon ♦5").count() == 1  # the card once, not "Weapon: weapon ♦5"
    weapon_fight = page.get_by_role("button", name="Fight ♠3 with your weapon: 0 dmg")
    assert await weapon_fight.count() == 1
    await page.keyboard.press("f")  # barehanded now
    assert await page.get_by_role("button", name="Fight ♠3 barehanded: −3").count() == 1
    await page.keyboard.press("f")
    await screen(page, "activity-desktop-fight")
    before = await page.get_attribute("main", "data-version")
    await page.keyboard.press("1")  # the first place is empty now (the weapon was taken from it): nothing
    await page.keyboard.press("2")  # ♠3, with the weapon
    await page.wait_for_selector(f"main[data-version]:not([data-version='{before}'])")  # (the CSP forbids eval)
    moved = await store.load_game(record.id)
    assert moved.state.history[-1].code == "W1" and moved.state.health == 20
    assert await page.get_by_role("img", name="Weapon ♦5; Slain with it: ♠3").count() == 1
    await page.set_viewport_size(PHONE)
    await screen(page, "activity-phone-fight")


async def test_a_whole_daily_counts_once_and_shows_par_after_its_day(table, browser, clock):
    url, store = table
    await store.put_daily(today(store), DAILY_SEED, preset("classic"))
    page, _, _ = await open_table(browser, url + "?kind=daily&locale=fr")
    game_id = int(await page.get_attribute("main", "data-game"))
    record = await store.load_game(game_id)
    assert record.kind == DAILY
    assert await page.locator("html[lang=fr]").count() == 1
    await play_out(page)
    finished = await store.load_game(game_id)
    board = await store.daily_results(finished.day)
    assert [(entry.user_id, entry.score) for entry in board] == [(LOCAL_PLAYER, finished.score)]
    assert await page.locator(".par").count() == 0  # the day runs: no par yet
    await store.set_daily_par(finished.day, 12, None, -3)  # par, and the coach's game of the night
    clock.advance(86_400)
    await page.goto(f"{url}?game={game_id}&locale=fr")  # tomorrow, the daily table is a new day's: this one by its id
    await page.wait_for_selector(".par")
    assert await page.locator(".par").inner_text() == "Par 12 en voyant toutes les cartes · coach -3"
    assert await page.get_by_role("button", name="Analyse").count() == 1  # the coach, in French
    await screen(page, "activity-phone-daily-end")
    again = await store.daily_results(finished.day)
    assert len(again) == 1  # reopening never made a second attempt


async def test_a_hint_says_its_cost_first_then_shows_the_best_move(table, browser):
    from app.solver.worker import close_par

    url, store = table
    rules = preset("classic")
    await store.create_game(LOCAL_PLAYER, None, None, rules, SEED, deal(rules, SEED), "normal")
    page, _, _ = await open_table(browser, url)
    game_id = int(await page.get_attribute("main", "data-game"))
    try:
        await page.get_by_role("button", name="Hint").click()
        await page.get_by_role("button", name="Show the hint").click()  # the cost said, the player says yes
        await page.wait_for_selector("dialog[open] .content p")
        assert "Best now" in await page.locator("dialog[open] .content").inner_text()
        assert await store.is_hinted(game_id)
    finally:
        await close_par()
