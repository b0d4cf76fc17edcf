"""The game screens in the player's language: a German player reads the room, its buttons, its picture and the
game over in German; another member keeps their own language for what answers them."""

from __future__ import annotations

import re
import sys

from cogs.game_message.embed import status_line, table_description
from cogs.game_message.view import table_picture
from games.i18n.messages import ENGLISH, messages_for
from games.picture import FILENAME, render_room, room_layout
from tests.discord.harness import button, buttons, private_notes

SEED = "0000-0004"  # room 1: ♦7 ♥2 ♠4 ♠5
DE = messages_for("de")
# English words of the game's own text and the engine's events; none may be left in a German message.
ENGLISH_WORDS = re.compile(r"\b(room|Room|Play|play|cards?|more|Avoid|avoid|Fighting|Fought|Drank|Equipped|Avoided|"
                           r"took|healed|Barehanded|barehanded|equip|dmg|"
                           r"lethal|wasted|full|played|Score|health|New game|Resume|Abandon|Keep|You|died|survived|"
                           r"final|Replay|deal|Given up)\b")


def codes(message) -> dict:
    return {b.custom_id.split(":")[-1]: b for b in buttons(message) if b.custom_id.startswith("sc:g:")}


def no_english(*texts: str) -> None:
    for text in texts:
        assert not ENGLISH_WORDS.search(text), f"English left in {text!r}"


async def check_german_room(message, record) -> None:
    """The message shows the stored game in German: title, status line, buttons, picture and its alt text."""
    state = record.state
    embed = message.embeds[0]
    assert embed.description.split("\n")[0] == status_line(state, DE)
    no_english(embed.title, embed.description, *(b.label or "" for b in buttons(message)))
    attachment = message.attachments[0]
    assert attachment.filename == FILENAME
    assert await attachment.read() == render_room(state, tr=DE)  # the picture's words are German too
    assert attachment.description == table_description(state, DE)


async def test_a_german_player_plays_a_whole_game_in_german(world, locales):
    locales.speak(world.alice, "de")
    result = await world.alice.slash(world.channel, "scoundrel play", seed=SEED)
    message = result.response.message
    record = await world.store.active_game(world.alice.id, "normal")
    embed = message.embeds[0]
    assert embed.title == "Scoundrel — Raum 1" == DE("{name} — room {turn}", name="Scoundrel", turn=1)
    assert embed.description == "3 von 4 Karten spielen oder meiden."
    assert embed.footer.text == f"Seed {SEED} · klassisch"  # the seed as typed, the preset named in German
    by_code = codes(message)
    assert [by_code[c].label for c in ("T0", "T1", "T2", "T3")] == ["♦️7 anlegen", "♥️2 +0 (voll)", "♤4 −4", "♤5 −5"]
    assert by_code["mode"].label == "⚔️ · 👊 ✓" and by_code["A"].label == "Meiden"
    assert (await message.attachments[0].read()) != render_room(record.state)  # not the English picture
    assert message.attachments[0].description.startswith("Raum 1: ♦7 ♥2 ♠4 ♠5; Leben 20/20; keine Waffe;")
    await check_german_room(message, record)

    # bob (English) presses alice's button: his refusal is in English, and alice's game is untouched.
    refused = await world.bob.click(message, custom_id=by_code["T0"].custom_id)
    assert private_notes(refused) == [f"This is <@{world.alice.id}>'s game — start your own with `/scoundrel play`."]
    assert world.channel.last_message.embeds[0].title == "Scoundrel — Raum 1"

    await world.alice.click(message, custom_id=by_code["T0"].custom_id)  # equip ♦7
    message = world.channel.last_message
    record = await world.store.active_game(world.alice.id, "normal")
    by_code = codes(message)
    assert message.embeds[0].description.startswith("Noch 2 Karten spielen.\n")
    assert by_code["W2"].label == "♤4 schadlos" and by_code["mode"].label == "⚔️ ✓ · 👊"
    await check_german_room(message, record)

    await world.alice.click(message, custom_id=by_code["mode"].custom_id)  # the fight-mode toggle
    message = world.channel.last_message
    by_code = codes(message)
    assert by_code["mode"].label == "⚔️ · 👊 ✓" and by_code["T2"].label == "♤4 −4"
    await world.alice.click(message, custom_id=by_code["T2"].custom_id)  # ♠4 barehanded
    message = world.channel.last_message
    assert message.embeds[0].description.startswith("Noch 1 Karte spielen.\n")  # the singular
    assert codes(message)["T2"].label == "gespielt"
    await world.alice.click(message, custom_id=codes(message)["T1"].custom_id)  # the potion ends the room

    message = world.channel.last_message  # room 2: avoid it, in German
    assert message.embeds[0].title == "Scoundrel — Raum 2"
    await world.alice.click(message, label="Meiden")
    message = world.channel.last_message
    record = await world.store.active_game(world.alice.id, "normal")
    assert record.state.history[-1].code == "A" and codes(message)["A"].disabled
    assert message.embeds[0].description.startswith("3 von 4 Karten spielen.")  # no avoiding twice in a row
    await check_german_room(message, record)

    game_id = record.id
    for _ in range(200):  # play on to the end, checking every screen
        moves = [b for c, b in codes(message).items() if c not in ("mode", "A") and not b.disabled]
        if not moves:
            break
        await world.alice.click(message, custom_id=moves[0].custom_id)
        message = world.channel.last_message
        record = await world.store.load_game(game_id)
        if record.status == "playing":
            await check_german_room(message, record)
    assert record.status in ("won", "dead")

    embed = message.embeds[0]
    verdict = "💀 Gestorben · " if record.status == "dead" else "🏆 Überlebt! "
    assert embed.title.startswith(verdict) and "Punkte" in embed.title
    lines = embed.description.split("\n")
    assert lines[0].startswith(f"**Punkte: {record.score}** (")
    rooms = [line for line in lines if line.endswith(" gespielt.")]
    assert rooms == [f"{record.state.turn} Räume gespielt."]  # (the rooms stand alone too: "4 Räume · Par 30")
    assert embed.footer.text == f"🔁 /scoundrel spielen seed:{SEED}"
    no_english(embed.title, lines[0], rooms[0])
    banner = "TOT · " if record.status == "dead" else "ÜBERLEBT · "
    assert await message.attachments[0].read() == render_room(record.state, tr=DE)
    assert room_layout(record.state, tr=DE).banner.startswith(banner)
    new_game = button(message, "Neues Spiel")
    assert [b.label for b in buttons(message)] == ["Neues Spiel", "Wiederholung"]

    await world.alice.click(message, custom_id=new_game.custom_id)
    fresh = world.channel.last_message
    assert fresh.id != message.id and fresh.embeds[0].title == "Scoundrel — Raum 1"
    await check_german_room(fresh, await world.store.active_game(world.alice.id, "normal"))


async def test_resume_and_abandon_answer_in_german(world, locales):
    locales.speak(world.alice, "de")
    first = (await world.alice.slash(world.channel, "scoundrel play", seed=SEED)).response.message
    offer = await world.alice.slash(world.channel, "scoundrel play")
    assert offer.ephemeral and offer.response.content.startswith("Du hast schon ein laufendes Spiel (Raum 1, Leben 20)")
    assert [b.label for b in buttons(offer.response)] == ["Fortsetzen", "Aufgeben"]
    await world.alice.click(offer.response, label="Fortsetzen")
    resumed = world.channel.last_message
    assert resumed.id != first.id and resumed.embeds[0].title == "Scoundrel — Raum 1"
    old = world.channel.history()[0]
    assert old.content == "Dieses Spiel geht in einer neueren Nachricht weiter." and not old.components

    ask = await world.alice.slash(world.channel, "scoundrel abandon")
    assert ask.response.content == "Dein Spiel aufgeben (Raum 1, Leben 20)? Es endet sofort und zählt als aufgegeben."
    assert [b.label for b in buttons(ask.response)] == ["Spiel aufgeben", "Weiterspielen"]
    await world.alice.click(ask.response, label="Weiterspielen")
    assert ask.response.content == "Dein Spiel geht weiter."

    ask = await world.alice.slash(world.channel, "scoundrel abandon")
    await world.alice.click(ask.response, label="Spiel aufgeben")
    assert ask.response.content == "Spiel aufgegeben. Starte ein neues mit `/scoundrel spielen`."
    gone = world.channel.last_message  # the game message itself, redrawn for its German player
    assert gone.embeds[0].title == "🏳️ Scoundrel — aufgegeben"
    assert gone.embeds[0].description.startswith("Aufgegeben in Raum 1, ")
    assert [b.label for b in buttons(gone)] == ["Neues Spiel"]
    record = await world.store.get_game((await world.store.recent_games(world.alice.id, 1))[0].id)
    assert await gone.attachments[0].read() == render_room(record.state, abandoned=True, tr=DE)
    assert DE("GIVEN UP") == "AUFGEGEBEN"

    nothing = await world.alice.slash(world.channel, "scoundrel resume")
    assert nothing.response.content == "Du hast kein laufendes Spiel – starte eins mit `/scoundrel spielen`."
    english = await world.bob.slash(world.channel, "scoundrel resume")  # bob's client is in English
    assert english.response.content == "You have no game in progress — start one with `/scoundrel play`."


async def test_the_same_table_is_one_picture_per_language(world):
    await world.alice.slash(world.channel, "scoundrel play", seed=SEED)
    record = await world.store.active_game(world.alice.id, "normal")
    english = await table_picture(record, ENGLISH)
    german = await table_picture(record, DE)  # the cache must not hand back the English picture
    assert german != english
    assert german == render_room(record.state, tr=DE) and english == render_room(record.state)
    assert await table_picture(record, DE) == german


async def test_french_and_spanish_players_read_the_room_in_their_language(world, locales):
    expected = {"fr": ("Scoundrel — salle 1", "Jouez 3 cartes sur 4, ou évitez la salle.",
                       ["♦️7 équiper", "♥️2 +0 (max)", "♤4 −4", "♤5 −5", "⚔️ · 👊 ✓", "Éviter"]),
                "es-ES": ("Scoundrel — sala 1", "Juega 3 de 4 cartas o evita la sala.",
                          ["♦️7 equipar", "♥️2 +0 (máx.)", "♤4 −4", "♤5 −5", "⚔️ · 👊 ✓", "Evitar"])}
    for player, (locale, (title, status, labels)) in zip((world.alice, world.bob), expected.items(), strict=True):
        locales.speak(player, locale)
        message = (await player.slash(world.channel, "scoundrel play", seed=SEED)).response.message
        record = await world.store.active_game(player.id, "normal")
        assert (message.embeds[0].title, message.embeds[0].description) == (title, status)
        assert [b.label for b in buttons(message)] == labels
        assert await message.attachments[0].read() == render_room(record.state, tr=messages_for(locale))


async def test_buttons_offered_under_the_game_read_in_the_players_language(world, monkeypatch):
    from cogs.game_message.view import render_game

    monkeypatch.setitem(sys.modules["cogs.coach.advice"]._state, "hint", object())  # as when the solver runs
    await world.alice.slash(world.channel, "scoundrel play", seed=SEED)
    record = await world.store.active_game(world.alice.id, "normal")
    _, view = render_game(record, tr=DE, bot=world.bot)
    assert view.children[-1].item.label == DE("Hint") != "Hint"  # the offer labels its button in the tr it is given
    _, view = render_game(record, bot=world.bot)
    assert view.children[-1].item.label == "Hint"


def test_the_replay_command_is_written_as_the_readers_discord_shows_it():
    from cogs.game_message.embed import replay_command
    from games.engine import preset, seed_from_text

    rules, seed = preset("expansion").with_health(30), seed_from_text("K7Q2-M9XD")
    assert replay_command(rules, seed) == "/scoundrel play seed:K7Q2-M9XD preset:expansion health:30"
    assert replay_command(rules, seed, DE) == "/scoundrel spielen seed:K7Q2-M9XD regelwerk:expansion leben:30"
