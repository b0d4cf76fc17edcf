"""``python -m bot backup PATH [--db DB]``: copy a live database safely with SQLite's online backup API.

The copy is consistent (one point in time) even while the bot is writing: SQLite's backup restarts a step if
the source changes under it, and WAL readers never block the bot's writes. The copy is written to a temporary
file next to PATH, checked with ``PRAGMA integrity_check``, switched to a single self-contained file
(``journal_mode=DELETE``) and only then renamed onto PATH, so PATH is never a half-written database.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import time
from pathlib import Path

from bot.cli import prog

DEFAULT_DB = "scoundrel.sqlite3"
PAGES_PER_STEP = 1024  # copy in steps so a large database does not hold the source's read lock for long


class BackupError(Exception):
    pass


def backup(db: str | os.PathLike, target: str | os.PathLike, *, overwrite: bool = False) -> dict:
    """Copy ``db`` to ``target``; returns facts about the copy (pages, bytes, schema version, seconds)."""
    db, target = Path(db), Path(target)
    if not db.is_file():
        raise BackupError(f"no database at {db}")
    if target.exists() and not overwrite:
        raise BackupError(f"{target} already exists (pass --force to replace it)")
    if target.resolve() == db.resolve():
        raise BackupError("the backup must go to another file than the database")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    started = time.perf_counter()
    try:
        source = sqlite3.connect(db, timeout=5)  # read-write open: a read-only one cannot always read WAL
    except sqlite3.Error as exc:
        raise BackupError(f"cannot open {db}: {exc}") from exc
    try:
        source.execute("PRAGMA busy_timeout = 5000")
        dest = sqlite3.connect(partial)
        try:
            source.backup(dest, pages=PAGES_PER_STEP, sleep=0.005)
            dest.execute("PRAGMA journal_mode = DELETE")
            check = [row[0] for row in dest.execute("PRAGMA integrity_check")]
            if check != ["ok"]:
                raise BackupError("the copy failed its integrity check: " + "; ".join(map(str, check[:5])))
            version = dest.execute("PRAGMA user_version").fetchone()[0]
            pages = dest.execute("PRAGMA page_count").fetchone()[0]
        finally:
            dest.close()
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(f"backup of {db} failed: {exc}") from exc
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        source.close()
    with open(partial, "rb") as handle:
        os.fsync(handle.fileno())
    os.replace(partial, target)
    return {"pages": pages, "bytes": target.stat().st_size, "schema_version": version,
            "seconds": time.perf_counter() - started}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=prog("backup"),
                                     description="Copy the bot's live database safely (SQLite online backup).")
    parser.add_argument("path", help="where to write the copy")
    parser.add_argument("--db", default=DEFAULT_DB, help=f"the database to copy (default: {DEFAULT_DB})")
    parser.add_argument("--force", action="store_true", help="replace PATH if it exists")
    args = parser.parse_args(argv)
    try:
        facts = backup(args.db, args.path, overwrite=args.force)
    except BackupError as exc:
        print(f"backup failed: {exc}", file=sys.stderr)
        return 1
    print(f"backed up {args.db} to {args.path}: {facts['bytes']:,} bytes, schema version {facts['schema_version']}, "
          f"integrity ok, {facts['seconds']:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
