"""The chat and the Activity together, through the real bot under SimCord with its service serving the table:
Open the table under a game being played, the Entry Point command kept when commands are synced, and the chat
message of a game redrawn after a move made at the table (a public game and a private daily)."""

from __future__ import annotations

import time

import aiohttp
import pytest

from bot.config import Activity
from bot.entry_point import DESCRIPTION, PRIMARY_ENTRY_POINT
from tests.discord.fixtures import db_path, world  # noqa: F401
from tests.discord.harness import buttons, make_bot
from tests.web.conftest import bearer
from tests.web.fake_discord import CLIENT_ID, CLIENT_SECRET
from tests.web.test_api import a_move

TABLE = "sc:table:"


@pytest.fixture
async def simcord_bot(db_path, discord):  # noqa: F811
    activity = Activity(CLIENT_ID, CLIENT_SECRET, "https://table.example.org", discord.api_base)
    bot = make_bot(db_path, service_address=("127.0.0.1", 0), activity=activity)
    yield bot
    await bot.close()


def table_buttons(message) -> list:
    return [b for b in buttons(message) if (b.custom_id or "").startswith(TABLE)]


def versions(message) -> set[int]:
    """The versions the game buttons of a message were drawn at (``sc:g:<id>:<version>:…``)."""
    return {int(b.custom_id.split(":")[3]) for b in buttons(message) if b.custom_id.startswith("sc:g:")}


async def api(world,  # noqa: F811
               method: str, path: str, token: str, **body) -> dict:
    url = f"http://127.0.0.1:{world.bot.service.table_port}{path}"
    async with aiohttp.ClientSession() as session, session.request(
            method, url, json=body or None, headers=bearer(token)) as response:
        assert response.status == 200, await response.text()
        return (await response.json())["state"]


async def test_play_and_daily_offer_open_the_table_answered_by_the_launch_callback(world):  # noqa: F811
    game = (await world.alice.slash(world.channel, "scoundrel play")).response.message
    daily = (await world.alice.slash(world.channel, "scoundrel daily")).response.message
    record = await world.store.active_game(world.alice.id, "normal")
    offered = table_buttons(game)
    assert [b.custom_id for b in offered] == [f"{TABLE}{record.id}"] and offered[0].label == "Open the table"
    assert len(table_buttons(daily)) == 1

    world.env.http_requests.clear()
    started = time.perf_counter()
    click = await world.alice.click(game, custom_id=offered[0].custom_id)
    callbacks = [entry for entry in world.env.http_requests if entry.path.endswith("/callback")]
    # The first answer is Discord's LAUNCH_ACTIVITY (12), sent at once: no database, no picture.
    assert callbacks[0].json == {"type": 12} and time.perf_counter() - started < 3
    # SimCord refuses callback type 12 (Discord launches the Activity): the bot then says so privately.
    notes = [click.response.content] if click.response else []
    assert any("did not open the table" in note for note in notes + [m.content for m in click.followups])


async def test_the_sync_keeps_the_apps_entry_point_command(world):  # noqa: F811
    # Discord made it when the app's Activities were enabled; a bulk overwrite that drops it is refused.
    scope = world.env.backend.commands.setdefault(None, {})
    scope[("launch", PRIMARY_ENTRY_POINT)] = {"id": "777", "name": "launch", "type": PRIMARY_ENTRY_POINT,
                                              "description": "Launch an activity", "application_id": "1"}
    await world.bot.sync_tree()
    synced = world.env.backend.commands[None]
    kept = synced[("launch", PRIMARY_ENTRY_POINT)]
    assert kept["id"] == "777" and kept["description"] == DESCRIPTION
    assert kept["description_localizations"]["de"].startswith("Den Tisch öffnen")
    assert ("scoundrel", 1) in synced  # and the bot's own commands beside it


async def test_a_move_at_the_table_redraws_the_game_in_chat(world, discord):  # noqa: F811
    token = discord.player(world.alice.id, "alice")
    message = (await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")).response.message
    assert versions(message) == {0}
    state = await api(world, "GET", "/api/game?kind=normal", token)
    for _ in range(3):
        state = await api(world, "POST", f"/api/games/{state['id']}/move", token,
                          version=state["version"], action=a_move(state))
    assert not state["over"]
    await world.env.settle()
    shown = world.channel.last_message
    assert shown.id == message.id and versions(shown) == {3}


async def test_a_daily_finished_at_the_table_shows_finished_in_its_private_message(world, discord):  # noqa: F811
    token = discord.player(world.alice.id, "alice")
    answer = await world.alice.slash(world.channel, "scoundrel daily")
    assert versions(answer.response.message) == {0}
    state = await api(world, "GET", "/api/game?kind=daily", token)
    while not state["over"]:
        state = await api(world, "POST", f"/api/games/{state['id']}/move", token,
                          version=state["version"], action=a_move(state))
    await world.env.settle()
    shown = world.env.backend.get_message(world.channel.id, answer.response.message.id)
    labels = [component["label"] for row in shown.components for component in row["components"]]
    assert not any(c["custom_id"].startswith("sc:g:") for row in shown.components for c in row["components"])
    assert str(state["score"]) in str(shown.embeds[0]) and "New game" in " ".join(labels)


async def test_no_table_button_without_the_activity_section(world):  # noqa: F811
    await world.restart()  # the same bot without [activity]
    message = (await world.alice.slash(world.channel, "scoundrel play")).response.message
    assert table_buttons(message) == [] and versions(message) == {0}


async def test_the_extension_reloads(world):  # noqa: F811
    await world.bot.reload_extension("cogs.game.activity")
    assert len([c for c in world.bot.cogs if c == "PrivateMessages"]) == 1
    message = (await world.alice.slash(world.channel, "scoundrel play")).response.message
    assert len(table_buttons(message)) == 1


async def test_moves_faster_than_the_edits_are_drawn_once_the_newest(world):  # noqa: F811
    from app.play import solo
    from games.engine import legal_actions
    from games.i18n.messages import ENGLISH

    message = (await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")).response.message
    record = await world.store.active_game(world.alice.id, "normal")
    moved = []
    for _ in range(3):  # three moves at the table, each told to the chat as it is answered
        record = (await solo.move(world.store, record.id, world.alice.id, record.version,
                                  legal_actions(record.state)[0])).record
        moved.append(record)
    world.env.http_requests.clear()
    for record in moved:
        world.bot.service.follows.after_move(record, ENGLISH)
    await world.env.settle()
    edits = [entry for entry in world.env.http_requests if entry.method == "PATCH"]
    assert len(edits) == 1 and versions(world.channel.last_message) == {3}
    assert world.channel.last_message.id == message.id


async def test_a_daily_finished_at_the_table_counts_on_its_servers_post(world, discord):  # noqa: F811
    from tests.daily.test_daily_post import posts, schedule

    _, channel = await schedule(world, "08:00")
    await world.env.advance_time(8 * 3600 + 60)
    [post] = posts(channel)
    token = discord.player(world.alice.id, "alice")
    await world.alice.slash(world.channel, "scoundrel daily")  # started in this server's chat
    state = await api(world, "GET", "/api/game?kind=daily", token)
    while not state["over"]:
        state = await api(world, "POST", f"/api/games/{state['id']}/move", token,
                          version=state["version"], action=a_move(state))
    await world.env.settle()
    post = next(p for p in posts(channel) if p.id == post.id)
    assert post.embeds[0].description.endswith("👥 **1** player here has played today.")


async def test_a_challenge_offers_play_at_the_table_which_joins_and_opens_it_on_the_challenges_deal(world,  # noqa: F811
                                                                                                     discord):
    invite = (await world.alice.slash(world.channel, "scoundrel challenge")).response.message
    labels = [b.label for b in buttons(invite)]
    assert labels == ["Join", "Play at the table", "Close now"]
    table = next(b for b in buttons(invite) if b.label == "Play at the table")
    world.env.http_requests.clear()
    started = time.perf_counter()
    click = await world.bob.click(invite, custom_id=table.custom_id)
    callbacks = [entry for entry in world.env.http_requests if entry.path.endswith("/callback")]
    assert callbacks[0].json == {"type": 12} and time.perf_counter() - started < 3  # the launch, first
    # SimCord refuses the launch: Bob is told so, and given his game of the challenge in chat instead.
    assert click.ephemeral and "did not open the table" in click.response.content
    entrants = await world.store.challenges.entrants(next(iter(world.bot.get_cog("StandingsKeeper").watched)))
    assert [e.user_id for e in entrants] == [world.bob.id]  # joined, once
    # At the table opened in this channel, Bob's game is that one; in another channel's instance, none.
    token = discord.player(world.bob.id, "bob")
    discord.bot_token = world.bot.config.token  # the table asks Discord where an instance runs with the bot's token
    discord.instance_in("i-here", world.guild.id, world.channel.id, world.bob.id)
    discord.instance_in("i-there", world.guild.id, world.channel.id + 1, world.bob.id)
    assert (await api(world, "GET", "/api/game?kind=challenge&instance=i-here", token))["id"] == entrants[0].game.id
    url = f"http://127.0.0.1:{world.bot.service.table_port}/api/game?kind=challenge&instance=i-there"
    async with aiohttp.ClientSession() as session, session.get(url, headers=bearer(token)) as response:
        assert (await response.json())["state"] is None


async def test_without_the_activity_a_challenge_offers_no_table(world):  # noqa: F811
    await world.env.bot.close()
    await world.env.restart_bot(make_bot(world.database))
    invite = (await world.alice.slash(world.channel, "scoundrel challenge")).response.message
    assert [b.label for b in buttons(invite)] == ["Join", "Close now"]
