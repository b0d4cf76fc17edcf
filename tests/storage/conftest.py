"""Every storage test runs on both backends (``[sqlite]`` on a temp file, ``[postgres]`` on a fresh database of a
real server), unless marked ``sqlite_only`` (tests about SQLite files: backup, WAL, its migrations)."""

from __future__ import annotations

import pytest

from storage import open_store
from tests.storage.helpers import Clock


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request):
    return request.param


@pytest.fixture
def db_path(backend, tmp_path, request):
    """Where the test's database lives: a SQLite file's path, or a PostgreSQL URL."""
    if backend == "sqlite" or request.node.get_closest_marker("sqlite_only"):
        return tmp_path / "scoundrel.sqlite3"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def store(db_path, clock):
    opened = await open_store(db_path, clock=clock)
    try:
        yield opened
    finally:
        await opened.close()
