from __future__ import annotations

import pytest

from storage import Store
from tests.storage.helpers import Clock


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "scoundrel.sqlite3"


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def store(db_path, clock):
    opened = await Store.open(db_path, clock=clock)
    try:
        yield opened
    finally:
        await opened.close()
