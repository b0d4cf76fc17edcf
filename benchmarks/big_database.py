"""A large, realistic bot database, built fast, and its size before and after maintenance.

    .venv/bin/python benchmarks/big_database.py --games 700000 --path /tmp/scoundrel-bench/700k.sqlite3

Every game is a real game: a few hundred games are played through the engine (a quarter along the solver's
best line, the rest a cautious line with some randomness, so lengths vary as people's do), stored through
``Store`` to get the real snapshot and action log, then copied under new ids, players, servers and days with
set-based SQL (``INSERT … SELECT`` over a recursive counter) — millions of rows a minute instead of hours of
``Store.play``. 30 % of the games are counted dailies
(with their attempt rows), the rest normal games; ``player_totals`` is rebuilt as the store keeps it.

The file is built as databases made before this version were (``auto_vacuum=NONE``, every finished game keeping
its snapshot). The script then prints its size, runs ``scoundrel-bot maintenance --vacuum`` (the once-only
compaction of an old file) and prints the size after. Keep the file outside the repository.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import Rules, apply, legal_actions, new_game, preview  # noqa: E402
from games.solver import solve  # noqa: E402
from storage import Store  # noqa: E402

TEMPLATES = 120
DAY_US = 86_400_000_000


def played_game(seed: int, rng: random.Random):
    state = new_game(Rules(), seed=seed)
    if seed % 4 == 0:  # a good player's game: the best line, played to the end (about 40 moves)
        for action in solve(Rules(), state.start_deck).actions:
            state = apply(state, action)
        return state
    care = rng.choice((0.9, 0.95, 1.0))  # how often the line takes the least damaging move
    while not state.over:
        options = legal_actions(state)
        if rng.random() < care:
            state = apply(state, min(options, key=lambda a: (preview(state, a).damage - preview(state, a).heal,
                                                             a.kind == "avoid")))
        else:
            state = apply(state, rng.choice(options))
    return state


async def _templates(path: Path, count: int) -> None:
    """``count`` real finished games through the store (ids 1..count)."""
    rng = random.Random(7)
    store = await Store.open(path, checkpoint_every=None, synchronous="NORMAL")  # a bulk load
    try:
        await store.daily_secret()
        for seed in range(1, count + 1):
            state = played_game(seed, rng)
            record = await store.create_game(seed, 1, 1, Rules(), seed=seed)
            for action in state.history:
                record = await store.play(record.id, seed, record.version, action)
    finally:
        await store.close()


def build(path: Path, games: int, *, old_format: bool = True, log=print) -> float:
    """Write ``games`` finished games to a new database at ``path``; returns the seconds it took."""
    started = time.perf_counter()
    path.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    if old_format:  # as files made before incremental vacuum: created without it
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA auto_vacuum = NONE")
        conn.execute("CREATE TABLE _init (x)")
        conn.execute("DROP TABLE _init")
        conn.close()
    templates = min(TEMPLATES, games)
    asyncio.run(_templates(path, templates))
    log(f"  {templates} real games played and stored ({time.perf_counter() - started:.0f} s)")
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous = OFF")  # a throwaway bulk load
        conn.execute("PRAGMA cache_size = -262144")
        conn.execute("BEGIN")
        # Copies: game x is template (x % templates) + 1, player x % 50000, one of 50 servers, a day of the year.
        conn.execute(
            "WITH RECURSIVE n(x) AS (SELECT ? UNION ALL SELECT x + 1 FROM n WHERE x < ?) "
            "INSERT INTO games (id, user_id, guild_id, channel_id, kind, slot, day, rules_json, rules_key, "
            "rules_name, seed, deck, status, version, snapshot, score, started_at, ended_at) "
            "SELECT x, 1000 + (x * 7919) % 50000, 1000 + x % 50, 7, "
            "CASE WHEN x % 10 < 3 THEN 'daily' ELSE 'normal' END, CASE WHEN x % 10 < 3 THEN 'daily' ELSE 'normal' END,"
            "CASE WHEN x % 10 < 3 THEN 1 + (x / 10) % 365 END, t.rules_json, t.rules_key, t.rules_name, "
            "CASE WHEN x % 10 < 3 THEN NULL ELSE t.seed END, t.deck, t.status, t.version, t.snapshot, t.score, "
            "t.started_at - (x % 365) * ? , t.ended_at - (x % 365) * ? "
            "FROM n JOIN games t ON t.id = x % ? + 1",
            (templates + 1, games, DAY_US, DAY_US, templates))
        log(f"  {games:,} games ({time.perf_counter() - started:.0f} s)")
        conn.execute("INSERT INTO game_actions (game_id, seq, code, at) "
                     "SELECT g.id, a.seq, a.code, g.started_at + a.seq * 2000000 FROM games g "
                     "JOIN game_actions a ON a.game_id = g.id % ? + 1 WHERE g.id > ? ORDER BY g.id, a.seq",
                     (templates, templates))
        log(f"  their action logs ({time.perf_counter() - started:.0f} s)")
        # One counted daily per player and day: the first copy wins, later ones become practice games.
        conn.execute("INSERT OR IGNORE INTO daily_attempts (user_id, day, game_id, created_at) "
                     "SELECT user_id, day, id, started_at FROM games WHERE kind = 'daily' ORDER BY id")
        conn.execute("UPDATE games SET kind = 'practice' WHERE kind = 'daily' AND id NOT IN "
                     "(SELECT game_id FROM daily_attempts)")
        conn.execute("COMMIT")
    finally:
        conn.close()

    async def totals():
        store = await Store.open(path)
        try:
            await store.rebuild_totals()
        finally:
            await store.close()

    asyncio.run(totals())
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("ANALYZE")
    conn.close()
    log(f"  totals rebuilt ({time.perf_counter() - started:.0f} s)")
    return time.perf_counter() - started


def table_sizes(path: Path) -> list[tuple[str, int]]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC").fetchall()
    except sqlite3.OperationalError:  # SQLite built without the dbstat table
        rows = []
    finally:
        conn.close()
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=700_000)
    parser.add_argument("--path", type=Path, default=Path("/tmp/scoundrel-bench/700k.sqlite3"))
    parser.add_argument("--keep", action="store_true", help="build only: no maintenance run")
    args = parser.parse_args(argv)
    print(f"building {args.games:,} games at {args.path}")
    build(args.path, args.games)
    before = args.path.stat().st_size
    print(f"size as built (every finished game keeps its snapshot): {before:,} bytes "
          f"({before / 1e9:.2f} GB, {before / args.games:,.0f} bytes a game)")
    for name, size in table_sizes(args.path)[:6]:
        print(f"  {name:<28} {size / 1e6:10.1f} MB")
    if args.keep:
        return 0
    command = [sys.executable, "-m", "bot", "maintenance", "--db", str(args.path), "--vacuum"]
    print("$ " + " ".join(command[1:]))
    subprocess.run(command, check=True)
    after = args.path.stat().st_size
    print(f"size after maintenance: {after:,} bytes ({after / 1e9:.2f} GB, {after / args.games:,.0f} bytes a game)")
    for name, size in table_sizes(args.path)[:6]:
        print(f"  {name:<28} {size / 1e6:10.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
