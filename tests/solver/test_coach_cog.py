"""Review and Hint in Discord, through SimCord, with the real solver worker process."""

from __future__ import annotations

import sys

import pytest

from app.coach.advice import _review_in_worker, review_game
from app.solver import worker
from app.solver.worker import close_par
from cogs.game_message.view import render_game
from cogs.text.card_text import readable
from games.engine import PRESETS, apply, decode, encode, new_game, seed_to_text
from games.solver.fair import HINT_BUDGET, Coach
from games.solver.hint_words import hint_phrase
from games.solver.position import Position
from games.solver.review import move_words
from tests.discord.harness import buttons
from tests.solver.test_par_cog import answers_to

CLASSIC = PRESETS["classic"]


def slightly_off_line(seed: int = 7, opening: str = "T0 T1") -> list:
    """``opening`` (a small mistake), then the best moves to the end: a won game with one mistake in it."""
    deck = new_game(CLASSIC, seed=seed).start_deck
    position, state, line = Position(CLASSIC, deck), new_game(CLASSIC, deck=deck), list(decode(opening))
    for action in line:
        state = apply(state, action)
    while not state.over:
        action = position.best_action(state)[0]
        line.append(action)
        state = apply(state, action)
    return line


async def finished_game_message(world, kind="normal", seed=7):
    """Alice's game played through the store along ``slightly_off_line``, posted with its game-over buttons."""
    record = await world.store.create_game(world.alice.id, world.guild.id, world.channel.id, CLASSIC, seed=seed,
                                           kind=kind, day=None if kind == "normal" else 1)
    for action in slightly_off_line(seed):
        record = await world.store.play(record.id, world.alice.id, record.version, action)
    embed, view = render_game(record, bot=world.bot)
    await world.bot.get_channel(world.channel.id).send(embed=embed, view=view)
    return record, world.channel.last_message


def callback_types(world) -> list[int]:
    """How the interactions since the log was cleared were first answered: 4 a message, 5 deferred."""
    return [entry.json["type"] for entry in world.env.http_requests if entry.path.endswith("/callback")]


def coach():
    return sys.modules["cogs.coach.advice"]  # the module as the bot loaded it


@pytest.fixture
async def real_worker():
    yield
    await close_par()


@pytest.mark.simcord(settle_timeout=600)  # the fair coach solves several orders a move
async def test_review_is_private_to_the_player_and_matches_the_solver(world, monkeypatch, real_worker):
    monkeypatch.setitem(coach()._state, "review", review_game)
    record, message = await finished_game_message(world, seed=7)
    assert [b.label for b in buttons(message)] == ["New game", "Review", "Replay"]

    other = await world.bob.click(message, label="Review")
    assert [(m.content, m.ephemeral) for m in answers_to(other)] == [(coach().NOT_YOURS_REVIEW, True)]

    world.env.http_requests.clear()
    mine = await world.alice.click(message, label="Review")
    answers = answers_to(mine)
    assert answers and all(m.ephemeral for m in answers)
    deck_codes = " ".join(card.code for card in record.state.start_deck)
    expected = _review_in_worker(CLASSIC.to_dict(), deck_codes, encode(record.state.history))  # the fair review
    assert answers[0].embeds[0].title == "🎓 Review"
    shown = "\n".join(e.description for m in answers for e in m.embeds).split("\n")
    *told, verdict = expected.lines
    assert shown == [readable(line) for line in told] + [f"**{verdict}**"] and len(shown) <= 12
    assert verdict == expected.summary and "on what you could see" in verdict
    assert expected.machine.startswith("par=30 ") and " mistakes=" in expected.machine
    # Meanwhile the deferred answer said how far the review was, a few edits apart (never more than Discord allows).
    progress = [entry.json["content"] for entry in world.env.http_requests
                if entry.method == "PATCH" and entry.path.endswith("/messages/@original")
                and "moves judged" in ((entry.json or {}).get("content") or "")]
    assert progress and all(f"/{len(record.state.history)} moves judged." in text for text in progress)

    assert callback_types(world) == [5]  # deferred ("thinking…") first

    # A second tap shows the review kept in the database at once: not deferred, and no solver asked.
    await close_par()
    world.env.http_requests.clear()
    again = await world.alice.click(message, label="Review")
    assert [e.description for m in answers_to(again) for e in m.embeds] == \
        [e.description for m in answers for e in m.embeds]
    assert callback_types(world) == [4] and not worker._service.worker_processes()


@pytest.mark.simcord(settle_timeout=600)  # the fair coach solves several orders a move
async def test_a_daily_review_is_only_for_its_player_once_it_is_over(world, monkeypatch, real_worker):
    monkeypatch.setitem(coach()._state, "review", review_game)
    _, message = await finished_game_message(world, kind="daily", seed=7)
    click = await world.bob.click(message, label="Review")  # someone who may still be playing that day
    assert [m.content for m in answers_to(click)] == [coach().NOT_YOURS_REVIEW]
    click = await world.alice.click(message, label="Review")
    assert answers_to(click)[0].embeds[0].title == "🎓 Review"


def test_no_review_button_without_a_solver_or_for_unsolvable_rules(monkeypatch):
    from types import SimpleNamespace

    import cogs.coach.advice
    from games.engine import PRESETS

    monkeypatch.setitem(cogs.coach.advice._state, "review", review_game)
    record = SimpleNamespace(id=5, rules=PRESETS["classic"], status="dead")
    assert [item.custom_id for item in cogs.coach.advice.review_extras(record)] == ["sc:review:5"]
    assert cogs.coach.advice.review_extras(SimpleNamespace(id=5, rules=PRESETS["expansion"], status="dead")) == []
    assert cogs.coach.advice.review_extras(SimpleNamespace(id=5, rules=PRESETS["classic"], status="abandoned")) == []
    monkeypatch.setitem(cogs.coach.advice._state, "review", None)
    assert cogs.coach.advice.review_extras(record) == []


@pytest.mark.simcord(settle_timeout=600)  # the fair coach solves several orders a move
async def test_hint_shows_the_best_move_privately_and_marks_the_game(world, monkeypatch, real_worker):
    from app.coach.advice import hint_for

    monkeypatch.setitem(coach()._state, "hint", hint_for)
    game = await world.alice.slash(world.channel, "scoundrel play", seed="0000-0007")  # room 1: ♠6 ♠8 ♥10 ♦8
    message = game.response.message
    hint = [b for b in buttons(message) if b.custom_id.startswith("sc:hint:")]
    assert len(hint) == 1 and hint[0].emoji.name == "💡" and hint[0].label == "Hint"  # beside the fight switch
    record = await world.store.active_game(world.alice.id, "normal")

    other = await world.bob.click(message, custom_id=hint[0].custom_id)
    assert [(m.content, m.ephemeral) for m in answers_to(other)] == [(coach().NOT_YOURS_HINT, True)]
    assert not await world.store.is_hinted(record.id)

    # Never silent: the first hint says the game will not count, and waits for the player's yes.
    ask = await world.alice.click(message, custom_id=hint[0].custom_id)
    assert (ask.response.content, ask.response.ephemeral) == (coach().HINT_WARNING, True)
    assert not await world.store.is_hinted(record.id)
    confirm = [b for b in buttons(ask.response.message) if b.custom_id.startswith("sc:hintok:")]
    assert [b.label for b in confirm] == ["Show the hint"]
    mine = await world.alice.click(ask.response.message, custom_id=confirm[0].custom_id)
    advice = Coach(CLASSIC).advise(record.state, budget=HINT_BUDGET)  # on what the player sees, as the worker does
    told = readable(hint_phrase(record.state, advice))
    assert [(m.content, m.ephemeral) for m in answers_to(mine)] == [(f"{told}\n{coach().HINTED_MARK}", True)]
    assert told.startswith(readable(f"💡 Best now{', by a little' if not advice.sure else ''}: "
                                    f"**{move_words(record.state, advice.best.action)}** — wins "))
    assert await world.store.is_hinted(record.id)
    again = await world.alice.click(message, custom_id=hint[0].custom_id)  # hinted already: no second warning
    assert answers_to(again)[-1].content.startswith("💡 Best now")
    # The room says so from the next move on, and its end never calls it perfect.
    moved = await world.alice.click(message, custom_id=next(b for b in buttons(message)
                                                            if b.custom_id.endswith(":A")).custom_id)
    assert moved.response.embeds[0].footer.text == f"Seed {seed_to_text(7)} · classic · 💡 hinted — not counted"


async def test_no_hint_in_a_counted_daily_but_in_practice(world, monkeypatch):
    from app.coach.advice import hint_for

    monkeypatch.setitem(coach()._state, "hint", hint_for)
    daily = await world.store.create_game(world.alice.id, world.guild.id, world.channel.id, CLASSIC, seed=7,
                                          kind="daily", day=1)
    assert not any(item.custom_id.startswith("sc:hint:") for item in render_game(daily, bot=world.bot)[1].children)
    practice = await world.store.create_game(world.bob.id, world.guild.id, world.channel.id, CLASSIC, seed=7,
                                             kind="practice", day=1)
    assert any(item.custom_id == f"sc:hint:{practice.id}" for item in render_game(practice, bot=world.bot)[1].children)


def test_a_long_hint_says_how_many_orders_it_has_solved():
    from app.solver.progress import Progress
    from cogs.coach.progress import hint_progress
    from games.i18n import ENGLISH, messages_for

    text = hint_progress(ENGLISH)
    assert text(Progress(0)) == "💡 Judging each move on the orders of the dungeon you could be in…"
    assert text(Progress(0, 48)).endswith("… 48 solved so far")
    assert text(Progress(2)).startswith("💡 ") and "48" not in text(Progress(2))  # still waiting its turn
    assert "bisher 48 gelöst" in hint_progress(messages_for("de"))(Progress(0, 48))
