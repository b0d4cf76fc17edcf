"""``Store``: the one object the bot talks to the database through, the same on SQLite and PostgreSQL.

A facade: each method hands over to the area that owns it (``games``, ``moves``, ``daily``, ``posts``,
``guilds``, ``boards``, ``par``, ``forget``…), each written once against the database interface ``Db``; duels,
streak reminders and challenges are areas of their own, ``store.duels``, ``store.reminders`` and
``store.challenges``. Every call gives up after ``wait`` seconds (``storage/time_limit.py``).
The backend (``storage/backends/sqlite.py`` or ``postgres.py``) is ``store.db``. Open SQLite with
``await Store.open(path)``, either backend with ``storage.open_store(target)``; ``await store.close()``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime, time, timedelta
from typing import Any

from games.engine import Action, Card, Rules
from games.engine.tally import ALL_GUILDS, ALL_RULES, DAILIES
from storage.backends.base import Db, Tx
from storage.backends.sqlite import CHECKPOINT_EVERY, READ_CONNECTIONS, SqliteDb
from storage.boards import Boards, rules_name
from storage.challenges import Challenges
from storage.daily import Dailies
from storage.duels import Duels
from storage.forget import forget_player
from storage.games import Games
from storage.guilds import Guilds
from storage.models import (
    NORMAL,
    AllTimeEntry,
    DailyChallenge,
    DailyEntry,
    GameRecord,
    GuildSettings,
    UserStats,
    WeekEntry,
    to_micros,
)
from storage.months import MonthEntry, Months
from storage.moves import Moves
from storage.names import Names
from storage.par import Pars
from storage.posts import Posts
from storage.reminders import Reminders
from storage.reviews import Reviews
from storage.shares import SharePost, SharePosts
from storage.time_limit import time_limited

HEARTBEAT = "INSERT INTO heartbeat (id, at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET at = excluded.at"


def _utcnow() -> datetime:
    return datetime.now(UTC)


@time_limited
class Store:
    """Async access to the bot's database on ``db``; ``clock`` returns the current aware UTC time."""

    def __init__(self, db: Db, clock: Callable[[], datetime] | None = None, wait: float | None = None) -> None:
        self.db = db
        self.wait = wait  # seconds a call may take before its caller gives up (storage/time_limit.py)
        self.path = db.shown
        self._clock = clock or _utcnow
        self._games = Games(db, self.now)
        self._moves = Moves(db, self._games, self.now)
        self._boards = Boards(db)
        self._dailies = Dailies(db, self.now, self._games, self._boards)
        self._posts = Posts(db, self.now)
        self._guilds = Guilds(db, self.now)
        self._pars = Pars(db, self.now)
        self._reviews = Reviews(db, self.now)
        self._months = Months(db)
        self._names = Names(db)
        self._shares = SharePosts(db)
        self.duels = Duels(self)  # the duels area, within the same time limit
        self.reminders = Reminders(self)  # the streak reminders' area, within the same time limit
        self.challenges = Challenges(db, self._games, self)  # challenges in a channel, within the same time limit

    # --- opening and closing ---------------------------------------------------------------------------
    @classmethod
    async def open(cls, path: str | os.PathLike, *, clock: Callable[[], datetime] | None = None,
                   wait: float | None = None, synchronous: str = "FULL",
                   checkpoint_every: int | None = CHECKPOINT_EVERY, separate_reads: bool = True,
                   read_connections: int = READ_CONNECTIONS) -> Store:
        """Open (creating or upgrading) the SQLite database at ``path`` (``storage/backends/sqlite.py`` explains
        the options). ``clock``: the current aware UTC time (default: the system clock). Raises ``SchemaTooNew``
        for a database written by newer code and ``DatabaseError`` for a file that is not a usable database."""
        db = await SqliteDb.open(path, synchronous=synchronous, checkpoint_every=checkpoint_every,
                                 separate_reads=separate_reads, read_connections=read_connections)
        return await cls.on(db, clock=clock, wait=wait)

    @classmethod
    async def on(cls, db: Db, *, clock: Callable[[], datetime] | None = None, wait: float | None = None) -> Store:
        """The store on an opened backend. Counted dailies given up before forfeits were scored get their forfeit
        score here, once; a failure closes the backend again."""
        try:
            store = cls(db, clock, wait)
        except BaseException:
            await db.close()  # or the backend's threads and connections would keep the process alive
            raise
        try:
            await store._moves.score_old_forfeits()
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        await self._moves.wait_for_moves()  # moves already submitted are committed first
        await self.db.close()

    def now(self) -> datetime:
        moment = self._clock()
        if moment.tzinfo is None or moment.utcoffset() is None:
            raise ValueError("the store's clock must return timezone-aware datetimes")
        return moment.astimezone(UTC)

    # --- games -------------------------------------------------------------------------------------------
    async def create_game(self, user_id: int, guild_id: int | None, channel_id: int | None, rules: Rules | None = None,
                          seed: int | None = None, deck: tuple[Card, ...] | str | None = None,
                          kind: str = NORMAL, *, day: int | None = None) -> GameRecord:
        """Start a game: from ``deck`` (cards or codes) if given, else from ``seed`` (a new random seed if None).

        ``kind`` is ``normal``, ``daily`` (the counted attempt at ``day``: at most one per user and day, else
        ``AttemptAlreadyUsed``) or ``practice`` (a daily replayed, never counted). One active game per user per
        slot (``normal``; ``daily`` for daily and practice): otherwise ``ActiveGameExists`` carrying that game.
        """
        return await self._games.create_game(user_id, guild_id, channel_id, rules, seed, deck, kind, day=day)

    async def active_game(self, user_id: int, slot: str = NORMAL) -> GameRecord | None:
        """The user's game in progress in ``slot`` (``normal`` or ``daily``; ``practice`` means ``daily``). A damaged
        game is still returned (its ``state`` raises ``CorruptGame``) so it can be abandoned."""
        return await self._games.active_game(user_id, slot)

    async def active_games(self, user_id: int) -> list[GameRecord]:
        return await self._games.active_games(user_id)

    async def load_game(self, game_id: int) -> GameRecord:
        """The game as stored now. Raises ``GameNotFound``, or ``CorruptGame`` if its data is damaged."""
        record = await self._games.get_game(game_id)
        record.state  # noqa: B018 - raises CorruptGame for a damaged game
        return record

    async def get_game(self, game_id: int) -> GameRecord:
        """Like ``load_game`` but a damaged game comes back as a record (``damaged`` true) instead of raising."""
        return await self._games.get_game(game_id)

    async def game_actions(self, game_id: int) -> list[str]:
        """The game's action log as codes, in order (the truth the state is rebuilt from)."""
        return await self._games.game_actions(game_id)

    async def play(self, game_id: int, user_id: int, expected_version: int, action: Action | str) -> GameRecord:
        """Apply ``action`` to the game if it is still at ``expected_version``; returns the new record. Raises
        ``GameNotFound``, ``MoveRefused`` (not the player's game, another move landed first, the game has ended, or
        its daily's day ended first: ``why``), ``CorruptGame``, or ``IllegalAction``."""
        return await self._moves.play(game_id, user_id, expected_version, action)

    async def abandon(self, game_id: int, user_id: int) -> GameRecord:
        """End a game in progress as ``abandoned`` (a damaged game too; ``ended_by`` ``abandoned``): played and not
        won; a counted daily gets its forfeit score (``games.engine.tally``). A game already ended is unchanged."""
        return await self._moves.abandon(game_id, user_id)

    async def expire_dailies(self, today: int) -> list[GameRecord]:
        """Close every daily and practice game still running on a day before ``today`` (status ``abandoned``,
        ended_by ``expired``, a counted daily scored by its forfeit); returns the closed records."""
        return await self._moves.expire_dailies(today)

    async def set_message(self, game_id: int, channel_id: int | None, message_id: int | None) -> None:
        """Remember the message that shows the game (and its channel)."""
        await self._games.set_message(game_id, channel_id, message_id)

    async def recent_games(self, user_id: int, limit: int = 10) -> list[GameRecord]:
        """The user's latest games, newest first (any kind and status)."""
        return await self._games.recent_games(user_id, limit)

    async def mark_hinted(self, game_id: int, user_id: int) -> bool:
        """Mark the user's game in progress as hinted (never a counted daily; never on a board); False if it is
        not such a game."""
        return await self._games.mark_hinted(game_id, user_id)

    async def is_hinted(self, game_id: int) -> bool:
        return await self._games.is_hinted(game_id)

    # --- the daily challenge -----------------------------------------------------------------------------
    async def daily_secret(self) -> bytes:
        """The secret the daily deals are derived from: 32 random bytes made on first use, then kept."""
        return await self._dailies.daily_secret()

    async def get_daily(self, day: int) -> DailyChallenge | None:
        return await self._dailies.get_daily(day)

    async def put_daily(self, day: int, seed: int, rules: Rules | None = None, par: int | None = None,
                        par_line: str | None = None) -> DailyChallenge:
        """Record the day's deal (first writer wins: an existing day keeps its seed and rules) and return the
        stored challenge. ``par``/``par_line`` fill in a par not known yet (``set_daily_par`` overwrites)."""
        return await self._dailies.put_daily(day, seed, rules, par, par_line)

    async def set_daily_par(self, day: int, par: int, par_line: str | None = None,
                            coach_score: int | None = None) -> None:
        """Store the day's par (and an optimal line) with the coach's score (None: not known), releasing the par's
        lease. Raises ``KeyError`` for a day not recorded with ``put_daily``."""
        await self._dailies.set_daily_par(day, par, par_line, coach_score)

    async def claim_daily_par(self, day: int, owner: str, lease: timedelta) -> bool:
        """Take (or renew) the lease on solving the par of ``day`` (recorded with ``put_daily``): true if ``owner``
        should solve it now. False once the par is stored, or while another owner's lease runs; a lease that ran
        out (its process died mid-solve) can be taken. Exactly one of several processes racing gets true."""
        return await self._dailies.claim_daily_par(day, owner, lease)

    async def release_daily_par(self, day: int, owner: str) -> None:
        """``owner`` gave up solving the par of ``day`` (the solve failed): another process may try at once."""
        await self._dailies.release_daily_par(day, owner)

    async def daily_attempt(self, user_id: int, day: int) -> GameRecord | None:
        """The user's counted attempt at ``day`` (any status), or None."""
        return await self._dailies.daily_attempt(user_id, day)

    async def daily_results(self, day: int, guild_id: int | None = None,
                            limit: int | None = None) -> list[DailyEntry]:
        """Every counted attempt at ``day`` (played in ``guild_id`` if given; the first ``limit`` if given): scored
        results first in board order (forfeits after deaths of the same score), then the attempts still being
        played. ``rank`` numbers all of them in that order."""
        return await self._dailies.daily_results(day, guild_id, limit)

    # --- the daily's posts -------------------------------------------------------------------------------
    async def claim_daily_post(self, guild_id: int, day: int, owner: str, lease: timedelta) -> bool:
        """Take (or renew) the lease on a guild's post of ``day``: true if ``owner`` should send it now.

        False once the post is delivered, while another owner's lease runs, or before the back-off of a failed
        attempt is over. Exactly one of several processes racing for the same post gets true.
        """
        return await self._posts.claim_daily_post(guild_id, day, owner, lease)

    async def confirm_daily_post(self, guild_id: int, day: int, channel_id: int, message_id: int) -> None:
        """The post of ``day`` exists: it is never claimable again."""
        await self._posts.confirm_daily_post(guild_id, day, channel_id, message_id)

    async def release_daily_post(self, guild_id: int, day: int, owner: str, error: str,
                                 backoff: Callable[[int], timedelta | None]) -> timedelta | None:
        """A failed attempt by ``owner``: the lease is released and the next attempt waits ``backoff(attempts)``,
        which is returned; when ``backoff`` says None the post is given up for the day (settled, never retried).
        None too when ``owner`` does not hold the post."""
        return await self._posts.release_daily_post(guild_id, day, owner, error, backoff)

    async def give_up_daily_post(self, guild_id: int, day: int, reason: str) -> None:
        """Settle the post of ``day`` without a message (its channel is gone, say): never claimed again that day."""
        await self._posts.give_up_daily_post(guild_id, day, reason)

    async def settled_daily_posts(self, day: int) -> set[int]:
        """The guilds whose post of ``day`` is delivered or given up."""
        return await self._posts.settled_daily_posts(day)

    async def given_up_daily_posts(self, day: int) -> list[tuple[int, str]]:
        """(guild id, reason) of the posts of ``day`` given up."""
        return await self._posts.given_up_daily_posts(day)

    async def undelivered_daily_posts(self, day: int) -> list[tuple[int, int, datetime | None]]:
        """(guild id, failed attempts, next attempt) of the posts of ``day`` claimed but not delivered yet."""
        return await self._posts.undelivered_daily_posts(day)

    async def daily_post_message(self, guild_id: int, day: int) -> tuple[int, int] | None:
        return await self._posts.daily_post_message(guild_id, day)

    # --- guild settings ----------------------------------------------------------------------------------
    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (defaults for a guild never configured)."""
        return await self._guilds.get_guild_settings(guild_id)

    async def set_daily_schedule(self, guild_id: int, channel_id: int | None,
                                 post_time: time | str | None, role_id: int | None = None) -> GuildSettings:
        """Post the daily in ``channel_id`` at ``post_time`` (UTC, a ``time`` or ``'HH:MM'``), pinging ``role_id``
        if given; a None channel and time turn it off (and forget the role)."""
        return await self._guilds.set_daily_schedule(guild_id, channel_id, post_time, role_id)

    async def set_guild_preset(self, guild_id: int, preset: str | None) -> GuildSettings:
        """The rule preset ``/scoundrel play`` uses by default in this guild (a name from ``PRESETS``); None goes
        back to the bot's configured default."""
        return await self._guilds.set_guild_preset(guild_id, preset)

    async def guilds_with_daily(self) -> list[GuildSettings]:
        """Every guild with a daily channel and post time set, by guild id."""
        return await self._guilds.guilds_with_daily()

    # --- par of arbitrary deals --------------------------------------------------------------------------
    async def get_par(self, rules_key: str, deck: str | tuple[Card, ...]) -> tuple[int, str] | None:
        """(best score, optimal line as action codes) of a deal already solved, or None."""
        return await self._pars.get_par(rules_key, deck)

    async def put_par(self, rules_key: str, deck: str | tuple[Card, ...], best_score: int, line: str) -> None:
        await self._pars.put_par(rules_key, deck, best_score, line)

    # --- kept reviews (storage/reviews.py) ------------------------------------------------------------------
    async def kept_review(self, game_id: int) -> str | None:
        """The review kept for a finished game (the text it was kept as), or None."""
        return await self._reviews.kept_review(game_id)

    async def keep_review(self, game_id: int, review: str) -> None:
        await self._reviews.keep_review(game_id, review)

    # --- players' names (storage/names.py) ----------------------------------------------------------------
    async def keep_name(self, game_id: int, name: str) -> None:
        """Keep ``name`` (the player's name now) with the game, for the boards of every server."""
        await self._names.keep_name(game_id, name)

    async def names_for(self, user_ids, day: int | None = None) -> dict[int, str]:
        """Each player's kept name: as on their counted daily of ``day`` when given, else their latest game's.
        Players with no kept name are left out."""
        return await self._names.names_for(user_ids, day)

    # --- Share posts finished once their day is over (storage/shares.py) ----------------------------------
    async def keep_share_post(self, post: SharePost) -> None:
        """Remember a Share post made while its day ran, to add par and the streak once the day is over."""
        await self._shares.keep_share_post(post)

    async def take_share_posts(self, before_day: int, limit: int) -> list[SharePost]:
        """Up to ``limit`` kept Share posts of days before ``before_day``, oldest first, taken (no other call
        returns them again)."""
        return await self._shares.take_share_posts(before_day, limit)

    # --- boards and stats --------------------------------------------------------------------------------
    async def leaderboard_daily(self, day: int, guild_id: int | None = None, limit: int = 10) -> list[DailyEntry]:
        """Counted results of ``day`` (won or dead), best score first, earlier finish first on ties.
        With ``guild_id``, only results played in that server."""
        return await self._boards.leaderboard_daily(day, guild_id, limit)

    async def leaderboard_week(self, day: int, guild_id: int | None = None, limit: int = 10) -> list[WeekEntry]:
        """The 7 dailies ending at ``day`` (``day - 6`` … ``day``): each player's points summed (a day's points are
        its score above the lowest a daily can end with, ``games.engine.tally.day_points``, so a day played never
        costs; ``forfeits`` counts the days forfeited). Ties: more days played first, then the earlier last finish.
        Read from the running week totals: a few index rows."""
        return await self._boards.leaderboard_week(day, guild_id, limit)

    async def leaderboard_all_time(self, guild_id: int | None = None, limit: int = 10,
                                   rules_key: str | None = None, *, dailies_only: bool = False) -> list[AllTimeEntry]:
        """Normal games and counted dailies ever ended (in ``guild_id`` if given; under ``rules_key`` if given,
        else every rule set; only counted dailies with ``dailies_only``): most wins first, then best score, then
        average score."""
        return await self._boards.leaderboard_all_time(guild_id, limit, rules_key, dailies_only=dailies_only)

    async def leaderboard_rank(self, board: str, user_id: int, day: int | None = None,
                               guild_id: int | None = None) -> tuple[int, int] | None:
        """(the user's place, players on the board) on ``board`` — ``daily`` / ``week`` (ending at ``day``) /
        ``all-time`` (counted dailies) — ordered exactly as ``leaderboard_*``; None when the user is not on it."""
        return await self._boards.leaderboard_rank(board, user_id, day, guild_id)

    async def user_stats(self, user_id: int, guild_id: int | None = None) -> UserStats:
        """The player's games that ended (in ``guild_id`` if given), overall and per rule set."""
        return await self._boards.user_stats(user_id, guild_id)

    async def daily_days(self, user_id: int) -> list[int]:
        """Sorted day numbers of the user's counted dailies that were finished (won or dead): for streaks."""
        return await self._boards.daily_days(user_id)

    # --- the month board and a day's players -------------------------------------------------------------
    async def leaderboard_month(self, month: int, guild_id: int | None = None, limit: int = 10) -> list[MonthEntry]:
        """Month number ``month``'s board (Month #1 = January 2026): each player's counted daily scores summed, as
        the week board (every day counts; ties go to more days played, then the earlier last finish). Read from
        ``month_totals``, kept by the transaction that scores a daily."""
        return await self._months.leaderboard_month(month, guild_id, limit)

    async def month_rank(self, user_id: int, month: int, guild_id: int | None = None) -> tuple[int, int] | None:
        """(the user's place, players on the board) of ``leaderboard_month``, or None when not on it."""
        return await self._months.month_rank(user_id, month, guild_id)

    async def daily_players(self, day: int, guild_id: int | None = None) -> int:
        """Players with a scored counted attempt at daily ``day`` (in ``guild_id``, or everywhere)."""
        return await self._months.daily_players(day, guild_id)

    async def rebuild_totals(self) -> None:
        """Recompute the running totals from the games (an operator's repair; normally kept up to date)."""
        await self._boards.rebuild_totals()

    async def forget_player(self, user_id: int) -> dict[str, int]:
        """Remove everything kept about the player (storage/forget.py); how many rows of each kind."""
        return await forget_player(self.db, user_id)

    # --- operations --------------------------------------------------------------------------------------
    async def ping(self) -> bool:
        """True when the database stores a small write (the health check's heartbeat row, committed). Raises
        ``DatabaseUnavailable`` when it cannot be reached in time and ``DatabaseFull`` when it stores nothing."""
        at_us = to_micros(self.now())

        async def body(tx: Tx) -> int:
            return await tx.execute(HEARTBEAT, (at_us,))

        return await self.db.write(body) == 1

    async def integrity_check(self) -> str:
        """"ok", or what is wrong (SQLite: ``PRAGMA integrity_check``; PostgreSQL: every game's action log)."""
        return await self.db.integrity_check()

    async def backup(self, target: str | os.PathLike, *, with_secret: bool = False) -> dict[str, Any]:
        """Copy the live database to ``target``, checked (SQLite; PostgreSQL refuses: use pg_dump or copy-db)."""
        return await self.db.backup(target, with_secret=with_secret)


__all__ = ["ALL_GUILDS", "ALL_RULES", "DAILIES", "Store", "rules_name"]
