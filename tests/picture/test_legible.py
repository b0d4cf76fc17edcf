"""Every word a picture shows reads on a phone: at least 11 px tall at the width a 390-px phone shows the picture
(``legible.PHONE_PICTURE_WIDTH``), checked from the layout models (every text box and its font size) for every
preset, phase and language: the table, the duel board and the replays' captions."""

from __future__ import annotations

import random

import pytest

from games.duel import apply as duel_apply
from games.duel import legal_actions as duel_actions
from games.duel import new_duel
from games.engine import PRESETS, new_game, preset
from games.engine.rules import FINAL_ROOM
from games.engine.state import Event
from games.i18n.messages import ENGLISH, SHIPPED, messages_for
from games.picture import duel, duel_replay, replay, room
from games.picture.draw import text_length
from games.picture.legible import PHONE_PICTURE_HEIGHT, PHONE_PICTURE_WIDTH, SMALLEST_SHOWN, shown_size, shown_width
from games.solver.deal import refusal
from tests.picture.test_room import random_states

TONGUES = [ENGLISH, *(messages_for(locale) for locale in SHIPPED)]


def unreadable(words, width: int, height: int) -> list:
    """The words a picture ``width`` × ``height`` shows under 11 px on the phone."""
    return [(w.text, w.size, round(shown_size(w.size, width, height), 1)) for w in words
            if shown_size(w.size, width, height) < SMALLEST_SHOWN]


def test_the_phone_width_is_what_the_preview_measured():
    # 11 px on the phone: 33 px of the 800-px table, 27 of the 640-px duel board.
    assert PHONE_PICTURE_WIDTH == 270 and PHONE_PICTURE_HEIGHT == 280
    assert room.SMALLEST == 33 and duel.SMALLEST == 27
    assert shown_size(24, room.WIDTH, room.HEIGHT) < SMALLEST_SHOWN  # the old chips' size: about 8 px on a phone
    # every picture is shown the phone's full width: none so tall the preview narrows it
    for width, height in ((room.WIDTH, room.HEIGHT), (duel.WIDTH, duel.HEIGHT), (replay.WIDTH, replay.FRAME_H),
                          (duel.WIDTH, duel_replay.FRAME_H)):
        assert shown_width(width, height) == PHONE_PICTURE_WIDTH, (width, height)
    assert shown_width(640, 721) < 250  # a duel replay with a caption of three lines was narrowed so


def phase(state) -> str:
    if state.over:
        return state.status
    if state.pending:
        return state.pending[0]
    if state.final_room:
        return "final room"
    return "kills" if state.kills else "play"


def table_states(name: str):
    """States of every phase this preset reaches in a few games played at random: play, fanned kills, the final
    room, the merchant, the necromancer, the underworld, a cleared loop, won and dead."""
    seen: dict[str, object] = {}
    rules = PRESETS[name]
    games = [list(random_states(rules.with_health(health), seed, moves=600)) for health in (20, 99)
             for seed in range(6)]  # with 99 health, random play clears the dungeon: the final room, loops, a win
    for states in games:
        for state in states:
            seen.setdefault(phase(state), state)
            if len(state.kills) > len(getattr(seen.get("kills"), "kills", ())):
                seen["kills"] = state
    return seen


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_word_on_the_table_reads_on_a_phone_in_every_phase_and_language(name):
    states = table_states(name)
    expected = {"play", "kills", "dead", "won"} | ({"final room"} if PRESETS[name].ending == FINAL_ROOM else set())
    if PRESETS[name].looping:
        expected |= {"merchant", "necromancer", "underworld", "crossroads"}
    assert expected <= set(states), sorted(states)
    for tr in TONGUES:
        for what, state in states.items():
            for abandoned in (False, True):
                layout = room.room_layout(state, abandoned=abandoned, tr=tr)
                words = layout.words()
                assert all(w.text for w in words if w.size), (what, words)
                assert not unreadable(words, room.WIDTH, room.HEIGHT), (name, what, tr.locale, abandoned)
                # and each fits its place: the chips under the room, the banner's lines in its box
                for row in layout.chip_rows:
                    end = room.PANEL_X + sum(w for _, w in row) + 12 * (len(row) - 1)
                    assert end <= room.PANEL_RIGHT, (what, tr.locale, row)
                for line in layout.banner_lines:
                    assert text_length(line, layout.banner_size) <= layout.banner_box.w - 24, line
                assert text_length(layout.weapon_label, layout.weapon_size) <= room.FRAME[2] - 16


def duel_states():
    """A duel played out at random (columns finished as soon as they can be): its deal, every 10th state, the end."""
    state, rng, states = new_duel(4, 1), random.Random(4), []
    for number in range(600):
        if number % 10 == 0 or state.over:
            states.append(state)
        if state.over:
            break
        actions = [a for a in duel_actions(state) if a.kind != "R"]
        finish = [a for a in actions if a.kind == "F"]
        builds = [a for a in actions if a.kind in ("B", "F")]
        state = duel_apply(state, finish[0] if finish else rng.choice(builds or actions))
    return states


def test_every_word_on_the_duel_board_reads_on_a_phone_in_every_language():
    states = duel_states()
    assert states[-1].over and any(len(c.cards) >= 6 for side in states[-1].columns for c in side)
    for tr in TONGUES:
        for state in states:
            words = duel.duel_layout(state, tr).words()
            assert any(w.size == duel.duel_tiles.INDEX_FONT for w in words)  # the cards are counted
            assert not unreadable(words, duel.WIDTH, duel.HEIGHT), (state.turn, tr.locale)


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_replay_caption_reads_on_a_phone_and_is_never_cut(name):
    title = "Alexandria the Bold of the North · Seed K7Q2-M9XD · expansion"  # a name as long as Discord allows
    for tr in TONGUES:
        for seed in range(2):
            states = list(random_states(PRESETS[name], seed, moves=400))
            texts = [replay.move_caption(s, tr) for s in states[1:]]
            lines = [(None, replay.deal_caption(title, tr))]
            if refusal(PRESETS[name]) is None:  # par's line is drawn after the player's, each move labelled
                lines.append((tr(replay.PARS_LINE), tr(replay.THE_DEAL)))
            for label, first in lines:
                for text in [first, *texts]:
                    caption = replay.caption_layout(text, label)
                    assert not unreadable(caption.words(), replay.WIDTH, replay.FRAME_H), (text, tr.locale)
                    assert not caption.lines[-1].endswith("…"), (text, tr.locale)
    first = replay.caption_layout(replay.deal_caption("alice · Daily #12", ENGLISH), None)
    assert first.lines == ("The deal · alice · Daily #12",)  # the first frame names the game and its player


def test_the_move_that_clears_the_last_room_is_captioned_whole_in_every_language():
    # The longest last moves with the longest cards: the caption says the move (the banner says the dungeon is
    # survived), never cut, in every language. Random play seldom wins, so the winning move is made here.
    state = next(s for s in random_states(preset("classic"), 3) if len(s.history) >= 1)
    endings = ["Drank ♥10: healed 10.", "Drank ♥10: only one potion works per turn, it did nothing.",
               "Fought ♣10 with ♦10: took 0.", "Fought ♠10 barehanded: took 10.", "Equipped ♦10, discarding ♦9."]
    for tr in TONGUES:
        for ending in endings:
            events = (Event(state.turn, "potion", ending),
                      Event(state.turn, "clear", "The final room is cleared: you survived the dungeon!"))
            text = replay.move_caption(state._replace(events=events), tr)
            assert text == tr.engine_text(ending)
            caption = replay.caption_layout(text, tr(replay.PARS_LINE))
            assert not caption.lines[-1].endswith("…") and not unreadable(caption.words(), replay.WIDTH, replay.FRAME_H)


def test_every_duel_replay_caption_reads_on_a_phone_and_is_never_cut():
    states = duel_states()
    actions, state = [], new_duel(4, 1)
    rng = random.Random(4)
    while not state.over:
        options = [a for a in duel_actions(state) if a.kind != "R"]
        finish = [a for a in options if a.kind == "F"]
        action = finish[0] if finish else rng.choice([a for a in options if a.kind in ("B", "F")] or options)
        actions.append(action)
        state = duel_apply(state, action)
    assert states[-1].over
    for tr in TONGUES:
        every = duel_replay.duel_states(4, actions)
        texts = [duel_replay.move_caption(a, b, tr) for a, b in zip(every, every[1:], strict=False)]
        texts.append(duel_replay.result_caption(every[-1], tr))
        for text in texts:
            caption = replay.caption_layout(text, None, duel.WIDTH, duel_replay.CAPTION_FONT,
                                            duel_replay.CAPTION_LINES, duel_replay.FRAME_H)
            assert not unreadable(caption.words(), duel.WIDTH, duel_replay.FRAME_H), (text, tr.locale)
            assert not caption.lines[-1].endswith("…"), (text, tr.locale)


def test_the_weapon_lies_in_its_own_labelled_frame_apart_from_the_room():
    state = next(s for s in random_states(preset("classic"), 1) if s.kills)
    layout = room.room_layout(state)
    x, y, w, h = room.FRAME
    weapon = [p for p in layout.places if p.role in ("weapon", "kill")]
    for place in weapon:  # inside the frame, under its label
        assert x < place.box.x and place.box.x + place.box.w < x + w
        assert y < place.box.y and place.box.y + place.box.h < y + h
    for place in layout.places:
        if place.role == "room":
            assert place.box.x + place.box.w < x  # the room ends before the frame
    assert layout.weapon_label == f"⚔ hits <{state.last_kill.value}"
    assert room.room_layout(new_game(preset("classic"), seed=3)).weapon_label == "no weapon"
