"""A finished duel's Replay button, through SimCord: the whole duel posted as an animated GIF for anyone in the
channel, in the presser's language; refusals for a duel still on, a declined challenge, a forged id, a busy
service."""

from __future__ import annotations

import io
import sys

import pytest
from PIL import Image, ImageSequence

from app.replays.gifs import BUSY_FULL, BUSY_YOURS, ReplayService
from games.duel import replay
from games.engine.seeds import seed_from_text, seed_to_text
from games.i18n.messages import ENGLISH, messages_for
from games.picture.duel import HEIGHT, WIDTH, render_duel
from games.picture.duel_replay import FILENAME, render_duel_replay
from storage.duels import load_duel, open_duel, play_duel
from tests.discord.harness import buttons, press_again
from tests.duel.test_discord import eager_history

SEED = "0000-0005"


def answers_to(click):
    return [click.response] + list(click.followups)


async def challenge(world, first, second, seed=SEED):
    return (await first.slash(world.channel, "scoundrel duel", opponent=second, seed=seed)).response


async def finished_board(world):
    """Alice's duel against Bob played to its end (the winning Finish clicked on the winner's hand)."""
    board = await challenge(world, world.alice, world.bob)
    await world.bob.click(board, label="Accept")
    history = eager_history(seed_from_text(SEED))
    record = await open_duel(world.store, world.alice.id)
    for code in history[:-1]:
        record = await play_duel(world.store, record.id, record.players[record.state.actor], record.version, code)
    winner = (world.alice, world.bob)[record.state.actor]
    hand = (await winner.click(board, label="My hand")).response
    await winner.click(hand, label=f"Finish pair {int(history[-1][1]) + 1}")
    return board, await load_duel(world.store, record.id)


def frames(gif: bytes) -> list[Image.Image]:
    return [frame.convert("RGB") for frame in ImageSequence.Iterator(Image.open(io.BytesIO(gif)))]


def picture(state, tr=ENGLISH) -> bytes:
    return Image.open(io.BytesIO(render_duel(state, tr))).convert("RGB").tobytes()


async def posted_gif(answer) -> bytes:
    assert [a.filename for a in answer.attachments] == [FILENAME]
    assert answer.embeds[0].image.url == f"attachment://{FILENAME}"
    return await answer.attachments[0].read()


@pytest.mark.simcord(settle_timeout=60)
async def test_a_finished_duels_board_offers_its_replay_to_anyone_in_the_channel(world, locales):
    carol = world.guild.add_member(world.env.create_user("carol"))
    board, record = await finished_board(world)
    assert record.status == "won" and [b.label for b in buttons(board)] == ["Replay"]

    click = await carol.click(board, label="Replay")  # not a player: the duel was played in the open
    answer = answers_to(click)[-1]
    assert not answer.ephemeral and answer.embeds[0].title == f"Replay · Scoundrel duel #{record.id}"
    winner = record.state.winner + 1
    assert answer.embeds[0].description == f"Player 1: **alice** · Player 2: **bob**\n🏆 Player {winner} wins!"
    gif = await posted_gif(answer)
    history = record.state.history
    title = f"Scoundrel duel #{record.id} · Seed {seed_to_text(record.seed)}"  # the first frame names the duel
    assert gif == render_duel_replay(record.seed, history, title=title)  # the picture module's own bytes
    shown = frames(gif)
    assert len(shown) == len(history) + 2  # the deal, every action of either player, the result's pause
    assert shown[0].crop((0, 0, WIDTH, HEIGHT)).tobytes() == picture(replay(record.seed, []))
    assert shown[-1].crop((0, 0, WIDTH, HEIGHT)).tobytes() == picture(record.state)

    # A player finds it by its number too (the board's title says it).
    by_number = answers_to(await world.alice.slash(world.channel, "scoundrel replay", duel=record.id))[-1]
    assert await posted_gif(by_number) == gif and not by_number.ephemeral

    # In the presser's language, and still there after a restart (a persistent button).
    locales.speak(world.bob, "de")
    await world.restart()
    german = answers_to(await world.bob.click(board, label="Replay"))[-1]
    assert german.embeds[0].title == f"Wiederholung · Scoundrel-Duell #{record.id}"
    de = messages_for("de")
    title = de("Scoundrel duel #{number}", number=record.id) + " · " + de("Seed {seed}", seed=seed_to_text(record.seed))
    assert await posted_gif(german) == render_duel_replay(record.seed, history, title=title, tr=de)


@pytest.mark.simcord(settle_timeout=60)
async def test_a_replay_of_a_duel_still_on_declined_or_unknown_is_refused_privately(world):
    carol = world.guild.add_member(world.env.create_user("carol"))
    board = await challenge(world, world.alice, world.bob)
    await world.bob.click(board, label="Accept")
    duel_id = (await open_duel(world.store, world.alice.id)).id
    dave = world.guild.add_member(world.env.create_user("dave"))
    declined = await challenge(world, carol, dave)
    await carol.click(declined, label="Decline")  # withdrawn: never played
    declined_id = duel_id + 1
    assert (await load_duel(world.store, declined_id)).status == "declined"

    still_on = await press_again(carol, board, f"sc:dreplay:{duel_id}")  # a forged or foreseen custom_id
    never = await press_again(carol, board, f"sc:dreplay:{declined_id}")
    unknown = await press_again(carol, board, "sc:dreplay:99999")
    assert [(m.content, m.ephemeral) for click in (still_on, never, unknown) for m in answers_to(click)] == [
        ("This duel is still being played: its replay is drawn once it is over.", True),
        ("That challenge was never played, so there is nothing to replay.", True),
        ("You can't do that: that duel no longer exists.", True)]
    mine = await world.alice.slash(world.channel, "scoundrel replay", duel=duel_id)
    others = await carol.slash(world.channel, "scoundrel replay", duel=duel_id)  # not hers: as if unknown
    none = await carol.slash(world.channel, "scoundrel replay", duel=99999)
    assert [(m.content, m.ephemeral) for click in (mine, others, none) for m in answers_to(click)] == [
        ("This duel is still being played: its replay is drawn once it is over.", True),
        (f"You played no duel #{duel_id}: a duel's number is in the title of its board.", True),
        ("You played no duel #99999: a duel's number is in the title of its board.", True)]
    assert (await load_duel(world.store, duel_id)).status == "playing"  # nothing changed
    assert "Replay" not in [b.label for b in buttons(board)]


@pytest.mark.simcord(settle_timeout=60)
async def test_a_busy_replay_service_is_said_plainly_before_anything_is_posted(world, monkeypatch):
    board, record = await finished_board(world)
    service = ReplayService(capacity=0)
    monkeypatch.setitem(sys.modules["cogs.duel.replay"]._state, "replays", service)
    carol = world.guild.add_member(world.env.create_user("carol"))
    service._pending, service._players = 1, {world.bob.id}  # Bob's replay is being drawn
    try:
        full = answers_to(await carol.click(board, label="Replay"))
        yours = answers_to(await world.bob.click(board, label="Replay"))
        service._pending, service._players = 0, set()
        free = answers_to(await carol.click(board, label="Replay"))
    finally:
        await service.close()
    assert [(m.content, m.ephemeral) for m in full] == [(BUSY_FULL, True)]
    assert [(m.content, m.ephemeral) for m in yours] == [(BUSY_YOURS, True)]
    assert len(frames(await posted_gif(free[-1]))) == len(record.state.history) + 2


async def test_the_service_keeps_duel_replays_by_line_and_language_within_its_bytes():
    seed = seed_from_text(SEED)
    line = eager_history(seed)[:20]
    service = ReplayService()
    try:
        english = await service.render_duel(seed, line)
        assert await service.render_duel(seed, line) is english  # kept: not drawn again
        assert await service.render_duel(seed, line[:19]) != english  # another line is another replay
        service.kept_bytes = len(english) * 2
        german = await service.render_duel(seed, line, tr=messages_for("de"))
        assert german != english and german == render_duel_replay(seed, line, tr=messages_for("de"))
        again = await service.render_duel(seed, line)  # the oldest went when the bytes kept ran over
        assert again == english and again is not english
    finally:
        await service.close()
