"""A database of many finished games, made fast with set-based SQL (copies of real games under new ids)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from games.engine import Rules, apply, legal_actions, new_game
from storage import Store


def finished_game(seed: int):
    """A real game played to the end by a cautious line (many moves, like a person's game)."""
    state = new_game(Rules(), seed=seed)
    while not state.over:
        state = apply(state, min(legal_actions(state), key=lambda a: (a.kind != "weapon", a.kind == "avoid")))
    return state


def make_database(path: Path, games: int, *, padding: int = 0) -> None:
    """``games`` finished games (with snapshots and action logs) and a daily secret; ``padding`` bytes of extra
    snapshot text per game make the file bigger without more rows."""

    async def schema():
        store = await Store.open(path)
        try:
            record = await store.create_game(1, 1, 1, Rules(), seed=1)
            for action in finished_game(1).history:
                record = await store.play(record.id, 1, record.version, action)
            await store.daily_secret()
        finally:
            await store.close()

    asyncio.run(schema())
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN")
        conn.execute(
            "WITH RECURSIVE n(x) AS (SELECT 2 UNION ALL SELECT x + 1 FROM n WHERE x < ?) "
            "INSERT INTO games (id, user_id, guild_id, channel_id, kind, slot, rules_json, rules_key, rules_name, "
            "seed, deck, status, version, snapshot, score, started_at, ended_at) "
            "SELECT x, x % 5000 + 2, 1, 1, kind, slot, rules_json, rules_key, rules_name, seed, deck, status, "
            "version, snapshot || printf('%.*c', ?, ' '), score, started_at + x, ended_at + x FROM n, games "
            "WHERE games.id = 1", (games, padding))
        conn.execute("INSERT INTO game_actions (game_id, seq, code, at) SELECT g.id, a.seq, a.code, a.at "
                     "FROM games g, game_actions a WHERE g.id > 1 AND a.game_id = 1")
        conn.execute("COMMIT")
    finally:
        conn.close()
