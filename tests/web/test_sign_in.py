"""Signing in to the table: the code exchange has a budget per client address and per player (each is a call to
Discord), and a token revoked at Discord stops working within minutes, not at the end of its lifetime."""

from __future__ import annotations

import pytest

from tests.web.conftest import ALICE, BOB, bearer
from tests.web.fake_discord import CLIENT_ID, CLIENT_SECRET
from web.identity import OUTAGE_GRACE, RECHECK, DiscordIdentity, Refused, Unavailable
from web.limits import ADDRESS_BURST, USER_BURST, SignIns, client_address


@pytest.fixture(params=["sqlite"])  # signing in is not about the database: one backend
def db_target(request, tmp_path):
    return tmp_path / "scoundrel.sqlite3"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_hundred_rapid_sign_ins_from_one_address_are_mostly_refused(served, discord):
    client, table = served
    table.sign_ins = SignIns(clock=lambda: 0.0)  # all at one instant: the budget does not refill meanwhile
    for n in range(100):
        discord.player(10_000 + n, f"P{n}", code=f"code-{n}")
    answers = [await client.post("/api/token", json={"code": f"code-{n}"}) for n in range(100)]
    statuses = [answer.status for answer in answers]
    assert statuses.count(200) == ADDRESS_BURST
    assert statuses.count(429) == 100 - statuses.count(200)
    late = answers[-1]
    body = await late.json()
    assert body["error"] == "rate-limited" and "Too many sign-ins" in body["message"]
    assert int(late.headers["Retry-After"]) >= 1
    assert len(discord.exchanges) == statuses.count(200)  # a refused sign-in never reached Discord


async def test_one_player_signing_in_over_and_over_is_slowed_whatever_the_address(served, discord):
    client, table = served
    table.sign_ins = SignIns(clock=lambda: 0.0)
    for n in range(USER_BURST + 2):
        discord.player(ALICE, "Alice", code=f"alice-{n}")
    statuses = []
    for n in range(USER_BURST + 2):  # each from another address, as the proxy in front says
        answer = await client.post("/api/token", json={"code": f"alice-{n}"},
                                   headers={"X-Forwarded-For": f"198.51.100.{n + 1}"})
        statuses.append(answer.status)
    assert statuses == [200] * USER_BURST + [429, 429]
    discord.player(BOB, "Bob", code="bob")  # another player is not slowed by Alice
    assert (await client.post("/api/token", json={"code": "bob"},
                              headers={"X-Forwarded-For": "198.51.100.99"})).status == 200


def test_the_client_address_is_the_peer_or_what_a_private_proxy_saw():
    assert client_address("8.8.8.8", None) == "8.8.8.8"
    assert client_address("8.8.8.8", "10.0.0.1") == "8.8.8.8"  # a public peer's header is not believed
    assert client_address("127.0.0.1", "1.2.3.4, 198.51.100.7") == "198.51.100.7"  # what the local proxy added
    assert client_address("10.1.2.3", "198.51.100.7") == "198.51.100.7"
    assert client_address(None, None) == ""


async def test_a_token_revoked_at_discord_stops_working_within_minutes(discord):
    clock = Clock()
    identity = DiscordIdentity(CLIENT_ID, CLIENT_SECRET, discord.api_base, clock=clock)
    discord.player(ALICE, "Alice", code="c")
    token = await identity.exchange("c")  # Discord says it lives a week
    assert (await identity.player(token)).id == ALICE
    discord.revoke(token)
    clock.now += RECHECK / 2
    assert (await identity.player(token)).id == ALICE  # kept: a move costs no call to Discord
    assert discord.me_calls == 1
    clock.now += RECHECK / 2 + 1
    with pytest.raises(Refused):
        await identity.player(token)
    assert RECHECK <= 300  # "within minutes"
    await identity.close()


async def test_a_revoked_token_is_refused_at_the_table(served, discord):
    client, table = served
    clock = Clock()
    table.identity.clock = clock
    alice = bearer(discord.player(ALICE, "Alice"))
    assert (await client.get("/api/me", headers=alice)).status == 200
    discord.revoke(alice["Authorization"][7:])
    clock.now += RECHECK + 1
    answer = await client.get("/api/me", headers=alice)
    assert answer.status == 401 and (await answer.json())["error"] == "unauthenticated"


async def test_while_discord_is_out_of_reach_a_player_it_vouched_for_keeps_playing(discord):
    clock = Clock()
    identity = DiscordIdentity(CLIENT_ID, CLIENT_SECRET, discord.api_base, clock=clock)
    token = discord.player(ALICE, "Alice")
    assert (await identity.player(token)).id == ALICE
    discord.down = True
    clock.now += RECHECK + 1
    assert (await identity.player(token)).id == ALICE  # a re-check Discord cannot answer: the player stands
    with pytest.raises(Unavailable):  # a token it never vouched for cannot be taken on trust
        await identity.player(discord.player(BOB, "Bob"))
    clock.now += OUTAGE_GRACE
    with pytest.raises(Unavailable):  # not for ever
        await identity.player(token)
    discord.down = False
    assert (await identity.player(token)).id == ALICE
    await identity.close()
