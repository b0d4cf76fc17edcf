"""``scoundrel-bot backup PATH``: a consistent, checked copy of the live database (see storage/backup.py)."""

from __future__ import annotations

import argparse
import sys

from bot.config import add_database_options, database_from
from storage import is_postgres
from storage.backends.base import redact
from storage.backup import BackupError, backup
from storage.errors import DatabaseError
from terminal.usage import prog


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog=prog("backup"),
        description="Copy the bot's database while it runs: one consistent moment, checked, renamed into place only "
                    "when complete (SQLite: compacted and integrity-checked; PostgreSQL: pg_dump's custom format). "
                    "The daily secret is left out unless --with-secret.")
    parser.add_argument("path", help="the file to write")
    add_database_options(parser)
    parser.add_argument("--force", action="store_true", help="replace PATH if it exists")
    parser.add_argument("--with-secret", action="store_true",
                        help="keep the daily secret in the copy (whoever holds it can compute every future daily)")
    parser.add_argument("--no-check", action="store_true", help="skip the integrity check of the copy")
    args = parser.parse_args(argv)
    db = database_from(args)  # a ConfigError is reported by bot.cli (exit 2)
    try:
        if is_postgres(db):
            from storage.pg_backup import backup_postgres

            facts = backup_postgres(str(db), args.path, overwrite=args.force, with_secret=args.with_secret,
                                    check=not args.no_check)
        else:
            facts = backup(db, args.path, overwrite=args.force, with_secret=args.with_secret, check=not args.no_check)
    except (BackupError, DatabaseError) as exc:
        print(f"backup failed: {exc}", file=sys.stderr)
        return 1
    checked = ("integrity ok" if not is_postgres(db) else "archive read back") if facts["checked"] else "not checked"
    secret = "with the daily secret" if facts["secret"] else "without the daily secret"
    shown = redact(str(db)) if is_postgres(db) else db
    print(f"backed up {shown} to {args.path}: {facts['bytes']:,} bytes, schema version {facts['schema_version']}, "
          f"{checked}, {secret}, {facts['seconds']:.2f} s")
    return 0
