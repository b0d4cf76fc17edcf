"""Sharing a counted daily's result, whatever posts it: who may share which game, and what the post may show.

Only the player shares, and only a finished counted daily (won or dead: a forfeit or a practice replay is not a
result to share). The post shows the day, the grid of rooms (``app.daily.days.share_text``), the streak as it
stood on that day, the name kept with the result, and par only once the day is over: while it runs, par would tell
everyone still playing what to aim for. A post made while its day runs is kept (``Store.keep_share_post``) to be
finished with par once the day is over.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.daily.days import streaks
from app.errors import NotShareable, NotYourGame
from storage.models import DAILY, DEAD, WON, GameRecord
from storage.shares import SharePost
from storage.store import Store


@dataclass(frozen=True)
class SharedResult:
    record: GameRecord  # the finished counted daily
    par: int | None  # the day's par, once the day is over; None while it runs (or when unknown)
    streak: int  # the player's streak of days as it stood on the game's day
    name: str | None  # the name kept with the result (None: never kept)
    coach: int | None = None  # the coach's score of the day, shown beside par (None with par, or not known)


async def shareable(store: Store, game_id: int, user_id: int) -> GameRecord:
    """The player's finished counted daily ``game_id``; ``NotYourGame`` or ``NotShareable`` otherwise."""
    record = await store.load_game(game_id)
    if record.user_id != user_id:
        raise NotYourGame(record, user_id)
    if record.kind != DAILY or record.status not in (WON, DEAD) or record.day is None:
        raise NotShareable(record)
    return record


async def shared_result(store: Store, record: GameRecord, today: int) -> SharedResult:
    """What a Share post of ``record`` (a ``shareable`` game) shows on day ``today``."""
    day = record.day
    assert day is not None  # (shareable: a counted daily has its day)
    challenge = await store.get_daily(day)
    current, _ = streaks([played for played in await store.daily_days(record.user_id) if played <= day], day)
    over = challenge if challenge is not None and day < today else None  # par and coach only after the day
    par = over.par if over is not None else None
    coach = over.coach_score if over is not None else None
    name = (await store.names_for([record.user_id], day)).get(record.user_id)
    return SharedResult(record, par, current, name, coach)


__all__ = ["SharedResult", "keep_until_par", "shareable", "share_posts_to_finish", "shared_result"]


async def keep_until_par(store: Store, post: SharePost) -> None:
    """A Share post made while its day runs: kept, so that par can be added to it once the day is over (the
    daily post's job finishes it)."""
    await store.keep_share_post(post)


async def share_posts_to_finish(store: Store, today: int, limit: int) -> list[tuple[SharePost, GameRecord]]:
    """Up to ``limit`` kept Share posts of days before ``today``, taken (no other call gets them again), each with
    its game: par and the streak may now be added to them."""
    return [(post, await store.load_game(post.game_id)) for post in await store.take_share_posts(today, limit)]
