"""Hint, Review, Replay and Share through the table's API, with the real solver and replay renderer."""

from __future__ import annotations

import asyncio

import pytest

from app.solver import worker
from app.solver.worker import close_par
from games.engine import legal_actions
from tests.web.conftest import ALICE
from tests.web.test_api import start


@pytest.fixture(autouse=True)
async def solver_closed():
    yield
    await close_par()  # the solver's worker process, started by the first hint or review


@pytest.fixture(params=["sqlite"])  # the solver and the pictures are not about the database: one backend
def db_target(request, tmp_path):
    return tmp_path / "scoundrel.sqlite3"


async def finish(store, game_id: int) -> None:
    record = await store.load_game(game_id)
    state, version = record.state, record.version
    while not state.over:
        record = await store.play(game_id, ALICE, version, legal_actions(state)[0])
        state, version = record.state, record.version


async def test_a_hint_after_its_cost_is_accepted_marks_the_game(served, store, alice):
    client, _ = served
    state = await start(client, alice)
    answer = await client.post(f"/api/games/{state['id']}/hint", json={"confirm": True}, headers=alice)
    body = await answer.json()
    assert answer.status == 200, body
    assert body["action"] in {a.code for a in legal_actions((await store.load_game(state["id"])).state)}
    assert "hinted" in body["text"] and "of the deals you could be in" in body["text"]  # the fair coach's words
    assert await store.is_hinted(state["id"])
    shown = (await (await client.get(f"/api/games/{state['id']}", headers=alice)).json())["state"]
    assert shown["hinted"]


async def test_review_replay_and_the_end_of_a_normal_game(served, store, alice):
    client, _ = served
    state = await start(client, alice)
    game = state["id"]
    early = await client.get(f"/api/games/{game}/review", headers=alice)
    assert early.status == 409  # not before the end
    await finish(store, game)
    # Two taps at once: one review worked out, both told how far it is (202) until it is done, none refused.
    url = f"/api/games/{game}/review?locale=de"
    answers = await asyncio.gather(client.get(url, headers=alice), client.get(url, headers=alice))
    while any(answer.status == 202 for answer in answers):
        for answer in answers:
            if answer.status == 202:
                body = await answer.json()
                assert {"ahead", "done", "total"} <= set(body["progress"]) and body["text"]
        answers = [await client.get(url, headers=alice) if answer.status == 202 else answer for answer in answers]
    assert [answer.status for answer in answers] == [200, 200]
    lines = (await answers[0].json())["lines"]
    assert lines and (await answers[1].json())["lines"] == lines
    # The next tap is answered from the kept review at once: no solver.
    await close_par()
    again = await client.get(url, headers=alice)
    assert again.status == 200 and (await again.json())["lines"] == lines
    assert not worker._service.worker_processes()
    replay = await client.get(f"/api/games/{game}/replay", headers=alice)
    assert replay.status == 200 and replay.headers["Content-Type"] == "image/gif"
    assert (await replay.read())[:6] in (b"GIF89a", b"GIF87a")
    share = await client.get(f"/api/games/{game}/share", headers=alice)
    assert share.status == 409  # only a counted daily is shared


async def test_a_finished_daily_is_shared_without_its_cards(served, store, alice):
    client, _ = served
    state = await start(client, alice, "daily")
    record = await store.load_game(state["id"])
    await finish(store, state["id"])
    text = (await (await client.get(f"/api/games/{state['id']}/share", headers=alice)).json())["text"]
    assert f"#{record.day}" in text
    assert not any(card.label in text for card in record.state.start_deck)


async def test_a_challenges_game_has_no_replay_at_the_table_until_the_challenge_closes(served, store, alice):
    from app.challenges import play as challenges
    from games.engine import PRESETS

    client, _ = served
    running = await challenges.start(store, ALICE, PRESETS["classic"], guild_id=None, channel_id=None, locale="en")
    joined = await challenges.join(store, running.id, ALICE, "alice")
    await finish(store, joined.game.id)
    refused = await client.get(f"/api/games/{joined.game.id}/replay", headers=alice)
    assert refused.status == 409 and "challenge still running" in (await refused.json())["message"]
