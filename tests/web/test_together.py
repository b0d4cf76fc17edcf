"""Friends at the same table, end to end: two players in one Activity instance (Chromium, the client with the
SDK's mock, the real routes over a real SQLite store, a stand-in Discord that knows who is in the instance) see
each other's room and health change within 2 s, pushed by the server, and never each other's cards."""

from __future__ import annotations

import json
import time

import aiohttp
import pytest
from aiohttp import web

from games.engine import preset
from storage import open_store
from tests.storage.helpers import Clock
from tests.web.fake_discord import CLIENT_ID, CLIENT_SECRET, FakeDiscord
from tests.web.test_browser import PHONE, browser, pytestmark, tap_and_wait  # noqa: F401 - the skip, the fixture
from web.identity import DiscordIdentity
from web.play import today
from web.routes import Table, add_routes

ALICE, BOB, CAROL = 111111111111111111, 222222222222222222, 333333333333333333
GUILD, CHANNEL = 1, 2  # where Discord says the instance runs
INSTANCE = "123456789012345678"  # the SDK mock's instance id
DAILY_SEED = 11
SHOWN = {"id", "name", "playing", "room", "health", "status", "score"}  # all a strip says of a friend


@pytest.fixture
async def served(tmp_path):
    discord = FakeDiscord()
    await discord.server.start_server()
    store = await open_store(tmp_path / "table.sqlite3", clock=Clock())
    identity = DiscordIdentity(CLIENT_ID, CLIENT_SECRET, discord.api_base, bot_token=discord.bot_token)
    app = web.Application()
    add_routes(app, Table(store=lambda: store, identity=identity, client_id=CLIENT_ID))
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/", store, discord
    finally:
        await runner.cleanup()
        await identity.close()
        await store.close()
        await discord.server.close()


async def seat(browser, url: str, code: str, query: str = "?kind=daily"):  # noqa: F811
    """A player's page: the SDK mock authorizes with its one code; the exchange is given this player's."""
    page = await browser.new_page(viewport=PHONE)

    async def exchange(route):
        await route.continue_(post_data=json.dumps({"code": code}))

    await page.route("**/api/token*", exchange)
    await page.goto(url + query)
    await page.wait_for_selector("main[data-version]" if query else "main[data-screen]")
    return page


def friend(page, player: int):
    return page.locator(f".together .friend[data-player='{player}']")


async def test_two_players_in_one_instance_see_each_others_room_and_health_change_within_2_s(served, browser):  # noqa: F811
    url, store, discord = served
    await store.put_daily(today(store), DAILY_SEED, preset("classic"))
    alice_token = discord.player(ALICE, "Alice", code="code-alice")
    discord.player(BOB, "Bob", code="code-bob")
    discord.instance_in(INSTANCE, 1, 2, ALICE, BOB)
    alice = await seat(browser, url, "code-alice")
    bob = await seat(browser, url, "code-bob")
    await friend(alice, BOB).wait_for()
    await friend(bob, ALICE).wait_for()
    assert await friend(bob, ALICE).inner_text() == "Alice · Room 1 · ❤️ 20"
    assert await alice.locator(".together").get_attribute("aria-label") == "At this table"

    delays = []
    while len(delays) < 3:  # Alice plays on; each move that changes her room or health reaches Bob's strip
        before = await friend(bob, ALICE).inner_text()
        card = alice.locator(".room button.card:not([disabled])").first
        started = time.perf_counter()
        await tap_and_wait(alice, card if await card.count() else alice.get_by_role("button", name="Avoid"))
        record = await store.daily_attempt(ALICE, today(store))
        assert not record.over
        expected = f"Alice · Room {record.state.turn} · ❤️ {record.state.health}"
        if expected == before:
            continue  # a weapon taken, a potion at full health: nothing on the strip moves
        while await friend(bob, ALICE).inner_text() != expected:  # (the page's CSP forbids wait_for_function)
            assert time.perf_counter() - started < 2.0, "Bob's strip did not follow Alice's move within 2 s"
            await bob.wait_for_timeout(20)
        delays.append(time.perf_counter() - started)
    assert max(delays) < 2.0
    record = await store.daily_attempt(ALICE, today(store))

    # What the server sends of a friend: those fields and nothing else, never a card.
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{url}api/together/strip", params={"instance": INSTANCE},
                               headers={"Authorization": f"Bearer {alice_token}"}) as answer:
            strip = await answer.json()
    assert [set(f) for f in strip["friends"]] == [SHOWN]
    assert strip["friends"][0]["name"] == "Bob" and strip["friends"][0]["room"] == 1
    text = json.dumps(strip)
    cards = {c.code for c in record.state.start_deck}
    assert not any(f'"{code}"' in text for code in cards)


async def test_someone_not_in_the_instance_is_refused(served):
    url, store, discord = served
    token = discord.player(ALICE, "Alice")
    discord.instance_in(INSTANCE, 1, 2, BOB)
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{url}api/together/strip", params={"instance": INSTANCE},
                               headers={"Authorization": f"Bearer {token}"}) as answer:
            assert answer.status == 403
            assert (await answer.json())["error"] == "not-there"


async def test_where_the_push_is_blocked_the_strip_is_polled(served, browser):  # noqa: F811
    url, store, discord = served
    await store.put_daily(today(store), DAILY_SEED, preset("classic"))
    discord.player(ALICE, "Alice", code="code-alice")
    discord.player(BOB, "Bob", code="code-bob")
    discord.instance_in(INSTANCE, 1, 2, ALICE, BOB)
    alice = await seat(browser, url, "code-alice")
    bob = await browser.new_page(viewport=PHONE)
    polls = []
    bob.on("request", lambda request: polls.append(request.url) if "/api/together/strip" in request.url else None)

    async def exchange(route):
        await route.continue_(post_data=json.dumps({"code": "code-bob"}))

    await bob.route("**/api/token*", exchange)
    await bob.route("**/api/together?*", lambda route: route.abort())  # a proxy that lets no stream through
    await bob.goto(url + "?kind=daily")
    await friend(bob, ALICE).wait_for()
    await tap_and_wait(alice, alice.get_by_role("button", name="Avoid"))
    started = time.perf_counter()
    while await friend(bob, ALICE).inner_text() != "Alice · Room 2 · ❤️ 20":
        assert time.perf_counter() - started < 5.0
        await bob.wait_for_timeout(50)
    assert polls  # asked, since the stream was refused


async def test_a_challenges_players_who_open_the_table_in_its_channel_land_on_its_deal_together(served, browser):  # noqa: F811
    """Opened with no game named (from the challenge's message, the app launcher), the table asks the server for
    the player's game of a challenge running where Discord says the instance runs: each lands on their own game of
    its deal, and they see each other go; someone in the instance who did not join lands on their own game."""
    from app.challenges import play as challenges

    url, store, discord = served
    await store.put_daily(today(store), DAILY_SEED, preset("classic"))
    for player, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
        discord.player(player, name, code=f"code-{name.lower()}")
    discord.instance_in(INSTANCE, GUILD, CHANNEL, ALICE, BOB, CAROL)
    challenge = await challenges.start(store, ALICE, preset("classic"), guild_id=GUILD, channel_id=CHANNEL,
                                       locale="en-US", seed=4242)
    elsewhere = await challenges.start(store, CAROL, preset("classic"), guild_id=GUILD, channel_id=CHANNEL + 1,
                                       locale="en-US", seed=99)
    games = {p: (await challenges.join(store, challenge.id, p, n)).game for p, n in ((ALICE, "Alice"), (BOB, "Bob"))}
    await challenges.join(store, elsewhere.id, CAROL, "Carol")  # in another channel: not this table's
    from web.play import start as start_game
    await start_game(store, ALICE, "Alice", "daily")  # a daily in progress too: the challenge here comes first

    alice, bob, carol = [await seat(browser, url, f"code-{name}", "") for name in ("alice", "bob", "carol")]
    assert await alice.locator("main").get_attribute("data-game") == str(games[ALICE].id)
    assert await bob.locator("main").get_attribute("data-game") == str(games[BOB].id)
    assert games[ALICE].state.start_deck == games[BOB].state.start_deck  # one deal
    assert await carol.locator("main").get_attribute("data-screen") != "game"  # no game here: the first screen
    await friend(bob, ALICE).wait_for()
    assert await friend(bob, ALICE).inner_text() == "Alice · Room 1 · ❤️ 20"
    assert await friend(carol, ALICE).inner_text() == "Alice"  # not in the challenge: a name only
    await tap_and_wait(alice, alice.get_by_role("button", name="Avoid"))
    started = time.perf_counter()
    while await friend(bob, ALICE).inner_text() != "Alice · Room 2 · ❤️ 20":
        assert time.perf_counter() - started < 2.0, "Bob's strip did not follow Alice's move within 2 s"
        await bob.wait_for_timeout(20)
    # Once the challenge is closed, the table opens as before: the daily in progress.
    await challenges.close(store, challenge.id)
    discord.player(ALICE, "Alice", code="code-alice-again")  # (a code is good once)
    again = await seat(browser, url, "code-alice-again", "")
    assert await again.locator("main").get_attribute("data-game") == str((await store.daily_attempt(
        ALICE, today(store))).id)


async def test_a_challenge_at_the_table_on_a_phone_from_the_start_to_the_final_standings(served, browser):  # noqa: F811
    """The screens of a challenge in the Activity (docs/SCREENS.md): Bob's table on its deal with the others at
    the start, as they go, and at the end with their results; each strip waited for before the capture."""
    from app.challenges import play as challenges
    from tests.web.screens import check_screen
    from tests.web.test_browser import play_out

    url, store, discord = served
    names = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}
    for player, name in names.items():
        discord.player(player, name, code=f"code-{name.lower()}")
    discord.instance_in(INSTANCE, GUILD, CHANNEL, *names)
    challenge = await challenges.start(store, ALICE, preset("classic"), guild_id=GUILD, channel_id=CHANNEL,
                                       locale="en-US", seed=4242)
    for player, name in names.items():
        await challenges.join(store, challenge.id, player, name)
    pages = {player: await seat(browser, url, f"code-{name.lower()}", "") for player, name in names.items()}
    bob = pages[BOB]

    async def strip_reads(*expected: str) -> None:
        shown = bob.locator(".together .friend")
        started = time.perf_counter()
        while await shown.all_inner_texts() != list(expected):
            assert time.perf_counter() - started < 5.0, await shown.all_inner_texts()
            await bob.wait_for_timeout(50)

    await strip_reads("Alice · Room 1 · ❤️ 20", "Carol · Room 1 · ❤️ 20")
    await check_screen(bob, "activity-phone-challenge-start")
    await tap_and_wait(pages[ALICE], pages[ALICE].get_by_role("button", name="Avoid"))
    for _ in range(4):
        await tap_and_wait(pages[CAROL], pages[CAROL].locator(".room button.card:not([disabled])").first)
    await tap_and_wait(bob, bob.get_by_role("button", name="Avoid"))  # another way through the same deal
    carol = (await store.challenges.entrants(challenge.id))[2].game
    await strip_reads("Alice · Room 2 · ❤️ 20", f"Carol · Room {carol.state.turn} · ❤️ {carol.state.health}")
    await check_screen(bob, "activity-phone-challenge-live")
    await play_out(pages[CAROL])
    await play_out(bob)
    await challenges.close(store, challenge.id)  # time is up: Alice's game ends unfinished
    carol = (await store.challenges.entrants(challenge.id))[2].game
    await strip_reads("Alice · did not finish", f"Carol · Score {carol.score}")
    await check_screen(bob, "activity-phone-challenge-end")
