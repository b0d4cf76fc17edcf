import pytest

from tests.discord.fixtures import db_path, locales, world  # noqa: F401
from tests.discord.harness import make_bot


@pytest.fixture
async def simcord_bot(db_path):  # noqa: F811
    """The real bot without the daily poster or a par worker (they would start solving at start-up); tests that click
    "Best possible" give ``cogs.coach.best_possible`` an in-process solver instead."""
    bot = make_bot(db_path, daily_enabled=False)
    yield bot
    await bot.close()
