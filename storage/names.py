"""Players' names as they were when they played, kept with their games (migration 0012).

A board that lists players from other servers (the global boards) cannot rely on mentions: the reader's client
resolves only users it knows. The name a player had when they played is kept with the game, and read back for
the players a board lists. Works on either backend through the store's ``_read`` and ``_write``.
"""

from __future__ import annotations

from collections.abc import Iterable

NAME_LENGTH = 32  # Discord's longest display name


async def keep_name(store, game_id: int, name: str) -> None:
    """Keep ``name`` with the game (its player's name now)."""
    async def body(db):
        await db.execute("UPDATE games SET player_name = ? WHERE id = ?", (name[:NAME_LENGTH], game_id))

    await store._write(body)


async def names_for(store, user_ids: Iterable[int], day: int | None = None) -> dict[int, str]:
    """Each player's name: as on their counted daily of ``day`` when given, else as on their latest game that
    kept one. Players with no kept name are left out."""
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    sql = f"SELECT user_id, player_name FROM games WHERE user_id IN ({marks}) AND player_name IS NOT NULL"
    params: list = list(ids)
    if day is not None:
        sql += " AND kind = 'daily' AND day = ?"
        params.append(day)
    rows = await store._read(sql + " ORDER BY id", params, board=True)
    return {row[0]: row[1] for row in rows}  # the latest game's name wins
