"""The replay: an animated GIF of a whole game, one frame per move, each frame the table as the room picture
draws it with the move named under it, a pause on the result; par's line after the player's when asked."""

from __future__ import annotations

import io

from PIL import Image, ImageSequence

from games.engine import Action, apply, deal, legal_actions, new_game, preset
from games.i18n.messages import messages_for
from games.picture import render_room
from games.picture.draw import GOLD
from games.picture.replay import (
    CAPTION_H,
    FIRST_MS,
    MOVE_MS,
    RESULT_MS,
    line_states,
    render_replay,
    replay_frames,
    transparent_index,
)
from games.picture.room import HEIGHT, WIDTH
from games.solver import solve

RULES = preset("classic")


def played(seed: int, moves: int):
    """A game a few moves in, each move the first legal one that is not a fight barehanded (so it lives on)."""
    state = new_game(RULES, seed=seed)
    for _ in range(moves):
        if state.over:
            break
        actions = legal_actions(state)
        state = apply(state, next((a for a in actions if a.kind != "fight"), actions[0]))
    return state


def decoded_frames(gif: bytes) -> list[tuple[Image.Image, int]]:
    image = Image.open(io.BytesIO(gif))
    return [(frame.convert("RGB"), frame.info["duration"]) for frame in ImageSequence.Iterator(image)]


def test_every_move_is_a_frame_showing_the_table_as_the_room_picture_draws_it():
    final = played(seed=5, moves=12)
    moves = list(final.history)
    gif = render_replay(RULES, final.start_deck, moves, seed=final.rng_seed)
    assert gif.startswith(b"GIF89a")
    frames = decoded_frames(gif)
    assert len(frames) == len(moves) + 1 and frames[0][0].size == (WIDTH, HEIGHT + CAPTION_H)
    for (frame, _), state in zip(frames, line_states(RULES, final.start_deck, moves, final.rng_seed), strict=True):
        table = Image.open(io.BytesIO(render_room(state))).convert("RGB")
        assert frame.crop((0, 0, WIDTH, HEIGHT)).tobytes() == table.tobytes()  # deltas add up to each table
    assert [d for _, d in frames] == [FIRST_MS] + [MOVE_MS] * (len(moves) - 1) + [RESULT_MS]


def test_each_frame_names_its_move_and_the_same_game_gives_the_same_bytes():
    final = played(seed=9, moves=6)
    de = messages_for("de")
    frames = replay_frames(RULES, final.start_deck, list(final.history), seed=final.rng_seed, tr=de)
    captions = [frame.crop((0, HEIGHT, WIDTH, HEIGHT + CAPTION_H)).tobytes() for frame, _ in frames]
    assert len(set(captions)) == len(captions)  # every move says something of its own
    assert all(transparent_index() not in frame.getdata() for frame, _ in frames)  # no drawn pixel is see-through
    again = render_replay(RULES, final.start_deck, list(final.history), seed=final.rng_seed, tr=de)
    assert again == render_replay(RULES, final.start_deck, list(final.history), seed=final.rng_seed, tr=de)
    assert again != render_replay(RULES, final.start_deck, list(final.history), seed=final.rng_seed)


def test_a_given_up_game_ends_on_its_banner_and_par_plays_after_the_players_line():
    final = played(seed=3, moves=2)
    assert not final.over
    deck, moves = final.start_deck, list(final.history)
    given_up = decoded_frames(render_replay(RULES, deck, moves, seed=final.rng_seed, abandoned=True))
    table = Image.open(io.BytesIO(render_room(final, abandoned=True))).convert("RGB")
    assert given_up[-1][0].crop((0, 0, WIDTH, HEIGHT)).tobytes() == table.tobytes()
    par = solve(RULES, deck).actions
    both = decoded_frames(render_replay(RULES, deck, moves, seed=final.rng_seed, par=par))
    assert len(both) == len(moves) + 1 + len(par) + 1
    assert both[len(moves)][1] == RESULT_MS  # the player's line pauses on its end before par's deal
    best = line_states(RULES, deck, par, final.rng_seed)[-1]
    table = Image.open(io.BytesIO(render_room(best))).convert("RGB")
    assert both[-1][0].crop((0, 0, WIDTH, HEIGHT)).tobytes() == table.tobytes()


def test_a_bad_line_is_refused():
    state = new_game(RULES, seed=1)
    try:
        render_replay(RULES, state.start_deck, [Action.parse("T9")], seed=state.rng_seed)
    except Exception as error:  # the engine's IllegalAction (or a parse error): never a picture of nonsense
        assert "9" in str(error) or error.__class__.__name__ == "IllegalAction"
    else:
        raise AssertionError("a move that is not legal made a replay")


def test_the_gif_shows_every_painted_frame_exactly_caption_and_progress_line_included():
    final = played(seed=5, moves=10)
    moves = list(final.history)
    painted = replay_frames(RULES, final.start_deck, moves, seed=final.rng_seed)
    shown = decoded_frames(render_replay(RULES, final.start_deck, moves, seed=final.rng_seed))
    assert [f.tobytes() for f, _ in shown] == [f.convert("RGB").tobytes() for f, _ in painted]
    gold = [sum(1 for x in range(WIDTH) if f.getpixel((x, HEIGHT + 1)) == GOLD) for f, _ in shown]
    assert gold[0] == 0 and gold == sorted(gold) and len(set(gold)) == len(gold) and gold[-1] == WIDTH


def test_a_40_move_replay_of_pars_line_stays_within_350_kb():
    """Par's first 40 moves of classic deal 2, the largest of the benchmark's deals (324 KB before the caption
    was drawn in two colours and sent as one box; 298 KB before its words were drawn large enough for a phone,
    338 KB since)."""
    cards = deal(RULES, 2)
    line = solve(RULES, cards).actions[:40]
    assert len(line) == 40
    assert len(render_replay(RULES, cards, line, seed=2)) <= 350_000


def test_the_weapon_frames_label_stays_inside_its_frame_in_every_language():
    """The label ("no weapon", or what the weapon can hit) sits inside the frame, clear of its border, on the
    replay's first frame as on every room picture: at a phone's third of the size a label on the border read as
    outside it."""
    from games.i18n.messages import SHIPPED
    from games.picture.draw import FELT_DARK
    from games.picture.room import FRAME, WEAPON_Y

    armed = new_game(RULES, seed=5)  # fighting with the weapon whenever it can: a weapon with kills
    while armed.weapon is None or len(armed.kills) < 2:
        actions = legal_actions(armed)
        armed = apply(armed, next((a for a in actions if a.kind == "weapon"), actions[0]))
    for locale in ("en-US", *SHIPPED):
        tr = messages_for(locale)
        for state in (new_game(RULES, seed=3), armed):
            frame = replay_frames(RULES, state.start_deck, state.history, tr=tr)[-1][0].convert("RGB")
            x0, y0, width, _ = FRAME
            ink = [y for y in range(y0 + 6, WEAPON_Y) for x in range(x0 + 20, x0 + width - 20)
                   if max(abs(a - b) for a, b in zip(frame.getpixel((x, y)), FELT_DARK, strict=True)) > 60]
            # (the label's ink on the frame's dark ground, under the border's line and inside its round corners)
            assert ink, (locale, "no label drawn")
            top, bottom = min(ink), max(ink)
            assert top >= y0 + 12 and bottom < WEAPON_Y, (locale, state.weapon, top, bottom)
