"""A bot configured with the daily turned off says so, posts nothing and keeps settings unchanged."""

from __future__ import annotations

import pytest

from cogs.daily.play import DAILY_OFF
from tests.daily.helpers import admin_of
from tests.discord.harness import make_bot


@pytest.fixture
async def simcord_bot(db_path):
    bot = make_bot(db_path, daily_enabled=False)
    yield bot
    await bot.close()


async def test_the_daily_can_be_turned_off_in_the_config(world):
    result = await world.alice.slash(world.channel, "scoundrel daily")
    assert result.ephemeral and result.response.content == DAILY_OFF
    assert await world.store.active_game(world.alice.id, "daily") is None
    admin = admin_of(world)
    refused = await admin.slash(world.channel, "scoundrel-admin daily", channel=world.channel, time="01:00")
    assert refused.response.content == DAILY_OFF
    assert not (await world.store.get_guild_settings(world.guild.id)).daily_scheduled
    await world.env.advance_time(2 * 3600)
    assert world.channel.history() == []
