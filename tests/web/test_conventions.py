"""The web's refusals by HTTP's conventions: every one is JSON ``{"error", "message"}`` with its status, also those
aiohttp makes itself (an unknown route, a method not served, a body too large, a header or URL it cannot parse),
none repeats what was sent, and a 429 or 503 says when to ask again (``Retry-After``)."""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from app.solver.worker import SolverBusy
from bot.web_local import start as start_local
from tests.web.fake_discord import CLIENT_ID, CLIENT_SECRET
from tests.web.test_api import start
from web.http import BODY_LIMIT, SECURITY_HEADERS
from web.identity import DiscordIdentity, LocalIdentity
from web.limits import RateLimit
from web.routes import Table, add_routes

SECRET_HEADER = "do-not-echo-" + "x" * 9000  # over aiohttp's 8 KB for a header


@pytest.fixture(params=["sqlite"])  # the conventions are not about the database: one backend
def db_target(request, tmp_path):
    return tmp_path / "scoundrel.sqlite3"


async def refused(answer: aiohttp.ClientResponse, status: int, error: str | None = None) -> dict:
    """The answer is ``status`` with the JSON refusal (and the security headers); its body."""
    assert answer.status == status, await answer.text()
    assert answer.content_type == "application/json"
    body = await answer.json()
    assert set(body) >= {"error", "message"} and body["message"], body
    assert error is None or body["error"] == error, body
    assert answer.headers["X-Content-Type-Options"] == SECURITY_HEADERS["X-Content-Type-Options"]
    return body


async def test_aiohttps_own_refusals_are_json(served, alice):
    client, _ = served
    await refused(await client.get("/api/nothing-here", headers=alice), 404, "not-found")
    await refused(await client.get("/no/such/page"), 404, "not-found")
    await refused(await client.get("/assets/.hidden"), 404, "not-found")
    await refused(await client.get("/api/games/not-a-number", headers=alice), 404, "not-found")
    wrong = await client.delete("/api/games", headers=alice)
    await refused(wrong, 405, "method-not-allowed")
    assert "POST" in wrong.headers["Allow"]  # which methods it does take, as HTTP says
    state = await start(client, alice)
    large = await client.post(f"/api/games/{state['id']}/move", data=b"{" + b" " * BODY_LIMIT + b"}",
                              headers={**alice, "Content-Type": "application/json"})
    await refused(large, 413, "too-large")

    async def chunks():  # no Content-Length: the body is cut off as it arrives
        for _ in range(4):
            yield b" " * BODY_LIMIT

    streamed = await client.post(f"/api/games/{state['id']}/move", data=chunks(), headers=alice)
    await refused(streamed, 413, "too-large")


async def test_an_unexpected_failure_is_a_json_500_and_a_logged_traceback(discord, caplog):
    def broken_store():
        raise RuntimeError("the store went away")

    app = web.Application()
    add_routes(app, Table(store=broken_store, identity=LocalIdentity()))
    async with TestClient(TestServer(app)) as client:
        token = (await (await client.post("/api/token", json={"code": "c"})).json())["access_token"]
        body = await refused(await client.get("/api/game", headers={"Authorization": f"Bearer {token}"}), 500,
                             "internal")
    assert "store went away" not in body["message"]
    assert any(record.exc_info and "store went away" in str(record.exc_info[1]) for record in caplog.records)


async def test_a_request_over_its_budget_is_told_when_to_come_back(served, alice):
    client, table = served
    table.limits = RateLimit(rate=0.25, burst=1)  # one now, the next in 4 s
    assert (await client.get("/api/me", headers=alice)).status == 200
    answer = await client.get("/api/me", headers=alice)
    body = await refused(answer, 429, "rate-limited")
    assert answer.headers["Retry-After"] == "4" and 3 < body["retry_after"] <= 4


async def test_a_busy_solver_answers_503_with_retry_after(store, discord, alice, monkeypatch):
    async def busy(*args, **kwargs):
        raise SolverBusy("The solver is busy with other players' requests right now; please try again in a minute.")

    monkeypatch.setattr("web.extras.hint_for", busy)
    identity = DiscordIdentity(CLIENT_ID, CLIENT_SECRET, discord.api_base)
    app = web.Application()
    add_routes(app, Table(store=lambda: store, identity=identity))
    async with TestClient(TestServer(app)) as client:
        state = await start(client, alice)
        answer = await client.post(f"/api/games/{state['id']}/hint", json={"confirm": True}, headers=alice)
        body = await refused(answer, 503, "busy")
        assert int(answer.headers["Retry-After"]) >= 1 and "busy" in body["message"]
    await identity.close()
    assert not await store.is_hinted(state["id"])  # nothing changed


async def raw(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` as it is (aiohttp's client would refuse to) and read the whole answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


@pytest.mark.parametrize("request_bytes", [
    b"GET /api/me HTTP/1.1\r\nHost: x\r\nX-Secret: " + SECRET_HEADER.encode() + b"\r\n\r\n",  # a header over 8 KB
    b"GET /api/me?q=" + SECRET_HEADER.encode() + b" HTTP/1.1\r\nHost: x\r\n\r\n",  # a URL over 8 KB
    b"GET /api/me HTTP/1.1\r\nHost: x\r\nX-Secret: do-not-echo-\x01\x02\r\n\r\n",  # a malformed header
], ids=["long-header", "long-url", "bad-header"])
async def test_a_request_aiohttp_cannot_parse_is_refused_in_json_without_echo(tmp_path, caplog, request_bytes):
    """Through ``scoundrel-bot web``'s real server (the bot's service runs the same ``Runner``)."""
    runner, store, url = await start_local(tmp_path / "local.sqlite3", "127.0.0.1", 0)
    port = runner.addresses[0][1]
    caplog.set_level(logging.DEBUG)
    try:
        status, headers, body = await raw(port, request_bytes)
    finally:
        await runner.cleanup()
        await store.close()  # type: ignore[attr-defined]
    assert status == 400 and headers["content-type"].startswith("application/json")
    assert b'"error"' in body and b'"message"' in body and b"do-not-echo" not in body
    assert headers["x-content-type-options"] == "nosniff"
    assert "do-not-echo" not in caplog.text  # nor in the log
    assert not [record for record in caplog.records if record.exc_info]  # one line, no traceback
    assert any("could not read" in record.getMessage() for record in caplog.records)

