"""The table's server on loopback, over a real store (SQLite and PostgreSQL), with a stand-in Discord."""

from __future__ import annotations

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from storage import open_store
from tests.storage.helpers import Clock
from tests.web.fake_discord import CLIENT_ID, CLIENT_SECRET, FakeDiscord
from web.identity import DiscordIdentity
from web.routes import Table, add_routes

ALICE, BOB = 111111111111111111, 222222222222222222


@pytest.fixture(params=["sqlite", "postgres"])
def db_target(request, tmp_path):
    if request.param == "sqlite":
        return tmp_path / "scoundrel.sqlite3"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def store(db_target, clock):
    opened = await open_store(db_target, clock=clock)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def discord():
    fake = FakeDiscord()
    await fake.server.start_server()
    try:
        yield fake
    finally:
        await fake.server.close()


@pytest.fixture
async def served(store, discord):
    """(the HTTP client, the Table it serves) with Alice and Bob known to Discord."""
    identity = DiscordIdentity(CLIENT_ID, CLIENT_SECRET, discord.api_base, bot_token=discord.bot_token)
    table = Table(store=lambda: store, identity=identity, client_id=CLIENT_ID)
    app = web.Application()
    add_routes(app, table)
    client = TestClient(TestServer(app))
    await client.start_server()
    try:
        yield client, table
    finally:
        await client.close()
        await identity.close()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def alice(discord):
    return bearer(discord.player(ALICE, "Alice"))


@pytest.fixture
def bob(discord):
    return bearer(discord.player(BOB, "Bob"))
