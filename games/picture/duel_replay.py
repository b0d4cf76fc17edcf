"""A whole duel as an animated GIF: the board as the duel picture draws it, one frame per action (both players'
moves in the order they were made) with the move named under the board, and a pause on the result.

``render_duel_replay(seed, actions, dealer=1, tr=...)`` returns the GIF's bytes. It is made as the solo replay is
(``replay.py``, whose module comment says why it stays small and fast): each frame is ``paint_duel``'s board,
pasted from tiles drawn once in the one shared palette, over the same caption strip and gold progress line, and
``replay.to_gif`` writes the first frame whole and then only the rectangle each move changed.

The words under the board are the engine's events in the reader's language (``games.duel.text.event_text``), which
name the players "Player 1" and "Player 2" as the board's chips do; a die placed and a play ended are said with who
did it ("Player 1: die 5 goes on pair 2", "Player 2: Done · Player 1 plays"). The last frame is the result: who
won and how many columns each had finished.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from PIL import Image

from games.duel import DuelAction, DuelState, apply, new_duel
from games.duel.actions import DONE, PLACE
from games.duel.text import PLAYER_NAMES, event_text
from games.i18n import N_
from games.i18n.messages import ENGLISH, Messages
from games.i18n.phrase import Phrase, translated
from games.picture import tiles
from games.picture.draw import GOLD, palette_colours
from games.picture.duel import HEIGHT, WIDTH, duel_layout, paint_duel
from games.picture.legible import smallest_size
from games.picture.replay import (
    FIRST_MS,
    PROGRESS_H,
    RESULT_MS,
    caption_layout,
    caption_tile,
    deal_caption,
    progress_width,
    to_gif,
)

FILENAME = "duel-replay.gif"
CAPTION_FONT = smallest_size(WIDTH) + 2  # the move under the board, at most; 27 px at least (11 on a phone)
CAPTION_LINES = 2
CAPTION_H = CAPTION_LINES * (smallest_size(WIDTH) + 8) + PROGRESS_H + 8  # 82: the frame stays under 280 / 270
# of its width, so a phone shows it 270 px wide (``legible``)
FRAME_H = HEIGHT + CAPTION_H
MOVE_MS = 700  # a duel is about 150 actions (dice placed, cards played, plays ended): under two minutes in all

WHO_DID = N_("{player}: {move}")  # a move whose event does not say who made it
DRAW_BACK = "both players draw back up to {count}"  # the engine's event (``games.duel.game``)
_GOLD_INDEX = palette_colours().index(GOLD)  # the progress line's


def duel_states(seed: int, actions: Sequence[DuelAction | str], dealer: int = 1) -> list[DuelState]:
    """The deal (its first roll made) and the state after each action; raises ``IllegalDuelAction`` on a bad line."""
    state = new_duel(seed, dealer)
    states = [state]
    for action in actions:
        state = apply(state, action)
        states.append(state)
    return states


def move_caption(before: DuelState, after: DuelState, tr: Messages = ENGLISH) -> str:
    """What the action that led from ``before`` to ``after`` did, in ``tr``'s language: the engine's events,
    with who made the move where the first of them does not say."""
    # the routine draw back up to seven is left out: a turn's end then fits two lines of the caption
    events = [event_text(event, None, tr) for event in after.events
              if getattr(event, "template", None) != DRAW_BACK]
    code = after.history[-1]
    who = tr(PLAYER_NAMES[before.actor])
    if code[0] == PLACE:  # "die 5 goes on pair 2": the roller's, unnamed
        first = after.events[0]
        move = translated(first, tr) if isinstance(first, Phrase) else str(first)
        events[0] = tr(WHO_DID, player=who, move=move)
    elif code == DONE:  # its events are the next play's or turn's: say whose play ended first
        events.insert(0, tr(WHO_DID, player=who, move=tr("Done")))
    return " · ".join(events)


def result_caption(state: DuelState, tr: Messages = ENGLISH) -> str:
    """Who won, and the finished columns of each: the winner's, then the other's."""
    winner = state.winner if state.winner is not None else 0
    finished = [sum(column.finished for column in side) for side in state.columns]
    return tr.plural("{winner} wins: {n} finished column to {other}", "{winner} wins: {n} finished columns to {other}",
                     finished[winner], winner=tr(PLAYER_NAMES[winner]), other=finished[1 - winner])


def duel_replay_frames(seed: int, actions: Sequence[DuelAction | str], *, dealer: int = 1, title: str | None = None,
                       tr: Messages = ENGLISH) -> list[tuple[Image.Image, int]]:
    """Every frame (a palette picture, ``WIDTH`` × ``FRAME_H``) and how long it shows, in milliseconds: the deal,
    one per action, and the result when the duel is over (a duel still on ends on its last move)."""
    states = duel_states(seed, actions, dealer)
    moves = [move_caption(before, after, tr) for before, after in itertools.pairwise(states)]
    captions = [deal_caption(title, tr), *moves]
    shown = list(zip(states, captions, strict=True))
    if states[-1].over:
        shown.append((states[-1], result_caption(states[-1], tr)))
    blank = tiles.canvas(WIDTH, FRAME_H)
    frames: list[tuple[Image.Image, int]] = []
    board = None
    for number, (state, caption) in enumerate(shown):
        last = number == len(shown) - 1
        if board is None or state is not shown[number - 1][0]:  # the result frame shows the last board again
            board = paint_duel(duel_layout(state, tr))
        frame = blank.copy()
        frame.paste(board, (0, 0))
        words = caption_layout(caption, None, WIDTH, CAPTION_FONT, CAPTION_LINES, FRAME_H)
        caption_tile(words, WIDTH, CAPTION_H).paste(frame, 0, HEIGHT)
        progress = progress_width(min(number, len(actions)), len(actions), WIDTH)
        frame.paste(_GOLD_INDEX, (0, HEIGHT, progress, HEIGHT + PROGRESS_H))
        frames.append((frame, RESULT_MS if last else FIRST_MS if number == 0 else MOVE_MS))
    return frames


def render_duel_replay(seed: int, actions: Sequence[DuelAction | str], *, dealer: int = 1, title: str | None = None,
                       tr: Messages = ENGLISH) -> bytes:
    """The duel as an animated GIF that loops; the same deal, actions, title and language give the same bytes. The
    first frame, the deal, is captioned with ``title`` (the duel's number and players) when given."""
    return to_gif(duel_replay_frames(seed, actions, dealer=dealer, title=title, tr=tr),
                  words_from=HEIGHT + PROGRESS_H)


__all__ = ["FILENAME", "FRAME_H", "MOVE_MS", "duel_replay_frames", "duel_states", "move_caption",
           "render_duel_replay", "result_caption"]
