"""The duel's replay: an animated GIF of a whole duel, one frame per action of either player, each frame the board
as the duel picture draws it with the move named under it, and a pause on the result."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageSequence

from games.duel import IllegalDuelAction, apply, legal_actions, new_duel
from games.i18n.messages import ENGLISH, messages_for
from games.picture import duel_tiles
from games.picture.duel import CARD_H, CARD_W, HEIGHT, WIDTH, duel_layout, paint_duel, render_duel
from games.picture.duel_replay import (
    CAPTION_H,
    MOVE_MS,
    duel_replay_frames,
    duel_states,
    move_caption,
    render_duel_replay,
    result_caption,
)
from games.picture.replay import FIRST_MS, RESULT_MS, transparent_index

DE = messages_for("de")


def whole_duel(seed: int, *, resign_after: int | None = None):
    """A duel played to its end by the engine: finish when possible, else a random card play, else Done (or a
    resignation by the player to act after ``resign_after`` actions)."""
    rng, state = random.Random(seed), new_duel(seed)
    while not state.over:
        if resign_after is not None and state.version == resign_after:
            return apply(state, f"R{state.actor}")
        actions = legal_actions(state)
        finishes = [a for a in actions if a.kind == "F"]
        plays = [a for a in actions if a.kind != "D"]
        state = apply(state, finishes[0] if finishes else rng.choice(plays or actions))
    return state


def decoded(gif: bytes) -> list[tuple[Image.Image, int]]:
    image = Image.open(io.BytesIO(gif))
    return [(frame.convert("RGB"), frame.info["duration"]) for frame in ImageSequence.Iterator(image)]


def board(state, tr=ENGLISH) -> bytes:
    return Image.open(io.BytesIO(render_duel(state, tr))).convert("RGB").tobytes()


def test_every_action_is_a_frame_showing_the_board_as_the_duel_picture_draws_it():
    final = whole_duel(3)
    actions = final.history
    frames = decoded(render_duel_replay(final.seed, actions))
    states = duel_states(final.seed, actions)
    assert len(frames) == len(actions) + 2  # the deal, each action, the result
    assert frames[0][0].size == (WIDTH, HEIGHT + CAPTION_H)
    boards = [frame.crop((0, 0, WIDTH, HEIGHT)).tobytes() for frame, _ in frames]
    assert boards[0] == board(states[0]) and boards[-1] == boards[-2] == board(final)
    for number in range(1, len(states), 23):  # the deltas add up to each board along the way
        assert boards[number] == board(states[number])
    assert [d for _, d in frames] == [FIRST_MS] + [MOVE_MS] * len(actions) + [RESULT_MS]


def test_each_frame_names_its_move_in_the_readers_language_and_the_same_duel_gives_the_same_bytes():
    final = whole_duel(5, resign_after=30)
    states = duel_states(final.seed, final.history)
    english = [move_caption(before, after) for before, after in zip(states, states[1:], strict=False)]
    first = final.history[0]  # P<die><pair>: the first roller (player 1) places a die, the event not saying who
    assert english[0] == f"Player 1: die {states[0].dice[int(first[1])]} goes on pair {int(first[2]) + 1}"
    done = final.history.index("D")
    assert english[done].startswith(f"Player {states[done].actor + 1}: Done · ")
    builds = [i for i, code in enumerate(final.history) if code[0] == "B"]
    assert english[builds[0]].startswith(f"Player {states[builds[0]].actor + 1} plays ")
    loser = final.history[-1][1]
    assert english[-1] == f"Player {int(loser) + 1} resigns; Player {2 - int(loser)} wins"
    assert result_caption(final).startswith(f"Player {2 - int(loser)} wins: ")
    assert move_caption(states[0], states[1], DE).startswith("Spieler 1: Würfel ")
    assert result_caption(final, DE).startswith(f"Spieler {2 - int(loser)} gewinnt: ")

    frames = duel_replay_frames(final.seed, final.history, tr=DE)
    captions = [frame.crop((0, HEIGHT + 4, WIDTH, HEIGHT + CAPTION_H)).tobytes() for frame, _ in frames]
    assert len(set(captions)) > len(captions) // 2  # the words change with the moves (a Done often repeats)
    assert captions[-1] != captions[-2]  # the result is said on its own
    assert all(transparent_index() not in frame.getdata() for frame, _ in frames)  # no drawn pixel see-through
    german = render_duel_replay(final.seed, final.history, tr=DE)
    assert german == render_duel_replay(final.seed, final.history, tr=DE)
    assert german != render_duel_replay(final.seed, final.history)
    assert decoded(german)[-1][0].crop((0, 0, WIDTH, HEIGHT)).tobytes() == board(final, DE)


def test_a_duel_still_on_ends_on_its_last_move_and_a_bad_line_is_refused():
    final = whole_duel(2)
    part = final.history[:12]
    frames = decoded(render_duel_replay(final.seed, part))
    assert len(frames) == len(part) + 1 and frames[-1][1] == RESULT_MS
    assert frames[-1][0].crop((0, 0, WIDTH, HEIGHT)).tobytes() == board(duel_states(final.seed, part)[-1])
    with pytest.raises(IllegalDuelAction):
        render_duel_replay(final.seed, ["D"])  # the dice must be placed first: never a picture of nonsense


def test_the_board_is_pasted_from_its_tiles_each_columns_last_card_whole_on_top():
    state = duel_states(1, whole_duel(1).history)[60]
    layout = duel_layout(state)
    picture = paint_duel(layout)
    tops = {}
    for place in layout.places:
        tops[place.player, place.pair] = place
    assert len(tops) >= 6
    for place in tops.values():
        tile = duel_tiles.card(place.card, CARD_W, CARD_H)
        shown = picture.crop((place.box.x, place.box.y, place.box.x + CARD_W, place.box.y + CARD_H))
        blank = Image.new("P", shown.size, 0)
        blank.paste(shown, (0, 0), tile.mask)
        expected = Image.new("P", shown.size, 0)
        expected.paste(tile.image, (0, 0), tile.mask)
        assert blank.tobytes() == expected.tobytes()
    assert picture.mode == "P" and render_duel(state) == render_duel(state)


def test_a_40_action_duel_replay_stays_within_300_kb():
    final = whole_duel(0)
    assert len(render_duel_replay(final.seed, final.history[:40])) <= 300_000
