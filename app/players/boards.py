"""The boards and a player's stats, whatever shows them: which board a request means, its entries, the player's
place on it, and a player's record with their daily streaks.

Boards hold counted results only (practice replays never reach them). A server board holds only the results
played in that server; the global board (``guild_id`` None) every server's. Days are UTC daily numbers, months
month numbers (Month #1 is January 2026: ``games.engine.calendar``). The daily board ranks scores; the boards of
several days (week, month, all time) rank points, which playing a day can only add to (``games.engine.tally``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from app.daily.days import streaks
from app.errors import BoardRefused
from games.engine.calendar import month_days, month_of
from storage.models import UserStats
from storage.store import Store

BOARD_SIZE = 10  # entries on a board
WEEK_DAYS = 7  # dailies on the week board, ending at its day
BOARDS = ("daily", "week", "month", "all-time")
SUGGESTED_DAYS, SUGGESTED = 90, 25  # how far back days are offered, and how many at once

# Why a board was refused (``BoardRefused.code``).
FUTURE_DAY = "future_day"
FUTURE_MONTH = "future_month"


class BoardRequest(NamedTuple):
    """The board a request means: which, where (``guild_id`` None: every server), for which day (the week ending
    at it, the month holding it), and whether a server's board was asked for where there is none
    (``global_instead``)."""

    board: str
    guild_id: int | None
    day: int
    today: int
    global_instead: bool = False

    @property
    def month(self) -> int:
        return month_of(self.day)

    @property
    def first_day(self) -> int:
        """The week board's first daily."""
        return max(1, self.day - WEEK_DAYS + 1)


class Board(NamedTuple):
    """A board's top entries (storage's ``DailyEntry``, ``WeekEntry``, ``MonthEntry`` or ``AllTimeEntry``), the
    names kept with them, and the asking player's own place (place, players) when asked, on the top or not."""

    request: BoardRequest
    entries: Sequence[Any]
    names: dict[int, str]
    rank: tuple[int, int] | None = None


class PlayerStats(NamedTuple):
    """A player's record (every server) and their current and longest daily streaks."""

    stats: UserStats
    streak: int
    longest: int


def which_board(board: str, today: int, *, day: int | None = None, month: int | None = None, server: bool = True,
                guild_id: int | None = None) -> BoardRequest:
    """The board asked for: ``board`` of ``day`` (default today), or the month board of ``month`` (any board named
    with a month shows it); the server's (``guild_id``) or every server's. ``FUTURE_DAY``, ``FUTURE_MONTH``."""
    if board not in BOARDS:
        raise ValueError(f"no {board!r} board: {BOARDS}")
    if day is not None and day > today:
        raise BoardRefused(FUTURE_DAY, day, today)
    if month is not None and month > month_of(today):
        raise BoardRefused(FUTURE_MONTH, month, today)
    if month is not None:
        board, day = "month", min(today, month_days(month)[1])
    return BoardRequest(board, guild_id if server else None, day or today, today,
                        global_instead=server and guild_id is None)


async def board_for(store: Store, request: BoardRequest, user_id: int | None = None) -> Board:
    """The board's top entries with their kept names (a mention inside an embed shows as a raw id to a reader
    whose client has not loaded that member) and, with ``user_id``, that player's place."""
    board, day, guild_id = request.board, request.day, request.guild_id
    names_day = None
    if board == "daily":
        entries: Sequence[Any] = await store.leaderboard_daily(day, guild_id, BOARD_SIZE)
        names_day = day  # the names as on that day's results
    elif board == "week":
        entries = await store.leaderboard_week(day, guild_id, BOARD_SIZE)
    elif board == "month":
        entries = await store.leaderboard_month(request.month, guild_id, BOARD_SIZE)
    else:
        entries = await store.leaderboard_all_time(guild_id, BOARD_SIZE, dailies_only=True)
    names = await store.names_for([e.user_id for e in entries], names_day) if entries else {}
    rank = None
    if user_id is not None:
        rank = (await store.month_rank(user_id, request.month, guild_id) if board == "month" else
                await store.leaderboard_rank(board, user_id, day, guild_id))
    return Board(request, entries, names, rank)


async def player_stats(store: Store, user_id: int, today: int) -> PlayerStats:
    """The player's record, every server, and their daily streaks as of ``today``."""
    stats = await store.user_stats(user_id)
    current, longest = streaks(await store.daily_days(user_id), today)
    return PlayerStats(stats, current, longest)


def recent_days(today: int, typed: str = "") -> list[int]:
    """Recent daily numbers to offer, newest first; ``typed`` digits narrow them."""
    typed = typed.strip().lstrip("#")
    return [d for d in range(today, max(0, today - SUGGESTED_DAYS), -1) if str(d).startswith(typed)][:SUGGESTED]


def recent_months(today: int, typed: str = "") -> list[int]:
    """This month and the ones before it to offer, newest first; ``typed`` digits narrow them by number."""
    typed = typed.strip().lstrip("#")
    return [m for m in range(month_of(today), 0, -1) if str(m).startswith(typed)][:SUGGESTED]


__all__ = ["BOARDS", "BOARD_SIZE", "FUTURE_DAY", "FUTURE_MONTH", "WEEK_DAYS", "Board", "BoardRequest", "PlayerStats",
           "board_for", "player_stats", "recent_days", "recent_months", "which_board"]
