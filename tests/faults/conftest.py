import pytest

from tests.discord.fixtures import db_path, locales, world  # noqa: F401
from tests.discord.harness import make_bot


@pytest.fixture
async def simcord_bot(db_path):  # noqa: F811
    """The real bot, without par unless a test sets ``bot.par_solver`` (a real solve costs seconds of CPU)."""
    bot = make_bot(db_path)
    yield bot
    await bot.close()
