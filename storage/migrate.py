"""Schema migrations: ``storage/migrations/NNNN_name.sql``, applied in order, recorded in ``PRAGMA user_version``.

Each migration runs in its own ``BEGIN IMMEDIATE`` transaction together with the ``user_version`` bump, so a
database is always at exactly one version (a crash mid-migration leaves the previous one). The version is read
again inside the transaction, so two processes opening an old database at once apply each step once.
A database newer than the code is refused with ``SchemaTooNew`` and left untouched.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources

from storage.errors import DatabaseError, SchemaTooNew

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The file split into complete statements (``sqlite3.complete_statement`` handles triggers)."""
        out, current = [], ""
        for line in self.sql.splitlines(keepends=True):
            current += line
            if sqlite3.complete_statement(current):
                if current.strip():
                    out.append(current.strip())
                current = ""
        if current.strip() and not all(
            ln.strip().startswith("--") or not ln.strip() for ln in current.splitlines()
        ):
            raise DatabaseError(f"migration {self.name} ends with an incomplete statement")
        return out


def migrations(folder: str = "migrations") -> list[Migration]:
    """The numbered migrations in ``storage/<folder>`` (``pg_migrations`` holds PostgreSQL's), in order."""
    found = []
    for entry in resources.files(__package__).joinpath(folder).iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise DatabaseError(f"migrations must be numbered 0001, 0002, ... without gaps; found {migration.name}")
    return found


def latest_version(folder: str = "migrations") -> int:
    found = migrations(folder)
    return found[-1].version if found else 0


def check_version(found: int, path: str, known: int | None = None) -> None:
    known = latest_version() if known is None else known
    if found > known:
        raise SchemaTooNew(path, found, known)


def upgrade(conn: sqlite3.Connection, path: str, target: int | None = None) -> int:
    """Bring ``conn`` (autocommit mode) to ``target`` (default: the latest). Returns the version reached."""
    steps = migrations()
    known = steps[-1].version if steps else 0
    target = known if target is None else target
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    check_version(current, path, known)
    for migration in steps:
        if migration.version <= current or migration.version > target:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            check_version(current, path, known)
            if migration.version <= current:  # another process got there first
                conn.execute("ROLLBACK")
                continue
            if current != migration.version - 1:
                raise DatabaseError(f"{path}: cannot apply {migration.name} to a database at version {current}")
            for statement in migration.statements():
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {migration.version:d}")
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise DatabaseError(f"{path}: migration {migration.name} failed: {exc}") from exc
            raise
        current = migration.version
    return current
