"""The routes on the bot's service app (beside /healthz) when [activity] is set, and none without it; two processes
serving one PostgreSQL database race the same move and exactly one lands."""

from __future__ import annotations

import asyncio
import types

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Activity, Config
from bot.service import Service
from storage import open_store
from tests.web.conftest import ALICE, bearer
from tests.web.fake_discord import CLIENT_ID, CLIENT_SECRET
from web.identity import DiscordIdentity
from web.routes import Table, add_routes


def fake_bot(store, activity):
    config = Config(token="x", activity=activity)
    return types.SimpleNamespace(config=config, store=store, is_ready=lambda: True, is_closed=lambda: False,
                                 get_cog=lambda name: None, metrics=None)


@pytest.mark.parametrize("with_activity", [True, False])
async def test_the_service_serves_the_table_only_when_configured(tmp_path, discord, with_activity):
    store = await open_store(tmp_path / "s.sqlite3")
    activity = Activity(CLIENT_ID, CLIENT_SECRET, "https://table.example.org", discord.api_base) \
        if with_activity else None
    service = Service(fake_bot(store, activity), "127.0.0.1", 0)
    await service.start()
    token = discord.player(ALICE, "Alice", code="c")
    try:
        async with aiohttp.ClientSession(f"http://127.0.0.1:{service.port}") as http:
            exchanged = await http.post("/api/token", json={"code": "c"})
            page = await http.get("/")
            assert exchanged.status == 404 and page.status == 404  # the operators' address serves no table
            assert (await exchanged.json())["error"] == "not-found"
        if not with_activity:
            assert service.table_port is None
            return
        async with aiohttp.ClientSession(f"http://127.0.0.1:{service.table_port}") as http:
            exchanged = await http.post("/api/token", json={"code": "c"})
            page = await http.get("/")
            assert exchanged.status == 200 and (await exchanged.json())["access_token"] == token
            assert page.status == 200 and f'content="{CLIENT_ID}"' in await page.text()
            started = await http.post("/api/games", json={"kind": "normal"}, headers=bearer(token))
            assert started.status == 200 and (await store.active_game(ALICE)) is not None
    finally:
        await service.close()
        await store.close()


async def test_health_and_metrics_are_never_served_where_the_table_is(tmp_path, discord):
    """The Activity's public URL is proxied to the table's address: /healthz and /metrics are not there, only on
    the operators' own address; with no operators' address they are served nowhere."""
    store = await open_store(tmp_path / "s.sqlite3")
    activity = Activity(CLIENT_ID, CLIENT_SECRET, "https://table.example.org", discord.api_base)
    bot = fake_bot(store, activity)
    bot.metrics = types.SimpleNamespace(exposition=lambda: b"scoundrel_up 1\n")
    for host in ("127.0.0.1", None):
        service = Service(bot, host, 0)
        await service.start()
        try:
            async with aiohttp.ClientSession() as http:
                for path in ("/healthz", "/metrics"):
                    public = await http.get(f"http://127.0.0.1:{service.table_port}{path}",
                                            headers={"X-Forwarded-For": "203.0.113.9"})
                    assert public.status == 404 and (await public.json())["error"] == "not-found", path
                if host is not None:
                    metrics = await http.get(f"http://127.0.0.1:{service.port}/metrics")
                    assert metrics.status == 200 and "scoundrel_up 1" in await metrics.text()
                    assert (await http.get(f"http://127.0.0.1:{service.port}/healthz")).status in (200, 503)
                else:
                    assert service.runners and len(service.runners) == 1  # the table's alone
        finally:
            await service.close()
    await store.close()


async def test_two_processes_on_one_database_move_once(pg_url, discord):
    """Two servers, each with its own store on the same PostgreSQL database (as two processes would be)."""
    stores = [await open_store(pg_url) for _ in range(2)]
    clients, identities = [], [DiscordIdentity(CLIENT_ID, CLIENT_SECRET, discord.api_base) for _ in stores]
    for store, identity in zip(stores, identities, strict=True):
        app = web.Application()
        add_routes(app, Table(store=lambda store=store: store, identity=identity))
        client = TestClient(TestServer(app))
        await client.start_server()
        clients.append(client)
    alice = bearer(discord.player(ALICE, "Alice"))
    try:
        state = (await (await clients[0].post("/api/games", json={"kind": "normal"}, headers=alice)).json())["state"]
        code = next(slot["take"]["code"] for slot in state["room"] if slot.get("take"))
        answers = await asyncio.gather(*[client.post(f"/api/games/{state['id']}/move",
                                                     json={"version": 0, "action": code}, headers=alice)
                                         for client in clients for _ in range(3)])
        assert sorted(answer.status for answer in answers) == [200] + [409] * 5
        assert (await stores[1].load_game(state["id"])).version == 1
    finally:
        for client in clients:
            await client.close()
        for store, identity in zip(stores, identities, strict=True):
            await identity.close()
            await store.close()


async def test_moves_alternating_between_two_processes_each_land_once(pg_url, discord):
    """A move reads nothing first: each server's store moves from the game as it last held it, so one server moves
    the game on while the other still holds an older version; that one must neither lose nor repeat a move."""
    from games.engine import preset
    from games.engine.cards import build_deck, parse_deck
    from tests.web.test_api import a_move
    from tests.web.test_browser import WEAPON_FIRST

    stores = [await open_store(pg_url) for _ in range(2)]
    clients, identities = [], [DiscordIdentity(CLIENT_ID, CLIENT_SECRET, discord.api_base) for _ in stores]
    for store, identity in zip(stores, identities, strict=True):
        app = web.Application()
        add_routes(app, Table(store=lambda store=store: store, identity=identity))
        client = TestClient(TestServer(app))
        await client.start_server()
        clients.append(client)
    alice = bearer(discord.player(ALICE, "Alice"))
    try:
        deck = parse_deck(WEAPON_FIRST, build_deck())  # a deal that survives these four moves
        made = await stores[0].create_game(ALICE, None, None, preset("classic"), None, deck, "normal")
        state = (await (await clients[0].get(f"/api/games/{made.id}", headers=alice)).json())["state"]
        for turn in range(4):  # A, B, A, B: each server finds the game moved on by the other since it last held it
            answer = await clients[turn % 2].post(f"/api/games/{state['id']}/move", headers=alice,
                                                  json={"version": state["version"], "action": a_move(state)})
            assert answer.status == 200, await answer.text()
            state = (await answer.json())["state"]
        assert state["version"] == 4
        stale = await clients[0].post(f"/api/games/{state['id']}/move", json={"version": 3, "action": "T0"},
                                      headers=alice)  # the server held version 3 when it last moved it
        assert stale.status == 409 and (await stale.json())["state"]["version"] == 4
        record = await stores[1].load_game(state["id"])
        assert record.version == 4 and len(record.state.history) == 4
    finally:
        for client in clients:
            await client.close()
        for store, identity in zip(stores, identities, strict=True):
            await identity.close()
            await store.close()
