"""Players' names as they were when they played, kept with their games (migration 0014).

A board that lists players from other servers (the boards of every server) cannot rely on mentions: the reader's
client resolves only users it knows. The name a player had when they played is kept with the game, and read back
for the players a board lists (at most a board's ten: one indexed read each).
"""

from __future__ import annotations

from collections.abc import Iterable

from storage.backends.base import Db, Tx

NAME_LENGTH = 32  # Discord's longest display name
KEEP_NAME = "UPDATE games SET player_name = $1 WHERE id = $2"
NAME_ON_DAY = ("SELECT player_name FROM games WHERE user_id = $1 AND kind = 'daily' AND day = $2 "
               "AND player_name IS NOT NULL")
LATEST_NAME = ("SELECT player_name FROM games WHERE user_id = $1 AND player_name IS NOT NULL "
               "ORDER BY id DESC LIMIT 1")


class Names:
    def __init__(self, db: Db) -> None:
        self.db = db

    async def keep_name(self, game_id: int, name: str) -> None:
        async def body(tx: Tx) -> None:
            await tx.execute(KEEP_NAME, (name[:NAME_LENGTH], game_id))

        await self.db.write(body)

    async def names_for(self, user_ids: Iterable[int], day: int | None = None) -> dict[int, str]:
        names = {}
        for user_id in sorted(set(user_ids)):
            rows = await (self.db.read(NAME_ON_DAY, (user_id, day), board=True) if day is not None else
                          self.db.read(LATEST_NAME, (user_id,), board=True))
            if rows:
                names[user_id] = rows[0][0]
        return names


__all__ = ["NAME_LENGTH", "Names"]
