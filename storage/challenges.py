"""Challenges in a channel: one deal, and a game of its own for everyone who joins (``games.challenge_id``).

Written against the store's database interface, like the duels. A challenge is ``running`` until it is closed
(by its starter or by its time): the close is taken once (``begin_close``: running -> ``closing``, the players'
games still being played are ended in the same transaction), then the final standings are written and the close
is settled (``finish_close``: -> ``closed``). A process that stopped between the two finds the challenge still
``closing`` and writes the same final standings again: the standings are one message, so they come out once.

A player is in one running challenge at a time per place (the server; the channel outside servers): joining
another is refused with ``ChallengeBusy``; a second join of the same challenge (a double click) is the first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from games.engine import Rules, deal, deck_codes, new_game, to_json
from storage.backends.base import Db, Row, Tx
from storage.errors import StorageError
from storage.games import Games, rules_json
from storage.models import GAME_COLUMNS, NORMAL, PLAYING, GameRecord, from_micros, to_micros
from storage.names import NAME_LENGTH
from storage.time_limit import time_limited

RUNNING, CLOSING, CLOSED = "running", "closing", "closed"

_COLUMNS = ("id, place, guild_id, channel_id, message_id, starter_id, rules_json, seed, locale, status, par, "
            "coach_score, created_at, closes_at, closed_at")
CHALLENGE = f"SELECT {_COLUMNS} FROM challenges WHERE id = $1"
OPEN = f"SELECT {_COLUMNS} FROM challenges WHERE status <> 'closed' ORDER BY closes_at, id"
STARTED_HERE = ("SELECT id FROM challenges WHERE place = $1 AND starter_id = $2 AND status = 'running' "
                "ORDER BY id DESC LIMIT 1")
NEW = ("INSERT INTO challenges (place, guild_id, channel_id, starter_id, rules_json, seed, locale, status, "
       "created_at, closes_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'running', $8, $9) RETURNING id")
SET_MESSAGE = "UPDATE challenges SET channel_id = $1, message_id = $2 WHERE id = $3"
SET_PAR = "UPDATE challenges SET par = $1, coach_score = $2 WHERE id = $3"
JOINED = "SELECT game_id FROM challenge_players WHERE challenge_id = $1 AND user_id = $2"
PLAYING_ELSEWHERE = ("SELECT c.id FROM challenge_players p JOIN challenges c ON c.id = p.challenge_id "
                     "WHERE p.user_id = $1 AND c.place = $2 AND c.status = 'running' AND c.id <> $3 LIMIT 1")
INSERT_GAME = ("INSERT INTO games (user_id, guild_id, channel_id, kind, slot, day, rules_json, rules_key, rules_name, "
               "seed, deck, status, version, snapshot, started_at, challenge_id) "
               "VALUES ($1, $2, $3, 'normal', 'normal', NULL, $4, $5, $6, $7, $8, 'playing', 0, $9, $10, $11) "
               "RETURNING id")
INSERT_PLAYER = ("INSERT INTO challenge_players (challenge_id, user_id, game_id, name, gone, joined_at) "
                 "VALUES ($1, $2, $3, $4, 0, $5)")
_GAME_COLUMNS = ", ".join(f"g.{column.strip()}" for column in GAME_COLUMNS.split(","))
ENTRANTS = (f"SELECT p.user_id, p.name, p.gone, p.joined_at, {_GAME_COLUMNS} FROM challenge_players p "
            "JOIN games g ON g.id = p.game_id WHERE p.challenge_id = $1 ORDER BY p.joined_at, p.user_id")
# The player's game of the latest running challenge in a channel they joined: where the table opens in that channel.
GAME_HERE = (f"SELECT {_GAME_COLUMNS} FROM challenges c JOIN challenge_players p ON p.challenge_id = c.id "
             "JOIN games g ON g.id = p.game_id WHERE c.channel_id = $1 AND p.user_id = $2 AND c.status = 'running' "
             "ORDER BY c.id DESC LIMIT 1")
TAKE_CLOSE = "UPDATE challenges SET status = 'closing', closed_at = $1 WHERE id = $2 AND status = 'running'"
STILL_PLAYING = ("SELECT g.id, g.user_id FROM challenge_players p JOIN games g ON g.id = p.game_id "
                 "WHERE p.challenge_id = $1 AND g.status = 'playing'")
SETTLE_CLOSE = "UPDATE challenges SET status = 'closed' WHERE id = $1 AND status = 'closing'"
GONE = ("UPDATE challenge_players SET gone = 1 WHERE user_id = $1 AND gone = 0 AND challenge_id IN "
        "(SELECT id FROM challenges WHERE guild_id = $2 AND status <> 'closed')")
# Challenges closed that the player took part in, and those they won: finished (won or dead) with no finished game
# of the same challenge ahead of theirs (a better score, or the same score sooner): the standings' first place.
PLAYED = ("SELECT count(*), coalesce(sum(CASE WHEN g.status IN ('won', 'dead') AND NOT EXISTS ("
          "SELECT 1 FROM challenge_players q JOIN games h ON h.id = q.game_id WHERE q.challenge_id = p.challenge_id "
          "AND h.status IN ('won', 'dead') AND (h.score > g.score OR (h.score = g.score AND h.ended_at < g.ended_at))"
          ") THEN 1 ELSE 0 END), 0) "
          "FROM challenge_players p JOIN challenges c ON c.id = p.challenge_id JOIN games g ON g.id = p.game_id "
          "WHERE p.user_id = $1 AND c.status = 'closed'")


class ChallengeError(StorageError):
    """A refused challenge request."""


class ChallengeNotFound(ChallengeError):
    def __init__(self, challenge_id: int) -> None:
        super().__init__(f"no challenge {challenge_id}")
        self.challenge_id = challenge_id


class ChallengeClosed(ChallengeError):
    """A join after the close (or after its time ran out, before the close was taken)."""

    def __init__(self, challenge_id: int) -> None:
        super().__init__(f"challenge {challenge_id} is closed")
        self.challenge_id = challenge_id


class ChallengeBusy(ChallengeError):
    """The player is in (or started) another running challenge in the same place: ``other`` is its id."""

    def __init__(self, user_id: int, other: int) -> None:
        super().__init__(f"user {user_id} is in running challenge {other}")
        self.user_id, self.other = user_id, other


@dataclass(frozen=True)
class ChallengeRecord:
    id: int
    place: int
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    starter_id: int
    rules: Rules
    seed: int
    locale: str  # the language the standings are written in (the starter's)
    status: str
    par: int | None
    coach_score: int | None
    created_at: datetime
    closes_at: datetime
    closed_at: datetime | None

    @property
    def running(self) -> bool:
        return self.status == RUNNING


@dataclass(frozen=True)
class Entrant:
    """One player of a challenge and their game as stored."""

    user_id: int
    name: str
    gone: bool  # left the server while the challenge ran
    joined_at: datetime
    game: GameRecord


def _challenge(row: Row) -> ChallengeRecord:
    (challenge_id, place, guild_id, channel_id, message_id, starter_id, rules_text, seed, locale, status, par,
     coach_score, created_at, closes_at, closed_at) = row
    return ChallengeRecord(challenge_id, place, guild_id, channel_id, message_id, starter_id,
                           Rules.from_dict(json.loads(rules_text)), seed, locale, status, par, coach_score,
                           from_micros(created_at), from_micros(closes_at), from_micros(closed_at))


@time_limited
class Challenges:
    """The challenges area (``store.challenges``), within the store's time limit; ``games`` holds the records."""

    def __init__(self, db: Db, games: Games, store) -> None:
        self.db = db
        self._games = games
        self._store = store  # for its clock and its time limit

    @property
    def wait(self) -> float | None:
        return self._store.wait

    async def create(self, *, place: int, guild_id: int | None, channel_id: int | None, starter_id: int,
                     rules: Rules, seed: int, locale: str, lasts: timedelta) -> ChallengeRecord:
        """A new running challenge, open for ``lasts``; ``ChallengeBusy`` when the starter has a running one of
        their own in ``place`` already."""
        now = self._store.now()

        async def body(tx: Tx) -> int:
            mine = await tx.fetchone(STARTED_HERE, (place, starter_id))
            if mine is not None:
                raise ChallengeBusy(starter_id, mine[0])
            rows = await tx.fetch(NEW, (place, guild_id, channel_id, starter_id, rules_json(rules), seed, locale,
                                        to_micros(now), to_micros(now + lasts)))
            return rows[0][0]

        return await self.get(await self.db.write(body))

    async def get(self, challenge_id: int) -> ChallengeRecord:
        rows = await self.db.read(CHALLENGE, (challenge_id,))
        if not rows:
            raise ChallengeNotFound(challenge_id)
        return _challenge(rows[0])

    async def open_challenges(self) -> list[ChallengeRecord]:
        """Every challenge not closed yet (running, or closing), soonest to close first."""
        return [_challenge(row) for row in await self.db.read(OPEN)]

    async def set_message(self, challenge_id: int, channel_id: int | None, message_id: int | None) -> None:
        await self.db.write(lambda tx: tx.execute(SET_MESSAGE, (channel_id, message_id, challenge_id)))

    async def set_par(self, challenge_id: int, par: int | None, coach_score: int | None) -> None:
        await self.db.write(lambda tx: tx.execute(SET_PAR, (par, coach_score, challenge_id)))

    async def join(self, challenge_id: int, user_id: int, name: str) -> tuple[GameRecord, bool]:
        """The player's game of the challenge, made now (True) or already theirs (False: a second click).
        ``ChallengeClosed`` once it closed or its time is up, ``ChallengeBusy`` when the player is in another
        running challenge of the same place."""
        now = self._store.now()
        now_us = to_micros(now)

        async def body(tx: Tx) -> tuple[int, bool]:
            rows = await tx.fetch(CHALLENGE, (challenge_id,))
            if not rows:
                raise ChallengeNotFound(challenge_id)
            challenge = _challenge(rows[0])
            joined = await tx.fetchone(JOINED, (challenge_id, user_id))
            if joined is not None:
                return joined[0], False
            if not challenge.running or challenge.closes_at <= now:
                raise ChallengeClosed(challenge_id)
            other = await tx.fetchone(PLAYING_ELSEWHERE, (user_id, challenge.place, challenge_id))
            if other is not None:
                raise ChallengeBusy(user_id, other[0])
            # Dealt from the cards, without the seed (as a daily): a game shows its seed, which gives the deal away.
            state = new_game(challenge.rules, deck=deal(challenge.rules, challenge.seed))
            game_rows = await tx.fetch(INSERT_GAME, (
                user_id, challenge.guild_id, challenge.channel_id, rules_json(challenge.rules), challenge.rules.key,
                challenge.rules.name, None, deck_codes(state.start_deck), to_json(state), now_us,
                challenge_id))
            await tx.execute(INSERT_PLAYER, (challenge_id, user_id, game_rows[0][0], name[:NAME_LENGTH], now_us))
            return game_rows[0][0], True

        game_id, new = await self.db.write(body)
        return await self._games.get_game(game_id), new

    async def entrants(self, challenge_id: int) -> list[Entrant]:
        """The challenge's players in the order they joined, each with their game as stored now."""
        out = []
        for row in await self.db.read(ENTRANTS, (challenge_id,)):
            user_id, name, gone, joined_at, *game = row
            out.append(Entrant(user_id, name, bool(gone), from_micros(joined_at), await self._games.record(game)))
        return out

    async def game_here(self, channel_id: int, user_id: int) -> GameRecord | None:
        """The player's game of the latest running challenge they joined in ``channel_id`` (None: none)."""
        rows = await self.db.read(GAME_HERE, (channel_id, user_id))
        return await self._games.record(rows[0]) if rows else None

    async def begin_close(self, challenge_id: int) -> list[tuple[int, int]] | None:
        """Take the close of a running challenge: the (game, player) pairs still being played, to end; None when
        it was closed (or taken) already."""
        now_us = to_micros(self._store.now())

        async def body(tx: Tx) -> list[tuple[int, int]] | None:
            if await tx.execute(TAKE_CLOSE, (now_us, challenge_id)) != 1:
                return None
            return [(row[0], row[1]) for row in await tx.fetch(STILL_PLAYING, (challenge_id,))]

        return await self.db.write(body)

    async def finish_close(self, challenge_id: int) -> bool:
        """The final standings are written: the challenge is closed. False when it was settled already."""
        return await self.db.write(lambda tx: tx.execute(SETTLE_CLOSE, (challenge_id,))) == 1

    async def mark_gone(self, guild_id: int, user_id: int) -> int:
        """The player left the server: shown as gone in its challenges not closed yet; how many."""
        return await self.db.write(lambda tx: tx.execute(GONE, (user_id, guild_id)))

    async def played(self, user_id: int) -> tuple[int, int]:
        """(challenges the player took part in, closed, of which they placed first)."""
        rows = await self.db.read(PLAYED, (user_id,))
        return (int(rows[0][0]), int(rows[0][1])) if rows else (0, 0)


__all__ = ["CLOSED", "CLOSING", "RUNNING", "ChallengeBusy", "ChallengeClosed", "ChallengeError", "ChallengeNotFound",
           "ChallengeRecord", "Challenges", "Entrant", "NORMAL", "PLAYING"]
