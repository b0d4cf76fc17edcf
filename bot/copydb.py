"""``python -m bot copy-db FROM TO``: move an installation between SQLite and PostgreSQL, checked.

FROM and TO are each a SQLite file (a path or ``sqlite:///path``) or a ``postgresql://`` URL. TO must be empty
(a new file, or a new database); it is brought to the current schema first. Every table is copied in one
transaction and compared with the source afterwards (storage/copy.py). Stop the bot before copying: moves made
during the copy would not be in TO.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from terminal.usage import prog


def check(source: str, target: str) -> None:
    """Refuse a SQLite source that does not exist (opening it would create it) and a copy onto itself."""
    from storage import is_postgres
    from storage.copy import CopyError
    from storage.factory import sqlite_path

    if not is_postgres(source) and not Path(sqlite_path(source)).is_file():
        raise CopyError(f"no database at {source}")
    if source == target or not is_postgres(source) and not is_postgres(target) and \
            Path(sqlite_path(source)).resolve() == Path(sqlite_path(target)).resolve():
        raise CopyError("FROM and TO are the same database")


async def copy(source: str, target: str) -> dict[str, int]:
    from storage import open_store
    from storage.copy import copy_database

    src = await open_store(source)
    try:
        dst = await open_store(target)
        try:
            return await copy_database(src, dst)
        finally:
            await dst.close()
    finally:
        await src.close()


def main(argv: list[str]) -> int:
    from storage.errors import StorageError
    from storage.factory import redact

    parser = argparse.ArgumentParser(prog=prog("copy-db"),
                                     description="Copy the bot's database between SQLite and PostgreSQL, checked.")
    parser.add_argument("source", metavar="FROM", help="a SQLite file or a postgresql:// URL")
    parser.add_argument("target", metavar="TO", help="an empty SQLite file (new) or PostgreSQL database")
    args = parser.parse_args(argv)
    try:
        check(args.source, args.target)
        counts = asyncio.run(copy(args.source, args.target))
    except StorageError as exc:
        print(f"copy-db failed: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    summary = ", ".join(f"{table} {rows:,}" for table, rows in counts.items() if rows)
    print(f"copied {redact(args.source)} to {redact(args.target)} and checked every table equal: {summary or 'empty'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
