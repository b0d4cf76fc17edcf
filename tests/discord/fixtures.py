"""Pytest fixtures for SimCord tests of the real bot; import them into a conftest (see harness.py)."""

from __future__ import annotations

import pytest

from tests.discord.harness import World, make_bot


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "scoundrel.sqlite3"


@pytest.fixture
async def simcord_bot(db_path):
    """The unstarted bot SimCord's ``simcord_env`` fixture runs; closed (store and all) after the test."""
    from cogs.game_message import view

    # The table's pictures are kept per process (cogs/game_message/view.py): a test starts with none, as a new process
    # does, so it never gets back a picture that an earlier test drew of the same deal.
    view._PICTURES.clear()
    bot = make_bot(db_path)
    yield bot
    await bot.close()


@pytest.fixture
async def world(simcord_env, db_path):
    env = simcord_env
    guild = env.create_guild("Dungeon Hall")
    channel = guild.create_text_channel("general")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    w = World(env=env, guild=guild, channel=channel, alice=alice, bob=bob, database=db_path)
    yield w
    if env.bot is not None and not env.bot.is_closed():
        await env.bot.close()  # a bot attached by world.restart(); the fixture closes only the first one


@pytest.fixture
def locales(monkeypatch):
    """Set the locale of each user's interactions (``locales.speak(world.alice, "de")``); see harness.Locales."""
    from tests.discord.harness import Locales

    return Locales(monkeypatch)
