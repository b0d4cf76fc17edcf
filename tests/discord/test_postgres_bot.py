"""The real bot on PostgreSQL (SimCord): games play, a server restart is answered politely and the bot goes on."""

from __future__ import annotations

import asyncio

import pytest

from cogs.plumbing.errors import DATABASE_DOWN
from tests.discord.harness import buttons, private_notes


@pytest.fixture
def db_path(pg_url):
    """This module's bots keep their data in PostgreSQL (a fresh database of the tests' own server)."""
    return pg_url


def card_button(message) -> str:
    """The first room card a player can take now."""
    return next(b.custom_id for b in buttons(message) if b.custom_id and not b.disabled
                and b.custom_id.split(":")[-1][:1] == "T")


async def test_a_postgresql_restart_gets_a_polite_answer_and_the_bot_reconnects(world, postgres_server):
    await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")
    message = world.channel.last_message
    await world.alice.click(message, custom_id=card_button(message))
    record = await world.store.active_game(world.alice.id)
    assert record.version == 1

    message = world.channel.last_message
    await asyncio.to_thread(postgres_server.server_stop, "immediate")
    try:
        click = await world.alice.click(message, custom_id=card_button(message))
        assert private_notes(click) == [DATABASE_DOWN]
    finally:
        await asyncio.to_thread(postgres_server.server_start)

    assert (await world.store.active_game(world.alice.id)).version == 1  # the move before the outage is kept
    message = world.channel.last_message
    await world.alice.click(message, custom_id=card_button(message))
    assert (await world.store.active_game(world.alice.id)).version == 2  # same bot, new connections
