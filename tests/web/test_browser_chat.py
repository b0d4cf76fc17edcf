"""End to end with the chat: Debian's Chromium plays a daily at the table served by the real bot's service (under
SimCord, Discord's stand-in), opened as Open the table opens it (no game named: the daily being played); the
chat's private daily message then shows the finished table, and the server's board in chat has the score."""

from __future__ import annotations

from tests.discord.fixtures import db_path, world  # noqa: F401
from tests.web.test_browser import browser, open_table, play_out, pytestmark  # noqa: F401
from tests.web.test_open_table import simcord_bot, versions  # noqa: F401


async def test_a_daily_played_in_the_browser_shows_finished_in_chat(world, discord, browser):  # noqa: F811
    discord.player(world.alice.id, "alice", code="mock_code")  # the code DiscordSDKMock presents
    answer = await world.alice.slash(world.channel, "scoundrel daily")
    assert versions(answer.response.message) == {0}
    page, _, errors = await open_table(browser, f"http://127.0.0.1:{world.bot.service.table_port}/")
    record = await world.store.active_game(world.alice.id, "daily")
    assert int(await page.get_attribute("main", "data-game")) == record.id  # the daily, not a new game
    await play_out(page)
    finished = await world.store.load_game(record.id)
    assert finished.status in ("won", "dead") and errors == []
    await page.close()  # (its connections too: SimCord waits for the bot's work to settle)
    await world.env.settle()
    shown = world.env.backend.get_message(world.channel.id, answer.response.message.id)
    assert not [c for row in shown.components for c in row["components"]
                if c.get("custom_id", "").startswith("sc:g:")]  # no move left to click: the finished table
    assert f"Score: {finished.score}" in str(shown.embeds[0])
    board = await world.alice.slash(world.channel, "scoundrel leaderboard")
    text = f"{board.response.embeds[0].title}\n{board.response.embeds[0].description}"
    assert "**alice**" in text and str(finished.score) in text
