import pytest

from tests.discord.fixtures import db_path, locales, world  # noqa: F401
from tests.discord.harness import make_bot


@pytest.fixture
async def simcord_bot(db_path):  # noqa: F811
    """The real bot, without par (solving the daily deal takes seconds of CPU; duels don't need it)."""
    bot = make_bot(db_path)
    yield bot
    await bot.close()
