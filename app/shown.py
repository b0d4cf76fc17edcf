"""What a viewer may see of a game and be offered under it: one answer, which chat and the table both draw.

``shown_to(store, record, viewer_id, now)`` says it for one game and one viewer at one moment: par and (for a
daily) the coach's score, whether the game took a hint, and which of Hint, Share, Review, Replay, Best possible and
New game apply. The surfaces decide only how each looks, never whether it shows.

The rule for a daily while its day runs (docs/RULES.md, "The daily challenge"): par and the coach's score, the
review and the replay are shown to the player whose counted attempt is over, never to anyone else; par's line
joins a replay, and par a Share post, only once the day is over (``app.replays.access``, ``app.daily.share``).
A challenge's game takes no hint, and while the challenge runs its deal is everyone's race: no par, review, replay
or Best possible under it, even for its player, until the challenge closes (``app.challenges``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.daily.deal import par_and_coach
from app.replays.access import day_running, replayable
from games.solver import refusal
from storage.models import ABANDONED, DAILY, DEAD, NORMAL, PLAYING, PRACTICE, WON, GameRecord
from storage.store import Store

HINT_KINDS = (NORMAL, PRACTICE)  # never in a counted daily
FINISHED = (WON, DEAD)  # played to the end: a score par and the coach compare with


@dataclass(frozen=True)
class Shown:
    """What one viewer may see of one game and be offered under it."""

    par: int | None = None  # the deal's par, when solved and showable
    coach: int | None = None  # a daily's coach score, beside par
    hinted: bool = False  # the game took a hint: it no longer counts
    hint: bool = False  # Hint: a normal or practice game being played
    share: bool = False  # Share: a finished counted daily, by its player
    review: bool = False  # Review: a finished game, a daily's once the player's counted attempt is over
    replay: bool = False  # Replay: a finished game (while a daily's day runs, its player's only)
    best_possible: bool = False  # Best possible: a finished game that is not a counted daily
    new_game: bool = False  # New game: under any game that has ended
    day_running: bool = False  # a daily whose day runs: its deal is still the day's challenge


NOTHING = Shown()


async def shown_to(store: Store, record: GameRecord, viewer_id: int | None, now: datetime, *,
                   coach: bool = True) -> Shown:
    """What ``viewer_id`` (the game's player when None: their own message, drawn without them) may see of
    ``record`` at ``now`` and be offered under it, with what the rule needs read from the store: par, the coach's
    score, the hint mark, a practice's counted attempt. ``coach``: this bot has the solver (Hint, Review and Best
    possible need it)."""
    if record.damaged:
        return NOTHING
    hinted = record.kind in HINT_KINDS and (record.hinted if record.hinted is not None
                                            else await store.is_hinted(record.id))
    par = coach_score = None
    if record.status in FINISHED and not _secret(record, viewer_id, now):
        par, coach_score = await par_and_coach(store, record)
    racing = record.challenge_id is not None and record.over and await _challenge_running(store, record)
    return shown(record, viewer_id, now, coach=coach, par=par, coach_score=coach_score, hinted=hinted,
                 attempt_running=record.status in FINISHED and await _attempt_running(store, record),
                 challenge_running=racing)


def shown(record: GameRecord, viewer_id: int | None, now: datetime, *, coach: bool = True, par: int | None = None,
          coach_score: int | None = None, hinted: bool = False, attempt_running: bool = False,
          challenge_running: bool = False) -> Shown:
    """The rule itself, on what is known (``shown_to`` reads it): what ``viewer_id`` may see of ``record`` at
    ``now``. ``par`` and ``coach_score`` are dropped where they may not show; ``attempt_running``: ``record`` is a
    practice replay of a day whose counted attempt is still being played; ``challenge_running``: ``record`` is a
    game of a challenge not closed yet."""
    if record.damaged:
        return NOTHING
    owner = viewer_id is None or viewer_id == record.user_id
    running = day_running(record, now)
    if not (record.state.over or record.status == ABANDONED):
        solvable = _solvable(record, coach)
        hintable = record.kind in HINT_KINDS and record.challenge_id is None
        return Shown(hinted=hinted, hint=owner and solvable and hintable, day_running=running)
    finished = record.status in FINISHED
    solvable = finished and _solvable(record, coach)
    if challenge_running:  # the others are still racing on this deal
        return Shown(hinted=hinted, new_game=True)
    if not finished or _secret(record, viewer_id, now):
        par = coach_score = None
    return Shown(par=par, coach=coach_score if par is not None else None, hinted=hinted,
                 share=finished and owner and record.kind == DAILY,
                 review=solvable and owner and not attempt_running,
                 replay=finished and replayable(record) and not _secret(record, viewer_id, now),
                 best_possible=solvable and record.kind != DAILY, new_game=True, day_running=running)


def _secret(record: GameRecord, viewer_id: int | None, now: datetime) -> bool:
    """A daily whose day runs, seen by someone other than its player."""
    return day_running(record, now) and viewer_id is not None and viewer_id != record.user_id


def _solvable(record: GameRecord, coach: bool) -> bool:
    return coach and record.rules is not None and not refusal(record.rules)


async def _challenge_running(store: Store, record: GameRecord) -> bool:
    assert record.challenge_id is not None
    return (await store.challenges.get(record.challenge_id)).running


async def _attempt_running(store: Store, record: GameRecord) -> bool:
    """A practice replay of a day whose counted attempt is still being played (its review would coach it)."""
    if record.kind != PRACTICE or record.day is None:
        return False
    attempt = await store.daily_attempt(record.user_id, record.day)
    return attempt is not None and attempt.status == PLAYING


__all__ = ["NOTHING", "Shown", "shown", "shown_to"]
