"""The game API refuses what it must, clearly, and changes nothing when it does; what it accepts is the store's own
move, the same as chat's."""

from __future__ import annotations

import asyncio

import pytest

from games.engine import legal_actions
from storage.models import DAILY
from tests.web.conftest import ALICE, bearer
from web.http import BODY_LIMIT


def a_move(state: dict) -> str:
    """A legal action of the state shown: the first card that can be played."""
    for slot in state["room"]:
        play = slot.get("take") or slot.get("weapon")
        if play:
            return play["code"]
    return state["avoid"]["code"]


async def start(client, who, kind="normal") -> dict:
    answer = await client.post("/api/games", json={"kind": kind}, headers=who)
    assert answer.status == 200, await answer.text()
    return (await answer.json())["state"]


async def test_a_move_is_the_stores_move(served, store, alice):
    client, _ = served
    state = await start(client, alice)
    code = a_move(state)
    answer = await client.post(f"/api/games/{state['id']}/move", json={"version": 0, "action": code}, headers=alice)
    assert answer.status == 200
    moved = (await answer.json())["state"]
    assert moved["version"] == 1
    record = await store.load_game(state["id"])  # the same row the chat shows, moved once
    assert record.user_id == ALICE and record.version == 1 and record.state.history[0].code == code
    assert await store.active_game(ALICE) == record


async def test_a_move_made_in_chat_shows_on_the_next_request(served, store, alice):
    client, _ = served
    state = await start(client, alice)
    record = await store.load_game(state["id"])
    await store.play(record.id, ALICE, 0, legal_actions(record.state)[0])  # what a chat button does
    shown = (await (await client.get(f"/api/games/{state['id']}", headers=alice)).json())["state"]
    assert shown["version"] == 1
    assert (await (await client.get("/api/game?kind=normal", headers=alice)).json())["state"]["version"] == 1


@pytest.mark.parametrize("method,path", [
    ("GET", "/api/me"), ("GET", "/api/game"), ("POST", "/api/games"), ("GET", "/api/games/1"),
    ("POST", "/api/games/1/move"), ("POST", "/api/games/1/hint"), ("GET", "/api/games/1/review"),
    ("GET", "/api/games/1/replay"), ("GET", "/api/games/1/share")])
@pytest.mark.parametrize("header", [None, "Bearer", "Bearer not-a-token-discord-knows", "Basic abc"])
async def test_every_request_needs_a_token_discord_accepts(served, store, method, path, header):
    client, _ = served
    headers = {} if header is None else {"Authorization": header}
    answer = await client.request(method, path, json={"kind": "normal", "version": 0, "action": "T0"},
                                  headers=headers)
    assert answer.status == 401
    assert (await answer.json())["error"] == "unauthenticated"
    assert await store.active_games(ALICE) == [] and await store.recent_games(1) == []


async def test_another_players_game_is_not_there(served, store, alice, bob):
    client, _ = served
    state = await start(client, alice)
    game = state["id"]
    for method, path, body in [("GET", f"/api/games/{game}", None),
                               ("POST", f"/api/games/{game}/move", {"version": 0, "action": a_move(state)}),
                               ("POST", f"/api/games/{game}/hint", {"confirm": True}),
                               ("GET", f"/api/games/{game}/review", None), ("GET", f"/api/games/{game}/replay", None),
                               ("GET", f"/api/games/{game}/share", None)]:
        answer = await client.request(method, path, json=body, headers=bob)
        assert answer.status == 404, path
        assert "no such game" in (await answer.json())["message"]
    record = await store.load_game(game)
    assert record.version == 0 and not await store.is_hinted(game)
    assert (await (await client.get("/api/game", headers=bob)).json())["state"] is None


@pytest.mark.parametrize("version", [1, 7, -1, "0", None, 1.0, True])
async def test_a_forged_version_moves_nothing(served, store, alice, version):
    client, _ = served
    state = await start(client, alice)
    answer = await client.post(f"/api/games/{state['id']}/move", json={"version": version, "action": a_move(state)},
                               headers=alice)
    body = await answer.json()
    if type(version) is int and version >= 0:
        assert answer.status == 409 and body["error"] == "stale"  # the game as it stands, nothing moved
        assert body["state"]["version"] == 0 and body["state"]["room"] == state["room"]
    else:
        assert answer.status == 400 and body["error"] == "bad-version"
    assert (await store.load_game(state["id"])).version == 0


@pytest.mark.parametrize("action,status", [("Z", 400), ("T9", 422), ("B0", 422), ("", 400), ("T0T0", 400),
                                           (5, 400), (None, 400), ("L", 422)])
async def test_a_forged_action_moves_nothing(served, store, alice, action, status):
    client, _ = served
    state = await start(client, alice)
    answer = await client.post(f"/api/games/{state['id']}/move", json={"version": 0, "action": action},
                               headers=alice)
    assert answer.status == status
    assert (await answer.json())["message"]
    assert (await store.load_game(state["id"])).version == 0


async def test_the_refusal_is_in_the_players_language(served, alice):
    client, _ = served
    state = await start(client, alice)
    answer = await client.post(f"/api/games/{state['id']}/move?locale=de", json={"version": 0, "action": "Z"},
                               headers=alice)
    english = await client.post(f"/api/games/{state['id']}/move", json={"version": 0, "action": "Z"},
                                headers=alice)
    assert (await answer.json())["message"] != (await english.json())["message"]


async def test_each_table_names_its_cards_in_its_own_language_whatever_was_shown_before(served, alice):
    client, _ = served
    state = await start(client, alice)
    words = {"en": {"monster": "monster", "weapon": "weapon", "potion": "potion"},
             "de": {"monster": "Monster", "weapon": "Waffe", "potion": "Trank"}}
    for locale in ("en", "de", "en", "de"):
        answer = await client.get(f"/api/games/{state['id']}?locale={locale}", headers=alice)
        cards = [slot["card"] for slot in (await answer.json())["state"]["room"]]
        assert [card["name"] for card in cards] == [f"{words[locale][card['kind']]} {card['label']}"
                                                    for card in cards]


async def test_two_taps_on_one_version_move_once(served, store, alice):
    client, _ = served
    state = await start(client, alice)
    code = a_move(state)
    answers = await asyncio.gather(*[client.post(f"/api/games/{state['id']}/move",
                                                 json={"version": 0, "action": code}, headers=alice)
                                     for _ in range(5)])
    assert sorted(a.status for a in answers) == [200, 409, 409, 409, 409]
    assert (await store.load_game(state["id"])).version == 1


@pytest.mark.parametrize("size", [BODY_LIMIT + 1, 50_000])
async def test_an_oversized_body_is_refused(served, store, alice, size):
    client, _ = served
    state = await start(client, alice)
    body = b'{"version": 0, "action": "T0", "pad": "' + b"x" * size + b'"}'
    answer = await client.post(f"/api/games/{state['id']}/move", data=body, headers=alice)
    assert answer.status == 413

    async def chunks():  # no Content-Length: the server still stops reading at its limit
        yield body

    answer = await client.post(f"/api/games/{state['id']}/move", data=chunks(), headers=alice)
    assert answer.status == 413
    assert (await store.load_game(state["id"])).version == 0


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'"text"'])
async def test_a_body_that_is_not_a_json_object_is_refused(served, alice, body):
    client, _ = served
    answer = await client.post("/api/games", data=body, headers=alice)
    assert answer.status == 400 and (await answer.json())["error"] == "bad-json"


async def test_a_player_who_asks_too_fast_is_slowed(served, store, alice, bob):
    client, table = served
    table.limits.burst, table.limits.rate = 5, 0.001
    statuses = [(await client.get("/api/game", headers=alice)).status for _ in range(8)]
    assert statuses == [200] * 5 + [429] * 3
    assert (await client.get("/api/game", headers=bob)).status == 200  # a budget each


async def test_a_running_daily_keeps_its_secrets_from_all_but_its_finished_player(served, store, clock, alice):
    client, _ = served
    state = await start(client, alice, DAILY)
    record = await store.load_game(state["id"])
    challenge = await store.get_daily(record.day)
    await store.set_daily_par(record.day, 7, "T0 T1", -3)  # solved and played by the coach
    text = str(state)
    assert state["kind"] == DAILY and "seed" not in text.lower() and str(challenge.seed) not in text
    assert state["dungeon"] == len(record.state.dungeon)
    assert not any(card.code in text for card in record.state.dungeon)  # a count, never the cards
    assert state["par"] is None and not state["review"] and not state["replay"] and not state["share"]
    game = state["id"]
    while not state["over"]:
        state = (await (await client.post(f"/api/games/{game}/move", json={"version": state["version"],
                                                                           "action": a_move(state)},
                                          headers=alice)).json())["state"]
    # Her counted attempt is over: she sees par and the coach's score while the day runs (docs/RULES.md), and
    # may review and replay it (par's line joins the replay only once the day is over); her Share shows no par.
    assert state["par"] == 7 and state["coach"] == -3 and state["review"] and state["replay"] and state["share"]
    assert state["par_text"] == "par 7 seeing every card · coach -3"  # as the chat's finished game says it
    share = await (await client.get(f"/api/games/{game}/share", headers=alice)).json()
    assert "par" not in share["text"].split("\n")[0].lower().replace("scoundrel", "")
    hint = await client.post(f"/api/games/{game}/hint", json={"confirm": True}, headers=alice)
    assert hint.status == 409
    clock.advance(86_400)  # the day is over: the same, for anyone
    shown = (await (await client.get(f"/api/games/{game}", headers=alice)).json())["state"]
    assert shown["par"] == 7 and shown["coach"] == -3 and shown["review"]
    assert shown["par_text"] == "par 7 seeing every card · coach -3"


async def test_the_daily_counts_once(served, store, alice):
    client, _ = served
    first = await start(client, alice, DAILY)
    again = await start(client, alice, DAILY)
    assert again["id"] == first["id"]  # the counted attempt resumed, never a second one
    record = await store.load_game(first["id"])
    assert (await store.daily_attempt(ALICE, record.day)).id == first["id"]
    assert (await store.names_for([ALICE], record.day)) == {ALICE: "Alice"}


async def test_a_hint_is_asked_for_with_its_cost_first(served, store, alice):
    client, _ = served
    state = await start(client, alice)
    answer = await client.post(f"/api/games/{state['id']}/hint", json={}, headers=alice)
    assert answer.status == 428 and (await answer.json())["error"] == "confirm"
    assert not await store.is_hinted(state["id"])


async def test_bad_kinds_and_ids_are_refused(served, alice):
    client, _ = served
    assert (await client.post("/api/games", json={"kind": "duel"}, headers=alice)).status == 400
    assert (await client.get("/api/game?kind=other", headers=alice)).status == 400
    assert (await client.get("/api/games/abc", headers=alice)).status == 404
    assert (await client.get(f"/api/games/{2**70}", headers=alice)).status == 404
    assert (await client.get("/api/games/999999", headers=alice)).status == 404  # as another player's would


async def test_the_page_is_served_with_a_strict_policy(served):
    client, table = served
    answer = await client.get("/")
    assert answer.status == 200
    policy = answer.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy and "unsafe" not in policy
    page = await answer.text()
    assert f'content="{table.client_id}"' in page
    for asset in [part.split('"')[0] for part in page.split('src="./')[1:] + page.split('href="./')[1:]]:
        served_asset = await client.get("/" + asset)
        assert served_asset.status == 200 and "Content-Security-Policy" in served_asset.headers
    assert (await client.get("/assets/..%2Fweb%2Froutes.py")).status == 404
    assert (await client.get("/assets/.hidden")).status == 404


def test_the_bundle_holds_no_secret():
    from web.routes import static_folder

    bundle = b"".join(path.read_bytes() for path in static_folder().rglob("*") if path.is_file())
    assert bundle and b"client_secret" not in bundle and b"s3cret" not in bundle


async def test_bearer_helper_shape():
    assert bearer("x") == {"Authorization": "Bearer x"}


async def test_a_daily_opened_in_a_server_counts_on_its_board_as_discord_places_it(served, store, discord, alice, bob):
    client, _ = served
    guild, channel = 777000000000000001, 777000000000000002
    discord.instance_in("i-1-gc-777", guild, channel, ALICE)
    state = await (await client.post("/api/games", json={"kind": DAILY, "instance_id": "i-1-gc-777"},
                                     headers=alice)).json()
    record = await store.load_game(state["state"]["id"])
    assert (record.guild_id, record.channel_id) == (guild, channel)
    assert [entry.user_id for entry in await store.daily_results(record.day, guild)] == [ALICE]
    # Bob names the same instance, but Discord does not have him in it: his daily is not that server's
    bobs = await (await client.post("/api/games", json={"kind": DAILY, "instance_id": "i-1-gc-777"},
                                    headers=bob)).json()
    assert (await store.load_game(bobs["state"]["id"])).guild_id is None
    unknown = await client.post("/api/games", json={"kind": "normal", "instance_id": "i-unknown"}, headers=alice)
    assert (await store.load_game((await unknown.json())["state"]["id"])).guild_id is None
    bad = await client.post("/api/games", json={"kind": "normal", "instance_id": "../x"}, headers=alice)
    assert bad.status == 400
