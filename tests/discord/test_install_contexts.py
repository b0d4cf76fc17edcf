"""Where the commands work: installed on a server or on a user's account; in servers, bot DMs and group DMs.

SimCord runs servers and the bot's DMs; it has no group DMs or servers without the bot, so those contexts are
covered by what the bot declares to Discord (the synced payload) and by ``bot_can_post`` deciding from the
interaction alone, which the DM tests exercise (there the bot is not in any server either).
"""

from __future__ import annotations

from tests.daily.helpers import admin_of, codes
from tests.discord.harness import private_notes


def synced(world, member) -> dict:
    """The commands as Discord holds them after the bot's sync (what it shows to ``member``)."""
    return {c["name"]: c for c in world.env.backend.visible_commands(user_id=member.id, channel_id=world.channel.id)}


async def test_scoundrel_is_user_installable_everywhere_and_admin_is_server_only(world):
    commands = synced(world, admin_of(world))
    scoundrel = commands["scoundrel"]
    assert sorted(scoundrel["integration_types"]) == [0, 1]  # server install and user install
    assert sorted(scoundrel["contexts"]) == [0, 1, 2]  # servers, the bot's DMs, group DMs
    admin = commands["scoundrel-admin"]
    assert admin["integration_types"] == [0] and admin["contexts"] == [0]


async def test_a_game_and_the_daily_are_played_in_the_bots_dms(world):
    user = world.env.create_user("carol")
    played = await user.slash("scoundrel play", seed="0000-0004")
    message = played.response.message
    await user.click(message, custom_id=codes(message)["T0"].custom_id)  # equip ♦7
    record = await world.store.active_game(user.id, "normal")
    assert record.guild_id is None and [a.code for a in record.state.history] == ["T0"]

    daily = await user.slash("scoundrel daily")
    assert daily.ephemeral
    from tests.daily.helpers import play_to_end

    await play_to_end(user, daily.response)
    attempt = await world.store.daily_attempt(user.id, 1)
    assert attempt.guild_id is None and attempt.over
    # A daily played outside a server is on the global board, on no server's.
    assert [e.user_id for e in await world.store.leaderboard_daily(1)] == [user.id]
    assert await world.store.leaderboard_daily(1, world.guild.id) == []
    board = await user.slash("scoundrel leaderboard")
    assert "no server board" in board.response.content  # the global board names its players: no mentions
    shown = board.response.embeds[0].description
    assert "🥇 **carol** — " in shown and "<@" not in shown


async def test_duels_need_a_server_with_the_bot(world):
    user = world.env.create_user("carol")
    refused = await user.slash("scoundrel duel")
    assert private_notes(refused)[0].startswith("Duels are played in a server channel that has the bot")


async def test_a_german_player_plays_a_game_and_the_daily_in_the_bots_dms_in_german(world, locales):
    """A user-installed player outside any server, in German from the first room to the daily's board."""
    from tests.daily.helpers import play_to_end
    from tests.discord.harness import buttons

    user = world.env.create_user("carol")
    locales.speak(user, "de")
    played = await user.slash("scoundrel play", seed="0000-0004")
    message = played.response.message
    assert message.embeds[0].title == "Scoundrel — Raum 1"
    assert "Meiden" in [b.label for b in buttons(message)]
    await user.click(message, custom_id=codes(message)["T0"].custom_id)  # equip ♦7
    assert "♦️7 angelegt." in played.response.message.embeds[0].description  # the engine's event, in German
    await play_to_end(user, played.response)
    over = played.response.message.embeds[0]
    assert over.title.startswith("💀 Gestorben") and "Punkte" in over.description and "Verlies" in over.description
    assert "mit Fäusten bekämpft" in over.description and over.footer.text == "🔁 /scoundrel spielen seed:0000-0004"

    daily = await user.slash("scoundrel daily")
    first = daily.response.message.embeds[0]
    assert first.title == "Tagesspiel #1 — Raum 1" and first.description.startswith("Dieser Versuch zählt · endet <t:")
    await play_to_end(user, daily.response)
    assert daily.response.message.embeds[0].title.startswith("💀 Tagesspiel #1 · ")
    board = await user.slash("scoundrel leaderboard")
    assert board.response.content.startswith("Außerhalb eines Servers gibt es keine Serverliste")
    assert board.response.embeds[0].title.startswith("🏆 Tagesspiel #1") and "(gestorben)" in \
        board.response.embeds[0].description
