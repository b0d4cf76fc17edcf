"""The "Best possible" button under a finished game, through SimCord."""

from __future__ import annotations

import asyncio
import re
import sys
from types import SimpleNamespace

import discord
import pytest

import cogs.coach.best_possible
from app.solver.worker import BUSY_FULL, BUSY_YOURS, ParResult, ParService
from cogs.coach.best_possible import chunk_lines, par_summary
from cogs.game_message.view import render_game
from games.engine import PRESETS, encode, legal_actions
from games.solver import solve
from tests.discord.harness import buttons
from tests.solver.worker_jobs import timed_nap


def loaded_cog():
    """``cogs.coach.best_possible`` as the bot loaded it (discord.py imports an extension afresh on every load)."""
    return sys.modules["cogs.coach.best_possible"]


async def solve_here(rules, deck, **queueing):
    """The solver in this process (the worker process is tested in test_par_service)."""
    solution = solve(rules, deck)
    return ParResult(solution.best_score, solution.winnable, encode(solution.actions), solution.states)


def answers_to(click):
    return [click.response] + list(click.followups)


async def finished_game_message(world, kind="normal", seed=4):
    """Alice's game, played to the end through the store (dying early), posted with its game-over buttons."""
    rules = PRESETS["classic"]
    record = await world.store.create_game(world.alice.id, world.guild.id, world.channel.id, rules, seed=seed,
                                           kind=kind, day=None if kind == "normal" else 1)
    while record.status == "playing":
        record = await world.store.play(record.id, world.alice.id, record.version, legal_actions(record.state)[-1])
    embed, view = render_game(record, bot=world.bot)
    await world.bot.get_channel(world.channel.id).send(embed=embed, view=view)
    return record, world.channel.last_message


@pytest.mark.simcord(settle_timeout=60)  # the solve runs in-process here: seconds on a busy machine
async def test_best_possible_shows_par_and_the_line_privately_and_keeps_dailies_private(world, monkeypatch):
    monkeypatch.setitem(loaded_cog()._state, "solver", solve_here)
    record, message = await finished_game_message(world)
    assert [b.label for b in buttons(message)] == ["New game", "Best possible", "Replay"]
    click = await world.bob.click(message, label="Best possible")  # anyone may ask about a normal game
    answers = answers_to(click)  # the first answer replaces the "thinking…" of the deferred click
    assert answers and all(m.ephemeral for m in answers)
    title = answers[0].embeds[0].title
    assert title.startswith("Best possible seeing every card: 30 (winnable)") and f"you scored {record.score}" in title
    text = "\n".join(e.description for m in answers for e in m.embeds)
    lines = text.split("\n")  # a short line per room, readable suits: within a phone's screen
    assert lines[0].startswith("**1** ") and "♠" not in text and "♣" not in text and len(lines) <= 16
    assert all(re.fullmatch(r"\*\*\d+(–\d+)?\*\* .+ → -?\d+", line) for line in lines)
    assert answers[-1].embeds[-1].footer.text == loaded_cog().LEGEND
    best, line = await world.store.get_par(PRESETS["classic"].key, record.state.start_deck)  # kept for next time
    assert best == 30 and line.split()[0] == "T0"

    # A game still on gets no line, even from a hand-made button.
    playing = await world.store.create_game(world.bob.id, world.guild.id, world.channel.id, PRESETS["classic"], seed=9)
    view = discord.ui.View(timeout=None)
    view.add_item(loaded_cog().BestPossibleButton(playing.id))
    await world.bot.get_channel(world.channel.id).send(content="crafted", view=view)
    click = await world.bob.click(world.channel.last_message, label="Best possible")
    assert [m.content for m in answers_to(click)] == [
        "Finish the game first: the best line is shown once it is over."]

    # A daily's line would spoil the day's deal: only its player may look.
    _, message = await finished_game_message(world, kind="practice")
    click = await world.bob.click(message, label="Best possible")
    assert [m.content for m in answers_to(click)] == [
        "Play this daily yourself first: its best line would give the deal away."]


def test_no_button_without_a_solver_or_for_unsolvable_rules(monkeypatch):
    record = SimpleNamespace(id=5, rules=PRESETS["classic"], status="dead", kind="normal")
    best_possible = cogs.coach.best_possible
    assert [item.custom_id for item in best_possible.par_extras(record)] == ["sc:par:5"]
    expansion = SimpleNamespace(id=5, rules=PRESETS["expansion"], status="dead", kind="normal")
    assert best_possible.par_extras(expansion) == []
    # a finished daily offers Share, Review, New game: its Review tells par
    assert best_possible.par_extras(SimpleNamespace(id=5, rules=PRESETS["classic"], status="dead", kind="daily")) == []
    monkeypatch.setitem(best_possible._state, "solver", None)
    assert best_possible.par_extras(record) == []


def test_summary_and_chunks():
    assert par_summary(30, 30) == "Best possible seeing every card: 30 (winnable) — you scored 30, a perfect game!"
    assert par_summary(-5, -20).startswith("Best possible seeing every card: -5 (not winnable")
    chunks = chunk_lines(["a" * 30, "b" * 30, "c" * 30], limit=65)
    assert chunks == ["a" * 30 + "\n" + "b" * 30, "c" * 30]


@pytest.mark.simcord(settle_timeout=60)
async def test_a_busy_solver_is_said_plainly_and_a_free_one_answers(world, monkeypatch):
    """The real worker: Bob's long request runs and another waits, so the queue (one place) is full."""
    service = ParService(capacity=1)
    monkeypatch.setitem(loaded_cog()._state, "solver", service.solve)
    _, message = await finished_game_message(world, seed=7)
    try:
        running = asyncio.create_task(service.run(timed_nap, 1.5, "bob's", requester=world.bob.id))
        await asyncio.sleep(0.05)
        waiting = asyncio.create_task(service.run(timed_nap, 0, "someone's", requester=1))
        await asyncio.sleep(0)
        full = await world.alice.click(message, label="Best possible")
        yours = await world.bob.click(message, label="Best possible")
        await asyncio.gather(running, waiting)
        free = await world.alice.click(message, label="Best possible")  # a real solve in the worker
    finally:
        await service.close()
    assert [(m.content, m.ephemeral) for m in answers_to(full)] == [(BUSY_FULL, True)]
    assert [(m.content, m.ephemeral) for m in answers_to(yours)] == [(BUSY_YOURS, True)]
    assert answers_to(free)[0].embeds[0].title.startswith("Best possible seeing every card: 30 (winnable)")
