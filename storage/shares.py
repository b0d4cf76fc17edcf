"""The Share posts of a daily made while its day still ran (migration 0015), finished once the day is over.

Par is public only after the day ends: a post shared during the day is kept here, and after midnight the bot
takes a bounded batch of the past days' posts and edits each with par and the player's streak. Taking a batch
deletes its rows in one statement, so two processes never edit the same post; a post whose edit fails stays as it
was shared (it lacks only par).
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.backends.base import Db, Tx

KEEP_SHARE_POST = ("INSERT INTO share_posts (message_id, channel_id, game_id, day, locale) "
                   "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (message_id) DO NOTHING")
TAKE_SHARE_POSTS = ("DELETE FROM share_posts WHERE message_id IN (SELECT message_id FROM share_posts "
                    "WHERE day < $1 ORDER BY day, message_id LIMIT $2) "
                    "RETURNING message_id, channel_id, game_id, day, locale")


@dataclass(frozen=True, slots=True)
class SharePost:
    """A Share post made while its day ran: where it is, whose game, and the language it was written in."""

    message_id: int
    channel_id: int
    game_id: int
    day: int
    locale: str | None


class SharePosts:
    def __init__(self, db: Db) -> None:
        self.db = db

    async def keep_share_post(self, post: SharePost) -> None:
        async def body(tx: Tx) -> None:
            await tx.execute(KEEP_SHARE_POST, (post.message_id, post.channel_id, post.game_id, post.day,
                                               post.locale))

        await self.db.write(body)

    async def take_share_posts(self, before_day: int, limit: int) -> list[SharePost]:
        async def body(tx: Tx) -> list[SharePost]:
            rows = await tx.fetch(TAKE_SHARE_POSTS, (before_day, limit))
            return sorted((SharePost(*row) for row in rows), key=lambda post: (post.day, post.message_id))

        return await self.db.write(body)


__all__ = ["SharePost", "SharePosts"]
