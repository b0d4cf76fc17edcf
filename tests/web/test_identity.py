"""The code exchange and the player behind a token, against a stand-in Discord on loopback; the client secret is
never sent to the client nor logged; ``[activity]`` in the settings."""

from __future__ import annotations

import logging

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.config import ConfigError, load_config
from tests.web.conftest import ALICE
from tests.web.fake_discord import CLIENT_ID, CLIENT_SECRET
from web.identity import DiscordIdentity, LocalIdentity, Refused
from web.routes import Table, add_routes

TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.fake-token-for-tests-only-0000000000"


@pytest.fixture
async def exchange_client(discord, tmp_path):
    from storage import open_store

    store = await open_store(tmp_path / "s.sqlite3")
    identity = DiscordIdentity(CLIENT_ID, CLIENT_SECRET, discord.api_base)
    app = web.Application()
    add_routes(app, Table(store=lambda: store, identity=identity, client_id=CLIENT_ID))
    client = TestClient(TestServer(app))
    await client.start_server()
    try:
        yield client
    finally:
        await client.close()
        await identity.close()
        await store.close()


async def test_the_code_is_exchanged_with_the_secret_which_stays_here(exchange_client, discord, caplog):
    discord.player(ALICE, "Alice", code="good-code")
    caplog.set_level(logging.DEBUG)
    answer = await exchange_client.post("/api/token", json={"code": "good-code"})
    body = await answer.json()
    assert answer.status == 200 and body == {"access_token": f"token-{ALICE}"}  # no refresh token, no secret
    assert discord.exchanges[0]["client_secret"] == CLIENT_SECRET and discord.exchanges[0]["code"] == "good-code"
    me = await exchange_client.get("/api/me", headers={"Authorization": f"Bearer {body['access_token']}"})
    assert (await me.json())["player"] == {"id": str(ALICE), "name": "Alice"}
    assert CLIENT_SECRET not in caplog.text and CLIENT_SECRET not in await me.text()


@pytest.mark.parametrize("code", ["unknown-code", "good-code-twice"])
async def test_a_code_discord_refuses_is_refused(exchange_client, discord, code, caplog):
    discord.player(ALICE, "Alice", code="good-code-twice")
    if code == "good-code-twice":
        assert (await exchange_client.post("/api/token", json={"code": code})).status == 200
    answer = await exchange_client.post("/api/token", json={"code": code})
    assert answer.status == 401 and (await answer.json())["error"] == "refused"
    assert CLIENT_SECRET not in caplog.text


@pytest.mark.parametrize("body", [{}, {"code": ""}, {"code": 5}, {"code": "x" * 300}])
async def test_a_missing_or_odd_code_is_refused_before_discord_is_asked(exchange_client, discord, body):
    answer = await exchange_client.post("/api/token", json=body)
    assert answer.status == 400 and discord.exchanges == []


async def test_a_wrong_secret_is_refused_by_discord(discord):
    identity = DiscordIdentity(CLIENT_ID, "not-the-secret", discord.api_base)
    discord.player(ALICE, "Alice", code="c")
    with pytest.raises(Refused):
        await identity.exchange("c")
    await identity.close()
    assert "not-the-secret" not in repr(identity)


async def test_the_player_is_asked_of_discord_once_per_token(discord):
    identity = DiscordIdentity(CLIENT_ID, CLIENT_SECRET, discord.api_base)
    token = discord.player(ALICE, "Alice")
    assert [await identity.player(token) for _ in range(5)][-1].id == ALICE
    assert discord.me_calls == 1
    with pytest.raises(Refused):
        await identity.player("forged")
    await identity.close()


async def test_the_local_player_has_one_token():
    local = LocalIdentity()
    token = await local.exchange("anything")
    assert (await local.player(token)).id == 1
    with pytest.raises(Refused):
        await local.player(token + "x")
    assert token != await LocalIdentity().exchange("anything")  # made anew by each server


def test_without_an_activity_section_there_is_no_activity():
    assert load_config(None, {"DISCORD_TOKEN": TOKEN}).activity is None


def test_the_activity_section_with_its_secret_from_the_environment(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[service]\naddress = "127.0.0.1:9108"\n[activity]\nclient_id = 4242\n'
                    'public_url = "https://table.example.org/"\naddress = "127.0.0.1:9110"\n')
    config = load_config(path, {"DISCORD_TOKEN": TOKEN, "SCOUNDREL_ACTIVITY_CLIENT_SECRET": "hush"})
    assert config.activity is not None
    assert (config.activity.client_id, config.activity.client_secret) == (4242, "hush")
    assert config.activity.public_url == "https://table.example.org"
    assert config.activity.address == ("127.0.0.1", 9110) and config.service_address == ("127.0.0.1", 9108)
    assert "hush" not in repr(config) and "hush" not in repr(config.activity)


@pytest.mark.parametrize("text,env,problem", [
    ('[activity]\nclient_id = 1\npublic_url = "https://x"\naddress = "127.0.0.1:2"\n', {}, "client_secret"),
    ('[activity]\nclient_id = 1\npublic_url = "http://x"\naddress = "127.0.0.1:2"\n',
     {"SCOUNDREL_ACTIVITY_CLIENT_SECRET": "hush-hush-secret"}, "https"),
    # the table needs an address of its own: never the operators' (/healthz and /metrics stay private)
    ('[service]\naddress = "127.0.0.1:1"\n[activity]\nclient_id = 1\npublic_url = "https://x"\n',
     {"SCOUNDREL_ACTIVITY_CLIENT_SECRET": "hush-hush-secret"}, "[activity] address must be set"),
    ('[service]\naddress = "127.0.0.1:9108"\n[activity]\nclient_id = 1\npublic_url = "https://x"\n'
     'address = "0.0.0.0:9108"\n', {"SCOUNDREL_ACTIVITY_CLIENT_SECRET": "hush-hush-secret"}, "/metrics must not"),
    ('[activity]\nclient_id = 1\npublic_url = "https://x"\naddress = "9110"\n',
     {"SCOUNDREL_ACTIVITY_CLIENT_SECRET": "hush-hush-secret"}, "host:port"),
    ('[service]\naddress = "127.0.0.1:1"\n[activity]\nclient_id = "abc"\npublic_url = "https://x"\n',
     {"SCOUNDREL_ACTIVITY_CLIENT_SECRET": "hush-hush-secret"}, "client_id"),
])
def test_a_bad_activity_section_stops_start_up_naming_it(tmp_path, text, env, problem):
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=problem.replace("[", r"\[")) as error:
        load_config(path, {"DISCORD_TOKEN": TOKEN, **env})
    assert "\n" not in str(error.value) and env.get("SCOUNDREL_ACTIVITY_CLIENT_SECRET", "§") not in str(error.value)
