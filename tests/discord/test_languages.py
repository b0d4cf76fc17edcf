"""Players read the bot in their Discord client's language (German here); others keep theirs."""

from __future__ import annotations

from cogs.plumbing.clicks import UNKNOWN_BUTTON
from games.i18n.messages import messages_for
from tests.discord.harness import click_on_snapshot, private_notes, snapshot


async def test_a_refusal_is_written_in_the_clicking_players_language(world, locales):
    locales.speak(world.alice, "de")
    message = (await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")).response.message
    result = await click_on_snapshot(world.alice, snapshot(world.alice, message), "sc:nonsense")
    german = private_notes(result)
    assert german == [messages_for("de")(UNKNOWN_BUTTON)]
    assert german[0].startswith("Dieser Knopf ist veraltet")
    result = await click_on_snapshot(world.bob, snapshot(world.bob, message), "sc:nonsense")
    assert private_notes(result) == [UNKNOWN_BUTTON]  # bob's client is in English


async def test_an_unknown_language_reads_english(world, locales):
    locales.speak(world.alice, "ja")
    message = (await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")).response.message
    result = await click_on_snapshot(world.alice, snapshot(world.alice, message), "sc:nonsense")
    assert private_notes(result) == [UNKNOWN_BUTTON]


async def test_a_malformed_seed_is_refused_in_the_players_language(world, locales):
    locales.speak(world.alice, "de")
    result = await world.alice.slash(world.channel, "scoundrel play", seed="nonsense!")
    assert private_notes(result) == ["`nonsense!` ist kein Seed: Ein Seed besteht aus 8 Buchstaben und Ziffern wie "
                                     "K7Q2-M9XD. Lass `seed` weg, um neu zu geben."]
    assert await world.store.active_game(world.alice.id, "normal") is None  # nothing started
