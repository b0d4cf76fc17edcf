import pytest

from storage import Store
from tests.discord.fixtures import db_path, simcord_bot, world  # noqa: F401


@pytest.fixture
async def store(db_path):  # noqa: F811 - the db_path fixture imported above
    opened = await Store.open(db_path)
    try:
        yield opened
    finally:
        await opened.close()
