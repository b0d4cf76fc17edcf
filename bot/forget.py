"""``scoundrel-bot forget --user ID``: delete everything the bot keeps about one Discord user (app/players/forget.py).

For an operator answering a deletion request; a player can do the same themselves with ``/scoundrel forget-me``.
Safe while the bot runs (one transaction); the boards no longer list the player from that moment on.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.config import add_database_options, database_from
from games.engine import whole_number
from terminal.usage import prog

ORDER = ["games", "moves", "reviews", "daily attempts", "share posts", "reminders", "board rows", "duels deleted",
         "duels kept anonymous", "duel moves kept anonymous"]


def _user_id(text: str) -> int:
    user_id = whole_number(text.strip())
    if not user_id:
        raise argparse.ArgumentTypeError("must be a Discord user id (a positive whole number)")
    return user_id


async def forget(database, user_id: int) -> dict[str, int]:
    from app.players.forget import forget_player
    from storage import open_store

    store = await open_store(database)
    try:
        return (await forget_player(store, user_id)).counts
    finally:
        await store.close()


def main(argv: list[str]) -> int:
    from storage.errors import StorageError

    parser = argparse.ArgumentParser(
        prog=prog("forget"),
        description="Delete a player's games, moves, daily attempts, names, Share posts, reminders, open duels and "
                    "board entries. A finished duel stays for the other player, with this player's seat anonymous.")
    parser.add_argument("--user", type=_user_id, required=True, metavar="ID",
                        help="the player's Discord user id (Developer Mode: right-click the user, Copy User ID)")
    add_database_options(parser)
    args = parser.parse_args(argv)
    database = database_from(args)  # a ConfigError is reported by bot.cli (exit 2)
    if not isinstance(database, str) and not database.is_file():  # opening it would make an empty one
        print(f"forget failed: no database at {database}", file=sys.stderr)
        return 1
    try:
        counts = asyncio.run(forget(database, args.user))
    except StorageError as exc:
        print(f"forget failed: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    if not any(counts.values()):
        print(f"nothing was kept about user {args.user}")
        return 0
    shown = [name for name in ORDER if counts.get(name)] + [n for n in counts if n not in ORDER and counts[n]]
    print(f"forgot user {args.user}: " + ", ".join(f"{counts[name]:,} {name}" for name in shown))
    return 0
