"""The daily's posts in each server: leases so exactly one process sends a post, delivery, and retries.

A post is *settled* once it is delivered (``delivered_at`` and its message) or given up for the day
(``delivered_at`` without a message, the reason in ``last_error``): its channel is gone, the bot was removed, a
permission is missing, or it failed too often. A settled post is never claimed again.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from storage.backends.base import Db, Tx
from storage.models import from_micros, to_micros

POST = "SELECT delivered_at, owner, lease_until, retry_at FROM daily_posts WHERE guild_id = $1 AND day = $2"
NEW_CLAIM = ("INSERT INTO daily_posts (guild_id, day, claimed_at, owner, lease_until) "
             "VALUES ($1, $2, $3, $4, $5)")
RENEW_CLAIM = ("UPDATE daily_posts SET owner = $1, lease_until = $2, claimed_at = $3 "
               "WHERE guild_id = $4 AND day = $5")
DELIVERED = ("UPDATE daily_posts SET channel_id = $1, message_id = $2, delivered_at = $3, owner = NULL, "
             "lease_until = NULL, last_error = NULL, retry_at = NULL WHERE guild_id = $4 AND day = $5")
HELD = ("SELECT attempts FROM daily_posts WHERE guild_id = $1 AND day = $2 AND owner = $3 "
        "AND delivered_at IS NULL")
RELEASE = ("UPDATE daily_posts SET owner = NULL, lease_until = NULL, attempts = attempts + 1, last_error = $1, "
           "retry_at = $2 WHERE guild_id = $3 AND day = $4")
GIVE_UP = ("UPDATE daily_posts SET delivered_at = $1, owner = NULL, lease_until = NULL, last_error = $2, "
           "retry_at = NULL WHERE guild_id = $3 AND day = $4 AND delivered_at IS NULL")
GIVE_UP_HELD = ("UPDATE daily_posts SET delivered_at = $1, owner = NULL, lease_until = NULL, last_error = $2, "
                "attempts = attempts + 1, retry_at = NULL WHERE guild_id = $3 AND day = $4")
SETTLED_GUILDS = "SELECT guild_id FROM daily_posts WHERE day = $1 AND delivered_at IS NOT NULL"
GIVEN_UP = ("SELECT guild_id, last_error FROM daily_posts WHERE day = $1 AND delivered_at IS NOT NULL "
            "AND message_id IS NULL ORDER BY guild_id")
UNDELIVERED = ("SELECT guild_id, attempts, retry_at FROM daily_posts WHERE day = $1 AND delivered_at IS NULL "
               "ORDER BY guild_id")
MESSAGE = ("SELECT channel_id, message_id FROM daily_posts WHERE guild_id = $1 AND day = $2 "
           "AND message_id IS NOT NULL")


class Posts:
    def __init__(self, db: Db, now: Callable[[], datetime]) -> None:
        self.db = db
        self.now = now

    async def claim_daily_post(self, guild_id: int, day: int, owner: str, lease: timedelta) -> bool:
        now_us = to_micros(self.now())
        until_us = to_micros(self.now() + lease)

        async def body(tx: Tx) -> bool:
            row = await tx.fetchone(POST, (guild_id, day))
            if row is None:
                await tx.execute(NEW_CLAIM, (guild_id, day, now_us, owner, until_us))
                return True
            delivered_at, holder, lease_until, retry_at = row
            if delivered_at is not None:
                return False
            if holder is not None and holder != owner and lease_until is not None and lease_until > now_us:
                return False
            if retry_at is not None and retry_at > now_us:
                return False
            await tx.execute(RENEW_CLAIM, (owner, until_us, now_us, guild_id, day))
            return True

        return await self.db.write(body)

    async def confirm_daily_post(self, guild_id: int, day: int, channel_id: int, message_id: int) -> None:
        now_us = to_micros(self.now())

        async def body(tx: Tx) -> None:
            await tx.execute(DELIVERED, (channel_id, message_id, now_us, guild_id, day))

        await self.db.write(body)

    async def release_daily_post(self, guild_id: int, day: int, owner: str, error: str,
                                 backoff: Callable[[int], timedelta | None]) -> timedelta | None:
        now = self.now()

        async def body(tx: Tx) -> timedelta | None:
            row = await tx.fetchone(HELD, (guild_id, day, owner))
            if row is None:
                return None
            delay = backoff(row[0] + 1)
            if delay is None:  # failed too often: given up for the day
                await tx.execute(GIVE_UP_HELD, (to_micros(now), f"given up: {error}"[:500], guild_id, day))
                return None
            await tx.execute(RELEASE, (error[:500], to_micros(now + delay), guild_id, day))
            return delay

        return await self.db.write(body)

    async def give_up_daily_post(self, guild_id: int, day: int, reason: str) -> None:
        now_us = to_micros(self.now())

        async def body(tx: Tx) -> None:
            await tx.execute(GIVE_UP, (now_us, f"given up: {reason}"[:500], guild_id, day))

        await self.db.write(body)

    async def settled_daily_posts(self, day: int) -> set[int]:
        return {r[0] for r in await self.db.read(SETTLED_GUILDS, (day,))}

    async def given_up_daily_posts(self, day: int) -> list[tuple[int, str]]:
        return [(r[0], r[1] or "") for r in await self.db.read(GIVEN_UP, (day,))]

    async def undelivered_daily_posts(self, day: int) -> list[tuple[int, int, datetime | None]]:
        return [(r[0], r[1], from_micros(r[2])) for r in await self.db.read(UNDELIVERED, (day,))]

    async def daily_post_message(self, guild_id: int, day: int) -> tuple[int, int] | None:
        rows = await self.db.read(MESSAGE, (guild_id, day))
        return (rows[0][0], rows[0][1]) if rows else None


__all__ = ["Posts"]
