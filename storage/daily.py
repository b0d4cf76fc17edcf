"""The daily challenge: the secret its deals come from, each day's deal, par and the coach's score (with the lease
on solving them), the players' counted attempts and the day's results."""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta

from games.engine import Rules
from storage.backends.base import Db, Row, Tx
from storage.boards import NO_LIMIT, Boards
from storage.games import Games, rules_json
from storage.models import DailyChallenge, DailyEntry, GameRecord, from_micros, to_micros

log = logging.getLogger(__name__)

DAILY_SECRET = "daily"
ADD_SECRET = "INSERT INTO bot_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING"
ANY_DAILY = "SELECT 1 FROM daily_challenges LIMIT 1"
SECRET = "SELECT value FROM bot_secrets WHERE name = $1"
CHALLENGE = ("SELECT day, seed, rules_json, par, par_line, created_at, coach_score FROM daily_challenges "
             "WHERE day = $1")
PUT_DAILY = (
    "INSERT INTO daily_challenges (day, seed, rules_json, rules_key, par, par_line, created_at) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (day) DO UPDATE SET "
    "par = coalesce(daily_challenges.par, excluded.par), "
    "par_line = CASE WHEN daily_challenges.par IS NULL THEN excluded.par_line ELSE daily_challenges.par_line END")
SET_PAR = ("UPDATE daily_challenges SET par = $1, par_line = $2, coach_score = $3, par_owner = NULL, "
           "par_lease_until = NULL WHERE day = $4")
PAR_LEASE = "SELECT par, par_owner, par_lease_until FROM daily_challenges WHERE day = $1"
TAKE_PAR_LEASE = "UPDATE daily_challenges SET par_owner = $1, par_lease_until = $2 WHERE day = $3"
RELEASE_PAR = ("UPDATE daily_challenges SET par_owner = NULL, par_lease_until = NULL "
               "WHERE day = $1 AND par_owner = $2")
ATTEMPT = "SELECT game_id FROM daily_attempts WHERE user_id = $1 AND day = $2"
STILL_PLAYING = ("SELECT user_id, id, score, status, ended_at, guild_id, ended_by FROM games "
                 "WHERE status = 'playing' AND kind <> 'normal' AND kind = 'daily' AND day = $1 ORDER BY id LIMIT $2")
STILL_PLAYING_IN = ("SELECT user_id, id, score, status, ended_at, guild_id, ended_by FROM games "
                    "WHERE status = 'playing' AND kind <> 'normal' AND kind = 'daily' AND day = $1 "
                    "AND guild_id = $3 ORDER BY id LIMIT $2")


class Dailies:
    def __init__(self, db: Db, now: Callable[[], datetime], games: Games, boards: Boards) -> None:
        self.db = db
        self.now = now
        self.games = games
        self.boards = boards

    async def daily_secret(self) -> bytes:
        async def body(tx: Tx) -> bytes:
            added = await tx.execute(ADD_SECRET, (DAILY_SECRET, secrets.token_bytes(32)))
            if added and await tx.fetchone(ANY_DAILY):
                # e.g. an ordinary backup (made without the secret) copied into place by hand
                log.warning("the daily secret was missing from a database that has dailies; a new one was made, "
                            "so today's and later daily deals differ from the old secret's "
                            "(docs/OPERATIONS.md, Restoring)")
            row = await tx.fetchone(SECRET, (DAILY_SECRET,))
            assert row is not None
            return bytes(row[0])

        return await self.db.write(body)

    async def get_daily(self, day: int) -> DailyChallenge | None:
        rows = await self.db.read(CHALLENGE, (day,))
        return _daily(rows[0]) if rows else None

    async def put_daily(self, day: int, seed: int, rules: Rules | None = None, par: int | None = None,
                        par_line: str | None = None) -> DailyChallenge:
        rules = Rules() if rules is None else rules
        now_us = to_micros(self.now())

        async def body(tx: Tx) -> Row | None:
            await tx.execute(PUT_DAILY, (day, seed, rules_json(rules), rules.key, par, par_line, now_us))
            return await tx.fetchone(CHALLENGE, (day,))

        return _daily(await self.db.write(body))

    async def set_daily_par(self, day: int, par: int, par_line: str | None = None,
                            coach_score: int | None = None) -> None:
        async def body(tx: Tx) -> None:
            if await tx.execute(SET_PAR, (par, par_line, coach_score, day)) != 1:
                raise KeyError(f"daily {day} has not been recorded")

        await self.db.write(body)

    async def claim_daily_par(self, day: int, owner: str, lease: timedelta) -> bool:
        now_us = to_micros(self.now())
        until_us = to_micros(self.now() + lease)

        async def body(tx: Tx) -> bool:
            row = await tx.fetchone(PAR_LEASE, (day,))
            if row is None:
                raise KeyError(f"daily {day} has not been recorded")
            par, holder, lease_until = row
            if par is not None:
                return False
            if holder is not None and holder != owner and lease_until is not None and lease_until > now_us:
                return False
            await tx.execute(TAKE_PAR_LEASE, (owner, until_us, day))
            return True

        return await self.db.write(body)

    async def release_daily_par(self, day: int, owner: str) -> None:
        async def body(tx: Tx) -> None:
            await tx.execute(RELEASE_PAR, (day, owner))

        await self.db.write(body)

    async def daily_attempt(self, user_id: int, day: int) -> GameRecord | None:
        rows = await self.db.read(ATTEMPT, (user_id, day))
        return await self.games.get_game(rows[0][0]) if rows else None

    async def daily_results(self, day: int, guild_id: int | None = None,
                            limit: int | None = None) -> list[DailyEntry]:
        scored = await self.boards.leaderboard_daily(day, guild_id, NO_LIMIT if limit is None else limit)
        if limit is not None and len(scored) >= limit:
            return scored
        rest = NO_LIMIT if limit is None else limit - len(scored)
        if guild_id is None:
            rows = await self.db.read(STILL_PLAYING, (day, rest), board=True)
        else:
            rows = await self.db.read(STILL_PLAYING_IN, (day, rest, guild_id), board=True)
        return scored + [DailyEntry(i, r[0], r[1], r[2], r[3], from_micros(r[4]), r[5], r[6])
                         for i, r in enumerate(rows, len(scored) + 1)]


def _daily(row: Row | None) -> DailyChallenge:
    assert row is not None
    day, seed, rules_text, par, par_line, created_at, coach_score = row
    created = from_micros(created_at)
    assert created is not None
    return DailyChallenge(day, seed, Rules.from_dict(json.loads(rules_text)), par, par_line, created, coach_score)


__all__ = ["DAILY_SECRET", "Dailies"]
