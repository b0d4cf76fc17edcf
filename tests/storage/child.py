"""Child processes for the race and crash tests (run as ``python tests/storage/child.py MODE ...``).

race DB GAME_ID USER ROUNDS SEED: each round load the game, print ``ready``, wait for a line on stdin, then try
    one move at the loaded version and print ``ok V`` or ``stale V``.
crash DB SEED PLAYERS: PLAYERS concurrent players start games and make random legal moves forever, printing
    ``GAME VERSION`` after each move the store acknowledged (committed); the parent kills it with SIGKILL.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import Rules, legal_actions  # noqa: E402
from storage import ActiveGameExists, MoveRefused, open_store  # noqa: E402


async def race(db: str, game_id: int, user: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    store = await open_store(db)
    try:
        for _ in range(rounds):
            record = await store.load_game(game_id)
            action = rng.choice(legal_actions(record.state))
            print("ready", flush=True)
            sys.stdin.readline()
            try:
                await store.play(game_id, user, record.version, action)
                print("ok", record.version, flush=True)
            except MoveRefused as stale:
                print("stale", record.version, stale.current, flush=True)
    finally:
        await store.close()


async def crash(db: str, seed: int, players: int) -> None:
    store = await open_store(db)
    print("open", flush=True)

    async def player(user: int) -> None:
        rng = random.Random(seed * 1000 + user)
        while True:
            try:
                record = await store.create_game(user, 1, 1, Rules(), seed=rng.getrandbits(40))
            except ActiveGameExists as exists:  # left playing by the previous (killed) child
                record = exists.game
            while record.playing:
                action = rng.choice(legal_actions(record.state))
                record = await store.play(record.id, user, record.version, action)
                sys.stdout.write(f"{record.id} {record.version}\n")
                sys.stdout.flush()

    await asyncio.gather(*(player(user) for user in range(1, players + 1)))


if __name__ == "__main__":
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "race":
        asyncio.run(race(args[0], int(args[1]), int(args[2]), int(args[3]), int(args[4])))
    elif mode == "crash":
        asyncio.run(crash(args[0], int(args[1]), int(args[2])))
    else:
        sys.exit(f"unknown mode {mode}")
