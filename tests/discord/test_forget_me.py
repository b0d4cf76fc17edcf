"""``/scoundrel forget-me``: a player deletes what the bot keeps about them, privately, after a confirmation, in
their language. The real bot under SimCord, on a real SQLite file."""

from __future__ import annotations

import pytest

from cogs.account.forget_me import ASK, DONE, KEPT
from games.i18n.messages import messages_for
from tests.discord.harness import button_by_code, buttons, private_notes


async def test_forget_me_asks_first_and_then_deletes_only_the_players_data(world):
    started = await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")
    game = started.response.message
    moved = await world.alice.click(game, custom_id=button_by_code(game, "T0").custom_id)  # the game in memory
    game = moved.response.message
    await world.bob.slash(world.channel, "scoundrel play", seed="0000-0005")
    alices = await world.store.active_game(world.alice.id, "normal")
    bobs = await world.store.active_game(world.bob.id, "normal")
    await world.store.keep_name(alices.id, "alice")

    asked = await world.alice.slash(world.channel, "scoundrel forget-me")
    assert asked.ephemeral and asked.response.content == ASK  # private, and nothing deleted yet
    assert [b.label for b in buttons(asked.response)] == ["Delete my data", "Keep my data"]
    assert (await world.store.active_game(world.alice.id, "normal")).id == alices.id
    await world.alice.click(asked.response, label="Keep my data")
    assert asked.response.content == KEPT and buttons(asked.response) == []
    assert (await world.store.active_game(world.alice.id, "normal")).id == alices.id

    asked = await world.alice.slash(world.channel, "scoundrel forget-me")
    await world.alice.click(asked.response, label="Delete my data")
    assert asked.response.content == DONE.format(play="/scoundrel play") and buttons(asked.response) == []
    assert await world.store.recent_games(world.alice.id) == [] and await world.store.names_for([world.alice.id]) == {}
    assert (await world.store.active_game(world.bob.id, "normal")).id == bobs.id  # the other player's stays
    stale = await world.alice.click(game, custom_id=button_by_code(game, "T1").custom_id)  # her old message
    assert private_notes(stale) == ["That game no longer exists — start one with `/scoundrel play`."]
    again = await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")
    assert not again.ephemeral  # a new game starts afresh


@pytest.mark.parametrize("locale", ["de", "fr", "es-ES"])
async def test_forget_me_speaks_the_players_language(world, locales, locale):
    locales.speak(world.alice, locale)
    tr = messages_for(locale)
    asked = await world.alice.slash(world.channel, "scoundrel forget-me")
    assert asked.response.content == tr(ASK) != ASK
    assert [b.label for b in buttons(asked.response)] == [tr("Delete my data"), tr("Keep my data")]
    await world.alice.click(asked.response, label=tr("Delete my data"))
    assert asked.response.content == tr(
        "I keep nothing about you, so there was nothing to delete.")  # a player who never played


async def test_a_finished_duel_stays_for_the_other_player_without_the_forgotten_name(world):
    from storage import duels

    store = world.bot.store
    challenge = await duels.create_challenge(store, world.alice.id, world.bob.id, world.guild.id, world.channel.id,
                                             seed=7, names=("alice", "bob"))
    started = await duels.answer_challenge(store, challenge.id, world.bob.id, True)
    await duels.play_duel(store, started.id, world.alice.id, started.version, "R0")  # alice resigns
    asked = await world.alice.slash(world.channel, "scoundrel forget-me")
    await world.alice.click(asked.response, label="Delete my data")

    shown = await world.bob.slash(world.channel, "scoundrel replay", duel=challenge.id)
    text = (shown.response.content or "") + "".join(e.description or "" for e in shown.response.embeds)
    assert "alice" not in text and "<@0>" not in text and str(world.alice.id) not in text
    assert "**—**" in text and "bob" in text, text
