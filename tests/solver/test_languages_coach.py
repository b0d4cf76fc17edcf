"""The coach in its player's language: a German player's review and hint are German, their cards and numbers as
the solver found them; the English review reads exactly as it always has (the terminal and its machine line)."""

from __future__ import annotations

import functools
import pickle

import pytest

from bot.coach import hint_for, review_game
from bot.engine import PRESETS, apply, legal_actions, new_game
from bot.i18n.messages import ENGLISH, messages_for
from bot.i18n.phrase import Phrase
from bot.solver.explain import line_text
from bot.solver.position import Position
from bot.solver.review import move_words, review
from tests.discord.harness import buttons

from .test_coach_cog import coach, real_worker  # noqa: F401 - the fixture is used by name
from .test_par_cog import answers_to
from .test_par_cog import finished_game_message as last_choice_game

CLASSIC = PRESETS["classic"]
DE = messages_for("de")

# Deal 13 played by always taking the last legal move: mistakes of every kind (a weapon, barehanded, equipping,
# drinking, avoiding instead), two in each room. The review as it has always read in English.
SEED = 13
ENGLISH_SUMMARY = "You lost 193 points against par 30; the costliest was room 4 (−165); 6/12 decisions perfect."
ENGLISH_ROOMS = [
    "Room 1: ♠Q ♥2 ♦10 ♠6. Perfect: best possible stays 30.",
    "Room 2: ♠Q ♠5 ♦2 ♠7. Best possible 30 → 9. ✗ Fighting ♠7 with your ♦10 dropped your best possible from 30 to "
    "13; fighting ♠Q with your ♦10 instead kept 30. ✗ Equipping ♦2 dropped your best possible from 13 to 9; fighting "
    "♠5 with your ♦10 instead kept 13.",
    "Room 3: ♠Q ♣4 ♥10 ♣3. Best possible 9 → 2. ✗ Fighting ♣3 with your ♦2 dropped your best possible from 9 to 4; "
    "avoiding the room instead kept 9. ✗ Drinking ♥10 dropped your best possible from 4 to 2; fighting ♣4 "
    "barehanded instead kept 4.",
    "Room 4: ♠Q ♣6 ♦3 ♠A. Best possible 2 → -163. ✗ Fighting ♠A barehanded dropped your best possible from 2 to "
    "-157; avoiding the room instead kept 2. ✗ Fighting ♣6 with your ♦3 dropped your best possible from -157 to "
    "-163; fighting ♠Q barehanded instead kept -157.",
]
MACHINE = "par=30 score=-163 lost=193 perfect=6/12"


@functools.cache
def last_choice_line(seed: int) -> tuple:
    state = new_game(CLASSIC, seed=seed)
    deck, line = state.start_deck, []
    while not state.over:
        line.append(legal_actions(state)[-1])
        state = apply(state, line[-1])
    return deck, tuple(line)


@functools.cache
def reviewed(seed: int):
    return review(CLASSIC, *last_choice_line(seed))


def test_the_english_review_reads_as_it_always_has():
    result = reviewed(SEED)
    assert result.summary() == ENGLISH_SUMMARY and result.room_lines() == ENGLISH_ROOMS
    assert result.machine_line() == MACHINE
    # the words cross the solver's process boundary whole, still translatable
    rooms = pickle.loads(pickle.dumps(result.room_lines()))
    assert rooms == ENGLISH_ROOMS and all(isinstance(room, Phrase) for room in rooms)
    assert [room.translated(ENGLISH) for room in rooms] == ENGLISH_ROOMS


def test_review_sentences_in_german_keep_cards_and_numbers():
    result = reviewed(SEED)
    german = [room.translated(DE) for room in result.room_lines()]
    assert german[0] == "Raum 1: ♠Q ♥2 ♦10 ♠6. Perfekt: Bestmöglich bleibt 30."
    assert german[2] == ("Raum 3: ♠Q ♣4 ♥10 ♣3. Bestmöglich 9 → 2. ✗ „♣3 mit der Waffe ♦2 bekämpfen“ senkte deine "
                         "bestmögliche Punktzahl von 9 auf 4; „den Raum meiden“ hätte 9 gehalten. ✗ „♥10 trinken“ "
                         "senkte deine bestmögliche Punktzahl von 4 auf 2; „♣4 mit Fäusten bekämpfen“ hätte 4 "
                         "gehalten.")
    assert result.summary().translated(DE) == ("Du hast 193 Punkte gegenüber Par 30 verloren; am teuersten war Raum 4 "
                                               "(−165); 6/12 Entscheidungen perfekt.")
    french = result.room_lines()[3].translated(messages_for("fr"))
    assert "✗ Combattre ♠A à mains nues a fait baisser votre meilleur score possible de 2 à -157" in french
    # a line told room by room (as /scoundrel par tells the solver's), in German too
    deck, line = last_choice_line(SEED)
    english, german_line = line_text(CLASSIC, deck, line), line_text(CLASSIC, deck, line, tr=DE)
    assert english[-1].endswith(" Score: -163.") and german_line[-1].endswith(" Punkte: -163.")
    assert english[0].endswith(" Health: 16.") and german_line[0].endswith(" Leben: 16.")


@pytest.mark.simcord(settle_timeout=60)
async def test_a_german_players_review_and_hint(world, locales, monkeypatch, real_worker):  # noqa: F811
    monkeypatch.setitem(coach()._state, "review", review_game)
    monkeypatch.setitem(coach()._state, "hint", hint_for)
    locales.speak(world.alice, "de")
    record, message = await last_choice_game(world, seed=SEED)
    review_button = next(b for b in buttons(message) if b.custom_id.startswith("sc:review:"))

    other = await world.bob.click(message, custom_id=review_button.custom_id)  # bob reads English
    assert [m.content for m in answers_to(other)] == [coach().NOT_YOURS_REVIEW]

    mine = answers_to(await world.alice.click(message, custom_id=review_button.custom_id))
    expected = reviewed(SEED)
    assert tuple(record.state.history) == last_choice_line(SEED)[1]  # the game the store played is that line
    assert mine[0].embeds[0].title == DE("Review: {summary}", summary=expected.summary().translated(DE))
    assert mine[0].embeds[0].title.startswith("Auswertung: Du hast 193 Punkte gegenüber Par 30 verloren")
    shown = "\n".join(e.description for m in mine for e in m.embeds).split("\n")
    assert shown == [room.translated(DE) for room in expected.room_lines()]
    assert [line.split(".")[0] for line in shown] == [f"Raum {room.number}: {room.cards}" for room in expected.rooms]
    assert "✗ „♦2 anlegen“ senkte deine bestmögliche Punktzahl von 13 auf 9" in shown[1]
    assert mine[-1].embeds[-1].footer.text == DE(coach().REVIEW_FOOTER) != coach().REVIEW_FOOTER

    # a hint in a new game: German, with the solver's card and score
    game = (await world.alice.slash(world.channel, "scoundrel play", seed="0000-0007")).response
    playing = await world.store.active_game(world.alice.id, "normal")
    hint_button = next(b for b in buttons(game.message) if b.custom_id.startswith("sc:hint:"))
    answer = answers_to(await world.alice.click(game.message, custom_id=hint_button.custom_id))
    best, value = Position(CLASSIC, playing.state.start_deck).best_action(playing.state)
    words = move_words(playing.state, best)
    assert [m.content for m in answer] == [
        f"💡 Bester Zug jetzt: **{words.translated(DE)}**; damit bleibt deine bestmögliche Punktzahl bei {value}.\n"
        + DE(coach().HINTED_NOTE)]
    assert all(str(card) in answer[0].content for card in words.fields.values()) and words.translated(DE) != words
