"""The game through Discord: SimCord drives the real bot, SQLite runs on a temp file."""

from __future__ import annotations

import importlib
import logging
import pkgutil

import discord

import cogs
from bot.client import find_extensions
from games.engine import deal, legal_actions, new_game, preset, seed_from_text
from games.engine.rules import CLASSIC
from games.picture import FILENAME, render_room
from tests.discord.harness import (
    answer_kind,
    button,
    button_by_code,
    buttons,
    click_on_snapshot,
    press_again,
    private_notes,
    snapshot,
)
from tests.discord.test_member_menu_and_help import all_commands

SEED = "0000-0004"  # room 1: ♦7 ♥2 ♠4 ♠5 (see test_the_seed_is_what_the_tests_expect)


async def start(world, seed: str = SEED, **options):
    result = await world.alice.slash(world.channel, "scoundrel play", seed=seed, **options)
    assert result.acknowledged and not result.ephemeral
    return result


async def active(world, user):
    return await world.store.active_game(user.id, "normal")


def codes(message) -> dict[str, discord.Button]:
    return {b.custom_id.split(":")[-1]: b for b in buttons(message) if b.custom_id.startswith("sc:g:")}


async def shows_table(message, record) -> bool:
    """The message's one attachment is the picture of the record's table, byte for byte."""
    assert [a.filename for a in message.attachments] == [FILENAME]
    assert message.embeds[0].image.url == f"attachment://{FILENAME}"
    return await message.attachments[0].read() == render_room(record.state, abandoned=record.status == "abandoned")


def test_the_seed_is_what_the_tests_expect():
    assert [c.label for c in new_game(CLASSIC, seed=seed_from_text(SEED)).room] == ["♦7", "♥2", "♠4", "♠5"]


async def test_every_cog_loads_and_the_commands_are_synced(world):
    names = find_extensions()
    assert "cogs.game.commands" in names
    # declared in one place: every module with a setup(bot) is listed, and nothing else
    modules = [info.name for info in pkgutil.walk_packages(cogs.__path__, "cogs.")]
    assert sorted(names) == sorted(m for m in modules if hasattr(importlib.import_module(m), "setup"))
    assert set(world.bot.extensions) == set(names)
    # every offer (cogs/offers.py) names a function of its extension as loaded
    offers = world.bot.offers
    for offer in (*offers.finished, *offers.playing, *offers.duel_over, *offers.reminder, offers.replay_duel):
        assert callable(getattr(world.bot.extensions[offer.extension], offer.items)), offer
    available = world.alice.available_commands(world.channel)
    for sub in ("play", "resume", "abandon", "rules", "help"):
        assert f"scoundrel {sub}" in available


async def test_play_posts_the_room_with_a_button_per_card(world):
    result = await start(world)
    message = result.response.message
    embed = message.embeds[0]
    assert embed.title == "Scoundrel — room 1"
    assert embed.footer.text == f"Seed {SEED} · classic"
    assert embed.description == "Play 3 of 4 cards, or avoid the room."
    assert not embed.fields  # health, weapon, dungeon and avoid are in the picture
    by_code = codes(message)
    assert [by_code[c].label for c in ("T0", "T1", "T2", "T3")] == ["♦️7 equip", "♥️2 +0 (full)", "♤4 −4", "♤5 −5"]
    assert by_code["T0"].style is discord.ButtonStyle.primary and by_code["T2"].style is discord.ButtonStyle.danger
    assert by_code["T1"].style is discord.ButtonStyle.success
    assert by_code["mode"].disabled and by_code["mode"].label == "⚔️ · 👊 ✓"  # no weapon yet
    assert not by_code["A"].disabled
    record = await active(world, world.alice)
    assert (record.version, record.message_id, record.channel_id) == (0, message.id, world.channel.id)
    assert record.seed == seed_from_text(SEED) and record.rules == CLASSIC
    assert await shows_table(message, record)


async def test_a_new_games_message_is_the_answers_own_not_fetched_again(world, monkeypatch):
    # Discord returns the message with the answer (with_response): asking for it again would be a request per
    # new game for nothing. The real method still runs; it is only counted.
    fetched = []
    real = discord.Interaction.original_response

    async def counted(self):
        fetched.append(self.id)
        return await real(self)

    monkeypatch.setattr(discord.Interaction, "original_response", counted)
    message = (await start(world)).response.message
    record = await active(world, world.alice)
    assert (record.message_id, record.channel_id) == (message.id, world.channel.id)
    assert fetched == []


async def test_cards_fight_mode_and_the_outcome_preview(world):
    message = (await start(world)).response.message
    await world.alice.click(message, custom_id=button_by_code(message, "T0").custom_id)  # equip ♦7
    message = world.channel.last_message
    assert message.embeds[0].description.endswith("\nEquipped ♦️7.")
    assert await shows_table(message, await active(world, world.alice))  # the picture is replaced on every move
    by_code = codes(message)
    assert by_code["W2"].label == "♤4 0 dmg" and by_code["W3"].label == "♤5 0 dmg"
    # The fight mode is a grey switch showing both modes, the one on ticked: not one more (blue) move.
    assert not by_code["mode"].disabled and by_code["mode"].label == "⚔️ ✓ · 👊"
    assert by_code["mode"].style is discord.ButtonStyle.secondary
    assert by_code["A"].disabled  # the room has been started

    await world.alice.click(message, custom_id=by_code["mode"].custom_id)  # switch to barehanded
    message = world.channel.last_message
    by_code = codes(message)
    assert by_code["T2"].label == "♤4 −4" and by_code["mode"].label == "⚔️ · 👊 ✓"
    assert by_code["mode"].style is discord.ButtonStyle.secondary
    assert (await active(world, world.alice)).version == 1  # the toggle writes nothing

    await world.alice.click(message, custom_id=by_code["T3"].custom_id)  # ♠5 barehanded
    record = await active(world, world.alice)
    assert [a.code for a in record.state.history] == ["T0", "T3"] and record.state.health == 15
    message = world.channel.last_message
    assert await shows_table(message, record) and message.embeds[0].description.startswith("Play 1 more card.")
    assert codes(message)["T3"].disabled and codes(message)["T3"].label == "played"


async def test_avoid(world):
    message = (await start(world)).response.message
    await world.alice.click(message, label="Avoid")
    record = await active(world, world.alice)
    assert [a.code for a in record.state.history] == ["A"]
    message = world.channel.last_message
    assert codes(message)["A"].disabled
    assert message.embeds[0].description.startswith("Play 3 of 4 cards.\n")  # no avoiding twice in a row
    assert "Avoided the room" in message.embeds[0].description
    assert await shows_table(message, record)


async def test_another_player_cannot_press_the_buttons(world):
    message = (await start(world)).response.message
    click = await world.bob.click(message, custom_id=button_by_code(message, "T0").custom_id)
    assert private_notes(click) == [f"This is <@{world.alice.id}>'s game — start your own with `/scoundrel play`."]
    record = await active(world, world.alice)
    assert record.version == 0
    assert world.channel.last_message.embeds[0].title == "Scoundrel — room 1"


async def test_a_click_is_answered_with_the_edited_message_in_one_request(world):
    message = (await start(world)).response.message
    click = await world.alice.click(message, custom_id=button_by_code(message, "T0").custom_id)
    assert answer_kind(click) == "update"  # the edit is the interaction's response: no deferral, no follow-up
    assert click.followups == []
    record = await active(world, world.alice)
    assert record.state.weapon is not None and await shows_table(world.channel.last_message, record)


async def test_double_click_applies_once_and_the_second_press_is_answered(world):
    message = (await start(world)).response.message
    first = button_by_code(message, "T2").custom_id
    await world.alice.click(message, custom_id=first)
    # The second press carries the message as Discord has it now: already edited, without the pressed button.
    assert first not in [b.custom_id for b in buttons(world.channel.last_message)]
    second = await press_again(world.alice, world.channel.last_message, first)
    assert second.acknowledged  # discord.py alone drops it: the player would see "This interaction failed"
    assert answer_kind(second) == "update" and private_notes(second) == []  # the game is simply shown again
    record = await active(world, world.alice)
    assert [a.code for a in record.state.history] == ["T2"] and record.state.health == 16
    assert await shows_table(world.channel.last_message, record)


async def test_a_double_click_racing_the_first_edit_applies_once(world):
    message = (await start(world)).response.message
    seen = snapshot(world.alice, message)  # both presses left the client before the first edit arrived
    first = button_by_code(message, "T2").custom_id
    await world.alice.click(message, custom_id=first)
    second = await click_on_snapshot(world.alice, seen, first)
    assert second.acknowledged and private_notes(second) == []
    record = await active(world, world.alice)
    assert [a.code for a in record.state.history] == ["T2"] and record.state.health == 16
    assert await shows_table(world.channel.last_message, record)


async def test_a_move_saved_before_a_crash_is_redrawn_in_place_on_the_next_press(world):
    message = (await start(world)).response.message
    record = await active(world, world.alice)
    # The bot saved the move and was killed before it could edit the message.
    from games.engine import Action

    saved = await world.store.play(record.id, world.alice.id, 0, Action.parse("T0"))
    await world.restart()
    stale = world.channel.history()[-1]
    assert stale.id == message.id and await shows_table(stale, record)  # still the room before the move
    click = await world.alice.click(stale, custom_id=button_by_code(stale, "T3").custom_id)
    assert click.acknowledged and private_notes(click) == []
    now = world.channel.history()[-1]
    assert now.id == message.id and await shows_table(now, saved)  # the saved move, drawn in place
    assert (await active(world, world.alice)).version == 1  # the stale press applied nothing


async def test_buttons_work_after_a_restart(world):
    message = (await start(world)).response.message
    await world.restart()
    old_message = world.channel.history()[-1]
    assert old_message.id == message.id
    click = await world.alice.click(old_message, custom_id=button_by_code(old_message, "T0").custom_id)
    assert click.acknowledged
    record = await active(world, world.alice)
    assert [a.code for a in record.state.history] == ["T0"]
    assert await shows_table(world.channel.last_message, record)


async def test_a_malformed_seed_is_refused_and_changes_nothing(world):
    result = await world.alice.slash(world.channel, "scoundrel play", seed="K7Q2-M9U")
    assert result.ephemeral and "is not a seed" in result.response.content
    assert await active(world, world.alice) is None
    assert world.channel.history() == []


async def test_play_while_a_game_is_on_offers_resume_or_abandon(world):
    first = (await start(world)).response.message
    offer = await world.alice.slash(world.channel, "scoundrel play")
    assert offer.ephemeral and "already have a game in progress" in offer.response.content
    assert [b.label for b in buttons(offer.response)] == ["Resume", "Abandon"]
    await world.alice.click(offer.response, label="Resume")
    assert world.channel.last_message.id != first.id and world.channel.last_message.embeds[0].title.endswith("room 1")

    await world.alice.click(offer.response, label="Abandon")
    assert "Abandon your game (room 1, health 20)?" in offer.response.content
    await world.alice.click(offer.response, label="Abandon game")
    assert offer.response.content.startswith("Game abandoned")
    assert await active(world, world.alice) is None
    assert world.channel.last_message.embeds[0].title == "🏳️ Scoundrel — abandoned"


async def test_abandon_asks_first(world):
    await start(world)
    ask = await world.alice.slash(world.channel, "scoundrel abandon")
    assert ask.ephemeral and ask.response.content.startswith("Abandon your game")
    await world.alice.click(ask.response, label="Keep playing")
    assert ask.response.content == "Your game goes on." and (await active(world, world.alice)) is not None
    nothing = await world.bob.slash(world.channel, "scoundrel abandon")
    assert nothing.ephemeral and nothing.response.content.startswith("You have no game in progress")


async def test_rules_are_paged_and_help_lists_the_commands(world):
    rules = await world.alice.slash(world.channel, "scoundrel rules")
    assert rules.ephemeral and rules.response.embeds[0].title == "Scoundrel — the classic rules"
    assert button(rules.response, "◀").disabled
    for _ in range(4):
        await world.alice.click(rules.response, label="Next ▶")
    assert rules.response.embeds[0].title == "Daily challenge and leaderboards"
    assert rules.response.embeds[0].footer.text == "Page 5 of 5" and button(rules.response, "Next").disabled
    helped = await all_commands(world.alice, world.channel)
    listed = [line for field in helped.response.embeds[0].fields for line in field.value.splitlines()]
    names = [line.split("`")[1].split(" [")[0] for line in listed if line.count("`") >= 2]
    assert {"/scoundrel play", "/scoundrel rules", "/scoundrel abandon"} <= set(names)


async def play_to_the_end(world, message, prefer=("E", "L", "D")):
    """Click the first enabled move (expansion choices by ``prefer``) until the game is over."""
    clicked = []
    for _ in range(400):
        moves = {c: b for c, b in codes(message).items() if c != "mode" and not b.disabled}
        if not moves:
            return clicked, message
        code = next((c for c in prefer if c in moves), next(iter(moves)))
        await world.alice.click(message, custom_id=moves[code].custom_id)
        clicked.append(code)
        message = world.channel.last_message
    raise AssertionError("the game did not end")


async def test_a_full_game_through_clicks_scores_what_the_engine_replay_scores(world):
    message = (await start(world)).response.message
    record = await active(world, world.alice)
    game_id = record.id
    clicked, message = await play_to_the_end(world, message)
    from games.engine import Action, replay

    expected = replay(CLASSIC, deal(CLASSIC, seed_from_text(SEED)), [Action.parse(c) for c in clicked])
    final = await world.store.load_game(game_id)
    assert expected.over and final.status == expected.status and final.score == expected.score
    embed = message.embeds[0]
    assert f"Score {expected.score}" in embed.title
    assert embed.footer.text == f"🔁 /scoundrel play seed:{SEED}"  # the deal, ready to play again
    assert [b.label for b in buttons(message)] == ["New game", "Replay"]

    # New game: a fresh deal for whoever clicks, with the same rules.
    await world.bob.click(message, label="New game")
    bobs = await active(world, world.bob)
    assert bobs is not None and bobs.rules == CLASSIC and world.channel.last_message.id == bobs.message_id


async def test_the_expansion_is_playable_through_its_own_buttons(world):
    seed = "0000-0000"  # room 1 holds a necromancer (♦J) and a merchant (♥K)
    message = (await start(world, seed=seed, preset="expansion")).response.message
    rules = preset("expansion")
    assert message.embeds[0].footer.text == f"Loop 1/5 · Seed {seed} · expansion"  # the loop, as the picture's
    # phases leave it out
    clicked, message = await play_to_the_end(world, message, prefer=("E", "B0", "R", "T1", "T0"))
    from games.engine import Action, replay

    expected = replay(rules, deal(rules, seed_from_text(seed)), [Action.parse(c) for c in clicked])
    assert expected.over
    assert any(c.startswith(("R", "D", "B", "L")) for c in clicked)  # an expansion choice was made by button
    assert f"Score {expected.score}" in message.embeds[0].title


async def test_a_damaged_game_gets_a_friendly_message_and_a_logged_traceback(world, caplog):
    message = (await start(world)).response.message
    record = await active(world, world.alice)
    import sqlite3

    with sqlite3.connect(world.database) as db:  # damage the stored game behind the bot's back
        db.execute("UPDATE games SET snapshot = 'garbage', deck = 'Z99' WHERE id = ?", (record.id,))
    with caplog.at_level(logging.ERROR, logger="cogs.plumbing.errors"):
        click = await world.alice.click(message, custom_id=button_by_code(message, "T0").custom_id)
    notes = private_notes(click)
    assert notes and "saved data is damaged" in notes[0]
    assert any(r.exc_info for r in caplog.records if r.name == "cogs.plumbing.errors")
    assert not legal_actions(new_game(CLASSIC, seed=1)) == []  # the engine itself is untouched


WINNING_SEED = "0000-000A"  # with health 99 this line clears the dungeon with 5 health (found by the engine)
WINNING_LINE = ("T0 T2 T3 T2 W1 T3 W1 T2 W3 W1 T3 T0 T2 W3 T1 T1 W2 T3 T2 T1 W3 T1 W2 T0 T1 T2 T3 T2 W1 T3 T3 "
                "T2 T1 T2 W1 T3 T3 W1 T2 T1 T2 W3 T1 W0").split()


async def click_code(world, message, code: str):
    """Click the button for ``code``, switching the fight mode first when the other mode shows it."""
    if code not in codes(message):
        await world.alice.click(message, custom_id=codes(message)["mode"].custom_id)
        message = world.channel.last_message
    await world.alice.click(message, custom_id=codes(message)[code].custom_id)
    return world.channel.last_message


async def test_a_won_game_shows_the_final_room_and_the_score(world):
    message = (await start(world, seed=WINNING_SEED, health=99)).response.message
    assert message.embeds[0].footer.text == f"Seed {WINNING_SEED} · classic · health 99"
    saw_final_room = False
    for code in WINNING_LINE:
        embed = message.embeds[0]
        if embed.title.endswith("the final room"):
            saw_final_room = True
            assert embed.colour == discord.Colour.gold()
            assert embed.description.startswith("The final room: play ")
        message = await click_code(world, message, code)
    assert saw_final_room
    embed = message.embeds[0]
    assert embed.title == "🏆 You survived! Score 5" and embed.colour == discord.Colour.green()
    assert "**Score: 5** (5 health)" in embed.description
    assert embed.footer.text == f"🔁 /scoundrel play seed:{WINNING_SEED} health:99"
    games = await world.store.recent_games(world.alice.id)
    assert (games[0].status, games[0].score, games[0].version) == ("won", 5, len(WINNING_LINE))


def greedy_line_to_crossroads(rules, seed: int) -> list[str]:
    """Engine-only: a line of play (never avoiding or raising) that clears the first loop."""
    from games.engine import apply

    state = new_game(rules, seed=seed)
    line = []
    while not (state.pending and state.pending[0] == "crossroads"):
        assert not state.over, "the greedy line died; pick another seed"
        options = [a for a in legal_actions(state) if a.kind not in ("avoid", "raise")]
        action = max(options, key=lambda a: (apply(state, a).health, apply(state, a).weapon or ()))
        line.append(action.code)
        state = apply(state, action)
    return line


async def test_expansion_choices_necromancer_and_looping(world):
    rules = preset("expansion").with_health(99)
    message = (await start(world, seed="0000-0000", preset="expansion", health=99)).response.message
    line = greedy_line_to_crossroads(rules, 0)
    assert line[0] == "T0"  # ♦J: the necromancer, with an empty graveyard
    message = await click_code(world, message, "T0")
    pay, decline = codes(message)["R"], codes(message)["D"]
    assert pay.disabled and pay.label.endswith("graveyard too small") and not decline.disabled
    for code in line[1:]:
        message = await click_code(world, message, code)
    embed = message.embeds[0]
    assert embed.title == "Scoundrel — loop 1 cleared!" and "**Loop 1 cleared**" in embed.description
    health = (await active(world, world.alice)).state.health
    assert [b.label for b in buttons(message)] == ["Descend again (loop 2)", f"Retire with {health} health"]
    message = await click_code(world, message, "O")
    assert "Loop 2: the graveyard becomes the dungeon." in message.embeds[0].description
    record = await active(world, world.alice)
    assert await shows_table(message, record)
    assert record.state.loop == 2 and [a.code for a in record.state.history][-1] == "O"
