"""The Replay button and ``/scoundrel replay``, through SimCord: the GIF posted, its frames the game's moves, a
daily's replay private while its day runs and "you against par" only once it is over."""

from __future__ import annotations

import io
import sys

import pytest
from PIL import Image

from app.daily.days import day_of
from app.replays.gifs import BUSY_FULL, BUSY_YOURS, ReplayService
from cogs.game_message.view import render_game
from cogs.plumbing import clock
from games.engine import PRESETS, encode, legal_actions, seed_to_text
from games.picture.replay import FILENAME, render_replay
from games.solver import solve
from tests.discord.harness import buttons

RULES = PRESETS["classic"]


def answers_to(click):
    return [click.response] + list(click.followups)


async def finished_game_message(world, kind="normal", day=None, seed=4, user=None):
    """A game played to the end through the store (dying early), posted with its game-over buttons."""
    user = user or world.alice
    record = await world.store.create_game(user.id, world.guild.id, world.channel.id, RULES, seed=seed, kind=kind,
                                           day=day)
    while record.status == "playing":
        record = await world.store.play(record.id, user.id, record.version, legal_actions(record.state)[-1])
    embed, view = render_game(record, bot=world.bot)
    await world.bot.get_channel(world.channel.id).send(embed=embed, view=view)
    return record, world.channel.last_message


async def posted_gif(answer) -> bytes:
    assert [a.filename for a in answer.attachments] == [FILENAME]
    assert answer.embeds[0].image.url == f"attachment://{FILENAME}"
    return await answer.attachments[0].read()


def frame_count(gif: bytes) -> int:
    return Image.open(io.BytesIO(gif)).n_frames


@pytest.mark.simcord(settle_timeout=30)
async def test_a_finished_games_replay_is_posted_for_all_and_is_the_terminals_file(world):
    record, message = await finished_game_message(world)
    assert "Replay" in [b.label for b in buttons(message)]
    click = await world.bob.click(message, label="Replay")  # anyone may watch a normal game
    answer = answers_to(click)[0]
    assert not answer.ephemeral and answer.embeds[0].title.startswith("Replay · classic · died")
    gif = await posted_gif(answer)
    state = record.state
    title = f"alice · Seed {seed_to_text(record.seed)} · classic"  # the first frame names the game and its player
    assert gif == render_replay(RULES, state.start_deck, state.history, seed=state.rng_seed, title=title)
    assert frame_count(gif) == len(state.history) + 1

    # The command finds the same game (the latest finished one), or one picked from the suggestions.
    latest = await world.alice.slash(world.channel, "scoundrel replay")
    assert await posted_gif(answers_to(latest)[0]) == gif
    suggestions = await world.alice.autocomplete(world.channel, "scoundrel replay", "game", "")
    assert [c["value"] for c in suggestions] == [str(record.id)] and "died" in suggestions[0]["name"]
    picked = await world.alice.slash(world.channel, "scoundrel replay", game=str(record.id))
    assert await posted_gif(answers_to(picked)[0]) == gif
    others = await world.bob.slash(world.channel, "scoundrel replay", game=str(record.id))
    assert [m.content for m in answers_to(others)] == [
        "That is not one of your games: `/scoundrel replay` lists yours."]
    nothing = await world.bob.slash(world.channel, "scoundrel replay")
    assert [m.content for m in answers_to(nothing)] == ["You have no finished game to replay yet."]


@pytest.mark.simcord(settle_timeout=60)
async def test_a_dailys_replay_is_private_during_its_day_and_shows_par_only_after(world):
    today = day_of(clock.now())
    record, message = await finished_game_message(world, kind="daily", day=today)
    deck = record.state.start_deck
    par = solve(RULES, deck)
    await world.store.put_daily(today, record.state.rng_seed, RULES, par=par.best_score,
                                par_line=encode(par.actions))
    refused = await world.bob.click(message, label="Replay")
    assert [m.content for m in answers_to(refused)] == [
        "Play this daily yourself first: its replay would give the deal away."]
    own = answers_to(await world.alice.click(message, label="Replay"))[0]
    assert own.ephemeral and own.embeds[0].description is None  # no par while the day runs
    assert frame_count(await posted_gif(own)) == len(record.state.history) + 1

    # Once the day is over: posted for all, the player's line and then par's.
    await world.env.advance_time(24 * 3600 + 60)
    answer = answers_to(await world.bob.click(message, label="Replay"))[0]
    assert not answer.ephemeral and "par's" in answer.embeds[0].description
    gif = await posted_gif(answer)
    assert frame_count(gif) == len(record.state.history) + 1 + len(par.actions) + 1
    by_number = answers_to(await world.alice.slash(world.channel, "scoundrel replay", daily=today))[0]
    assert await posted_gif(by_number) == gif


@pytest.mark.simcord(settle_timeout=30)
async def test_a_busy_replay_service_is_said_plainly(world, monkeypatch):
    """One replay per player at a time, and a bounded queue: past either, the player is told, nothing queued."""
    service = ReplayService(capacity=0)
    cog = sys.modules["cogs.game_message.replay"]
    monkeypatch.setitem(cog._state, "replays", service)
    _, message = await finished_game_message(world, seed=7)
    record = await world.store.create_game(world.bob.id, world.guild.id, world.channel.id, RULES, seed=8)
    service._pending, service._players = 1, {world.bob.id}  # Bob's replay is being drawn
    try:
        full = answers_to(await world.alice.click(message, label="Replay"))
        yours = answers_to(await world.bob.click(message, label="Replay"))
        service._pending, service._players = 0, set()
        free = answers_to(await world.alice.click(message, label="Replay"))
    finally:
        await service.close()
    assert [(m.content, m.ephemeral) for m in full] == [(BUSY_FULL, True)]
    assert [(m.content, m.ephemeral) for m in yours] == [(BUSY_YOURS, True)]
    assert frame_count(await posted_gif(free[0])) > 1
    assert record.status == "playing"
