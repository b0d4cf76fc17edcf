"""The coach in its player's language: a German player's review and hint are German, their cards and numbers as
the solver found them. The hindsight review (``games.solver.review``, every card seen) reads exactly as it always has;
the bot's Review is the fair one (judged on what the player could see)."""

from __future__ import annotations

import functools
import pickle

import pytest

from app.coach.advice import _review_in_worker, hint_for, review_game
from cogs.text.card_text import readable
from games.engine import PRESETS, apply, encode, legal_actions, new_game
from games.i18n.messages import ENGLISH, messages_for
from games.i18n.phrase import Phrase
from games.solver.explain import line_text
from games.solver.fair import HINT_BUDGET, Coach
from games.solver.hint_words import hint_phrase
from games.solver.review import move_words, review
from tests.discord.harness import buttons
from tests.solver.test_coach_cog import coach, real_worker  # noqa: F401 - the fixture is used by name
from tests.solver.test_par_cog import answers_to
from tests.solver.test_par_cog import finished_game_message as last_choice_game

CLASSIC = PRESETS["classic"]
DE = messages_for("de")

# Deal 13 played by always taking the last legal move: mistakes of every kind (a weapon, barehanded, equipping,
# drinking, avoiding instead), two in each room. The review as it has always read in English.
SEED = 13
ENGLISH_SUMMARY = "You lost 193 points against par 30; the costliest was room 4 (−165); 6/12 decisions perfect."
ENGLISH_LINES = [  # what mattered, the verdict last
    "Room 1: perfect",
    "✗ Room 2 (−17): fighting ♠7 with your ♦10; better: fighting ♠Q with your ♦10",
    "✗ Room 2 (−4): equipping ♦2; better: fighting ♠5 with your ♦10",
    "✗ Room 3 (−5): fighting ♣3 with your ♦2; better: avoiding the room",
    "✗ Room 3 (−2): drinking ♥10; better: fighting ♣4 barehanded",
    "✗ Room 4 (−159): fighting ♠A barehanded; better: avoiding the room",
    "✗ Room 4 (−6): fighting ♣6 with your ♦3; better: fighting ♠Q barehanded",
    ENGLISH_SUMMARY,
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


def test_the_english_review_lists_what_mattered():
    result = reviewed(SEED)
    assert result.summary() == ENGLISH_SUMMARY and result.lines() == ENGLISH_LINES
    assert result.machine_line() == MACHINE
    # the words cross the solver's process boundary whole, still translatable
    lines = pickle.loads(pickle.dumps(result.lines()))
    assert lines == ENGLISH_LINES and all(isinstance(line, Phrase) for line in lines)
    assert [line.translated(ENGLISH) for line in lines] == ENGLISH_LINES


def test_review_sentences_in_german_keep_cards_and_numbers():
    result = reviewed(SEED)
    german = [line.translated(DE) for line in result.lines()]
    assert german[0] == "Raum 1: perfekt"
    assert german[3] == "✗ Raum 3 (−5): ♣3 mit der Waffe ♦2 bekämpfen; besser: den Raum meiden"
    assert german[-1] == ("Du hast 193 Punkte gegenüber Par 30 verloren; am teuersten war Raum 4 (−165); 6/12 "
                          "Entscheidungen perfekt.")
    french = result.lines()[5].translated(messages_for("fr"))
    assert french == "✗ Salle 4 (−159) : combattre ♠A à mains nues ; mieux : éviter la salle"
    # a line told room by room (as /scoundrel par tells the solver's), in German too
    deck, line = last_choice_line(SEED)
    english, german_line = line_text(CLASSIC, deck, line), line_text(CLASSIC, deck, line, tr=DE)
    assert english[-1].endswith(" Score: -163.") and german_line[-1].endswith(" Punkte: -163.")
    assert english[0].endswith(" Health: 16.") and german_line[0].endswith(" Leben: 16.")


@pytest.mark.simcord(settle_timeout=600)  # the fair coach solves several orders a move
async def test_a_german_players_review_and_hint(world, locales, monkeypatch, real_worker):  # noqa: F811
    monkeypatch.setitem(coach()._state, "review", review_game)
    monkeypatch.setitem(coach()._state, "hint", hint_for)
    locales.speak(world.alice, "de")
    record, message = await last_choice_game(world, seed=SEED)
    review_button = next(b for b in buttons(message) if b.custom_id.startswith("sc:review:"))

    other = await world.bob.click(message, custom_id=review_button.custom_id)  # bob reads English
    assert [m.content for m in answers_to(other)] == [coach().NOT_YOURS_REVIEW]

    mine = answers_to(await world.alice.click(message, custom_id=review_button.custom_id))
    deck, line = last_choice_line(SEED)
    expected = _review_in_worker(CLASSIC.to_dict(), " ".join(card.code for card in deck), encode(line))  # fair
    assert tuple(record.state.history) == line  # the game the store played is that line
    assert mine[0].embeds[0].title == "🎓 Auswertung"
    shown = "\n".join(e.description for m in mine for e in m.embeds).split("\n")
    *told, verdict = [line.translated(DE) for line in expected.lines]
    assert shown == [readable(line) for line in told] + [f"**{verdict}**"]
    assert verdict.startswith("Du hast nach dem, was du sehen konntest, etwa ")  # fighting ♠A barehanded, ...
    assert any(line.startswith("✗ Raum 4 (−") and "♠A mit Fäusten" in line for line in told)

    # a hint in a new game: German, with the solver's card and score
    game = (await world.alice.slash(world.channel, "scoundrel play", seed="0000-0007")).response
    playing = await world.store.active_game(world.alice.id, "normal")
    hint_button = next(b for b in buttons(game.message) if b.custom_id.startswith("sc:hint:"))
    ask = await world.alice.click(game.message, custom_id=hint_button.custom_id)
    assert ask.response.content == DE(coach().HINT_WARNING) != coach().HINT_WARNING
    confirm = next(b for b in buttons(ask.response.message) if b.custom_id.startswith("sc:hintok:"))
    assert confirm.label == "Tipp zeigen"
    answer = answers_to(await world.alice.click(ask.response.message, custom_id=confirm.custom_id))
    advice = Coach(CLASSIC).advise(playing.state, budget=HINT_BUDGET)  # on what the player sees, as the worker does
    words = move_words(playing.state, advice.best.action)
    german = readable(hint_phrase(playing.state, advice).translated(DE))
    assert [m.content for m in answer] == [german + "\n" + DE(coach().HINTED_MARK)]
    assert german.startswith("💡 Jetzt am besten") and f"**{readable(words.translated(DE))}**" in german
    assert all(readable(str(card)) in answer[0].content for card in words.fields.values())
