"""``scoundrel-bot restore BACKUP``: put a backup in place of the bot's database (the bot must be stopped)."""

from __future__ import annotations

import argparse
import sys

from bot.config import add_database_options, database_from
from storage import is_postgres
from storage.backends.base import redact
from storage.backup import restore
from storage.errors import StorageError
from terminal.usage import prog


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog=prog("restore"),
        description="Replace the bot's database with a backup, after checking it. The daily secret comes from the "
                    "backup, else from --secret-from, else from the database being replaced.")
    parser.add_argument("backup", help="a file written by `backup`")
    add_database_options(parser)
    secret = parser.add_mutually_exclusive_group()
    secret.add_argument("--secret-from", metavar="FILE",
                        help="a copy made with `backup --with-secret` to take the daily secret from")
    secret.add_argument("--new-secret", action="store_true",
                        help="let the bot make a new daily secret (today's and every later daily deal change)")
    args = parser.parse_args(argv)
    db = database_from(args)  # a ConfigError is reported by bot.cli (exit 2)
    try:
        if is_postgres(db):
            from storage.pg_backup import restore_postgres

            facts = restore_postgres(args.backup, str(db), secret_from=args.secret_from, new_secret=args.new_secret)
        else:
            facts = restore(args.backup, db, secret_from=args.secret_from, new_secret=args.new_secret)
    except StorageError as exc:  # BackupError, or SchemaTooNew for a backup from a newer version
        print(f"restore failed: {exc}", file=sys.stderr)
        return 1
    where = f"daily secret from {facts['secret_from']}" if facts["secret_from"] else "a new daily secret on start"
    shown = redact(str(db)) if is_postgres(db) else db
    print(f"restored {args.backup} to {shown}: schema version {facts['schema_version']}, {where}")
    return 0
