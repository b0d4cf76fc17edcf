"""Kept reviews: a finished game's review, as the application layer wrote it (text), stored once per game."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from storage.backends.base import Db, Tx
from storage.models import to_micros

GET_REVIEW = "SELECT review FROM game_reviews WHERE game_id = $1"
KEEP_REVIEW = ("INSERT INTO game_reviews (game_id, review, created_at) VALUES ($1, $2, $3) "
               "ON CONFLICT (game_id) DO UPDATE SET review = excluded.review, created_at = excluded.created_at")


class Reviews:
    def __init__(self, db: Db, now: Callable[[], datetime]) -> None:
        self.db = db
        self.now = now

    async def kept_review(self, game_id: int) -> str | None:
        rows = await self.db.read(GET_REVIEW, (game_id,))
        return rows[0][0] if rows else None

    async def keep_review(self, game_id: int, review: str) -> None:
        now_us = to_micros(self.now())

        async def body(tx: Tx) -> None:
            await tx.execute(KEEP_REVIEW, (game_id, review, now_us))

        await self.db.write(body)


__all__ = ["Reviews"]
