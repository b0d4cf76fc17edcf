"""Whatever a client sends, the table answers with a status and a JSON refusal, never a 500 or a traceback: odd
digits in an action (``T①``), JSON nested 2,000 deep, a URL or a header over 8 KB, and any body at all."""

from __future__ import annotations

import asyncio
import json
import logging

import aiohttp
import pytest
from aiohttp import web
from hypothesis import given, settings
from hypothesis import strategies as st

from storage import open_store
from tests.outside_text import ODD_DIGITS, outside
from web.identity import LocalIdentity
from web.limits import RateLimit
from web.routes import Table, add_routes

REFUSALS = {400, 404, 409, 413, 422}


async def start(client, who) -> dict:
    answer = await client.post("/api/games", json={"kind": "normal"}, headers=who)
    return (await answer.json())["state"]


@pytest.mark.parametrize("action", [f"T{d}" for d in ODD_DIGITS[:6]] + ["W²", "B①"])
async def test_an_action_in_odd_digits_is_a_400_in_words(served, store, alice, action):
    client, _ = served
    state = await start(client, alice)
    answer = await client.post(f"/api/games/{state['id']}/move", json={"version": 0, "action": action},
                               headers=alice)
    assert answer.status == 400
    assert (await answer.json())["message"] == "That is not a move of this game."
    assert (await store.load_game(state["id"])).version == 0  # nothing moved


async def test_json_nested_2000_deep_is_a_400_in_json(served, alice):
    client, _ = served
    for body in ("[" * 2000, '{"kind": ' + "[" * 2000 + "]" * 2000 + "}", '{"a":' * 1500):
        answer = await client.post("/api/games", data=body.encode()[:2048], headers=alice)
        assert answer.status == 400 and (await answer.json())["error"] == "bad-json"


async def test_a_game_id_in_odd_digits_is_not_found(served, alice):
    client, _ = served
    for game in ("①", "²", "٣", "9" * 5000):
        answer = await client.get(f"/api/games/{game}", headers=alice)
        assert answer.status == 404


async def raw(port: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    answer = await reader.read()
    writer.close()
    return answer


async def test_a_url_or_header_over_8_kb_is_refused_without_a_traceback_in_the_log(served, alice, caplog):
    client, _ = served
    port = client.server.port
    secret = "t" * 9000  # a header over the limit, as a token could be: never written to the log
    caplog.set_level(logging.DEBUG)
    for request in (b"GET /api/me?" + b"x" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
                    b"GET /api/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + secret.encode() + b"\r\n\r\n",
                    b"GET /api/me HTTP/1.1\r\nHost: x\r\nX-" + b"y" * 9000 + b": 1\r\n\r\n"):
        answer = await raw(port, request)
        assert answer.split(b" ", 2)[1] == b"400"
    server_records = [r for r in caplog.records if r.name.startswith("aiohttp")]
    assert server_records and all(r.exc_info is None and r.levelno <= logging.INFO for r in server_records)
    assert "Traceback" not in caplog.text and secret not in caplog.text
    assert "refused a request it could not read (LineTooLong, status 400)" in caplog.text


@pytest.fixture(scope="module")
def table_loop(tmp_path_factory):
    """A table on loopback over SQLite, in a loop of its own (hypothesis drives it example by example)."""
    loop = asyncio.new_event_loop()

    async def open_table():
        store = await open_store(tmp_path_factory.mktemp("table") / "fuzz.sqlite3")
        app = web.Application()
        identity = LocalIdentity()
        add_routes(app, Table(store=lambda: store, identity=identity, limits=RateLimit(rate=1e6, burst=10**6)))
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        session = aiohttp.ClientSession(f"http://127.0.0.1:{runner.addresses[0][1]}")
        token = await identity.exchange("local")
        headers = {"Authorization": f"Bearer {token}"}
        game = (await (await session.post("/api/games", json={"kind": "normal"}, headers=headers)).json())["state"]
        return store, runner, session, headers, game["id"]

    store, runner, session, headers, game_id = loop.run_until_complete(open_table())
    try:
        yield loop, session, headers, game_id
    finally:
        loop.run_until_complete(session.close())
        loop.run_until_complete(runner.cleanup())
        loop.run_until_complete(store.close())
        loop.close()


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                           max_leaves=20)


@settings(max_examples=120, deadline=None)
@given(body=st.one_of(st.binary(max_size=2100), outside().map(str.encode),
                      st.builds(lambda version, action: {"version": version, "action": action},
                                json_values, st.one_of(outside("TWBALRDOE"), json_values))))
def test_any_move_body_is_answered_with_a_status_and_json(table_loop, body):
    loop, session, headers, game_id = table_loop

    async def post():
        if isinstance(body, dict):
            answer = await session.post(f"/api/games/{game_id}/move", json=body, headers=headers)
        else:
            answer = await session.post(f"/api/games/{game_id}/move", data=body, headers=headers)
        return answer.status, answer.content_type, await answer.read()

    status, content_type, payload = loop.run_until_complete(post())
    assert status == 200 or status in REFUSALS, (status, payload)
    if status not in (200, 413):  # (413: the body is over BODY_LIMIT, refused before it is read)
        assert content_type == "application/json" and set(json.loads(payload)) >= {"error", "message"}


@settings(max_examples=60, deadline=None)
@given(game=outside(), locale=outside(), kind=outside())
def test_any_path_and_query_is_answered_without_a_fault(table_loop, game, locale, kind):
    loop, session, headers, _ = table_loop

    async def get():
        statuses = []
        for path, params in ((f"/api/games/{game}", {"locale": locale}), ("/api/game", {"kind": kind})):
            try:
                answer = await session.get(path, params=params, headers=headers)
            except ValueError:  # a URL the client itself will not send (a lone surrogate, say)
                continue
            statuses.append(answer.status)
            await answer.read()
        return statuses

    assert all(status < 500 for status in loop.run_until_complete(get()))
