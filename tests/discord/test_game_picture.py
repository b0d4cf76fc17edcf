"""The game message around its picture: attached on every send and edit, and text kept to its budget."""

from __future__ import annotations

import io
from types import SimpleNamespace

import discord
from PIL import Image

from cogs.game_message.embed import events_lines, game_embed, quiet_events, status_line, table_description
from cogs.game_message.view import WEAPON_MODE, game_buttons
from games.engine import apply, legal_actions, new_game, preset
from games.picture import FILENAME, HEIGHT, WIDTH, render_room
from tests.discord.harness import buttons

EVENT_LINES = 3


def codes(message) -> dict:
    return {b.custom_id.split(":")[-1]: b for b in buttons(message) if b.custom_id.startswith("sc:g:")}


async def check_message(message, record) -> None:
    """One picture of the table as it is stored, and no more text than the budget allows."""
    assert [a.filename for a in message.attachments] == [FILENAME]
    png = await message.attachments[0].read()
    assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)
    assert png == render_room(record.state, abandoned=record.status == "abandoned")
    assert message.attachments[0].description == table_description(record.state)  # alt text: the table in words
    embed = message.embeds[0]
    assert embed.image.url == f"attachment://{FILENAME}" and not embed.fields
    assert "\n" not in embed.title and embed.footer.text
    lines = embed.description.split("\n")
    events = events_lines(record.state, quiet=quiet_events(record))
    assert len(events) <= EVENT_LINES
    if record.status == "playing":  # one status line, then the last move's events
        assert lines == [status_line(record.state), *events]
    elif record.status != "abandoned":  # score, events, rooms, par, replay command
        assert len(lines) <= 5 + EVENT_LINES and lines[1:1 + len(events)] == events
    text = embed.title + embed.description + " ".join(b.label or "" for b in buttons(message))
    assert "♠" not in text and "♣" not in text  # black suits vanish on the dark theme


async def test_every_message_and_edit_of_a_game_carries_the_picture(world):
    for name, seed in (("classic", "0000-0004"), ("expansion", "0000-0000"), ("full-deck", "0000-0002")):
        result = await world.alice.slash(world.channel, "scoundrel play", seed=seed, preset=name)
        message = result.response.message
        record = await world.store.active_game(world.alice.id, "normal")
        await check_message(message, record)
        for _ in range(300):
            moves = [b for c, b in codes(message).items() if not b.disabled and c not in ("mode", "A")]
            if not moves:
                break
            await world.alice.click(message, custom_id=moves[-1].custom_id)
            message = world.channel.last_message
            record = await world.store.load_game(record.id)
            await check_message(message, record)
        assert record.status in ("won", "dead")


async def test_resume_and_abandon_show_the_picture_too(world):
    await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")
    await world.alice.slash(world.channel, "scoundrel resume")
    record = await world.store.active_game(world.alice.id, "normal")
    await check_message(world.channel.last_message, record)
    ask = await world.alice.slash(world.channel, "scoundrel abandon")
    await world.alice.click(ask.response, label="Abandon game")
    record = await world.store.get_game(record.id)
    assert record.status == "abandoned"
    await check_message(world.channel.last_message, record)


async def test_button_labels_say_exactly_what_will_happen(world):
    message = (await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")).response.message
    assert codes(message)["T1"].label == "♥️2 +0 (full)"  # ♥2 at full health
    await world.alice.click(message, custom_id=codes(message)["T3"].custom_id)  # ♠5 barehanded: 15 health
    message = world.channel.last_message
    assert codes(message)["T1"].label == "♥️2 +2"


def labels_of(state) -> dict:
    record = SimpleNamespace(id=1, version=len(state.history), state=state)
    return {b.code: b.item for b in game_buttons(record, WEAPON_MODE)}


def a_state(predicate):
    for seed in range(500):
        state = new_game(preset("classic"), seed=seed)
        while not state.over:
            if predicate(state):
                return state
            state = apply(state, legal_actions(state)[-1])
    raise AssertionError("no such state")


def test_a_second_potion_reads_wasted_in_grey():
    def two_potions_one_drunk(s):
        return s.potion_used and any(c is not None and c.kind == "potion" for c in s.room)
    state = a_state(two_potions_one_drunk)
    slot = next(i for i, c in enumerate(state.room) if c is not None and c.kind == "potion")
    button = labels_of(state)[f"T{slot}"]
    assert button.label.endswith(" wasted") and button.style is discord.ButtonStyle.secondary


def test_a_lethal_fight_is_marked_and_a_free_kill_reads_0_dmg():
    def deadly(s, c):
        return c is not None and c.kind == "monster" and c.value >= s.health and s.weapon is None
    state = a_state(lambda s: any(deadly(s, c) for c in s.room))
    slot = next(i for i, c in enumerate(state.room) if deadly(state, c))
    button = labels_of(state)[f"T{slot}"]
    assert button.label.endswith(" lethal") and str(button.emoji) == "☠️"
    free = a_state(lambda s: s.weapon is not None and not s.kills and any(
        c is not None and c.kind == "monster" and c.value <= s.weapon.value for c in s.room))
    slot = next(i for i, c in enumerate(free.room) if c is not None and c.kind == "monster"
                and c.value <= free.weapon.value)
    assert labels_of(free)[f"W{slot}"].label.endswith(" 0 dmg")


async def test_a_finished_game_shows_par_when_the_deal_was_solved(world):
    message = (await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")).response.message
    record = await world.store.active_game(world.alice.id, "normal")
    await world.store.put_par(record.state.rules.key, record.state.start_deck, 30, "T0")
    while True:
        moves = [b for c, b in codes(message).items() if not b.disabled and c not in ("mode", "A")]
        if not moves:
            break
        await world.alice.click(message, custom_id=moves[0].custom_id)
        message = world.channel.last_message
    record = await world.store.load_game(record.id)
    assert record.over
    assert f" played · par 30, {30 - record.score} short." in message.embeds[0].description


async def test_the_picture_is_drawn_once_per_table_and_kept(world, monkeypatch):
    """The table is drawn right on the event loop (0.4 ms of pasting tiles: less than a thread hand-off) and kept:
    the same table is never drawn twice."""
    import cogs.game_message.view as game_view

    drawn = []

    def counting(state, **options):
        drawn.append(state.history)
        return render_room(state, **options)

    monkeypatch.setattr(game_view, "render_room", counting)
    monkeypatch.setattr(game_view, "_PICTURES", type(game_view._PICTURES)())  # nothing cached
    await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")
    await world.alice.slash(world.channel, "scoundrel resume")
    assert drawn == [()]


def first_record_at(phase: str):
    """A game of the expansion stopped at the first ``phase`` (merchant, necromancer) it meets, as a record."""
    for seed in range(500):
        state = new_game(preset("expansion"), seed=seed)
        while not state.over and not (state.pending and state.pending[0] == phase):
            state = apply(state, legal_actions(state)[-1])
        if not state.over:
            break
    assert any(e.kind == phase for e in state.events)  # the engine tells the offer ...
    return SimpleNamespace(id=1, version=len(state.history), state=state, status="playing", kind="normal",
                           day=None, seed=seed)


def test_at_the_merchant_the_text_does_not_repeat_the_offer_the_picture_shows():
    record = first_record_at("merchant")
    lines = game_embed(record).description.split("\n")
    assert lines[0] == status_line(record.state) and not any("merchant shows" in line for line in lines)  # ... once


def test_facing_a_necromancer_the_text_says_his_offer_once():
    record = first_record_at("necromancer")
    lines = game_embed(record).description.split("\n")
    assert lines[0] == status_line(record.state) and "necromancer" in lines[0].lower()
    assert not any("offers to raise" in line for line in lines)  # ... once, in the status line
