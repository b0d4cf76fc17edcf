"""Backups of a PostgreSQL database with PostgreSQL's own tools, and putting one back.

``backup_postgres(url, target)`` runs ``pg_dump --format=custom`` (one consistent snapshot, however busy the bot
is), under a temporary name beside the target, checks that ``pg_restore`` can read the archive back, and only then
renames it onto the target. The daily secret is left out (``--exclude-table-data=bot_secrets``) unless asked for.

``restore_postgres(archive, url)`` puts such an archive back with ``pg_restore --clean --single-transaction``
(all or nothing) while no other session uses the database (the bot stopped), then the daily secret: the archive's
own, else the one in ``secret_from`` (another archive), else the one of the database being replaced.

The tools are found on ``PATH`` or in Debian's ``/usr/lib/postgresql/<version>/bin`` (the newest). Without them
both refuse in one line that says what to install. The password never reaches a command line (``ps`` shows those):
it goes to the tools in ``PGPASSWORD``.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import subprocess
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

import asyncpg

from storage import migrate
from storage.backends.base import redact, url_problem
from storage.backup import BackupError, partial_path
from storage.errors import DatabaseError

SECRETS_TABLE = "bot_secrets"
TOOL_TIMEOUT = 6 * 3600  # seconds; a dump of a very large database takes long, a hung one must still end


def find_tool(name: str) -> Path | None:
    """``pg_dump`` / ``pg_restore`` on PATH, else in the newest /usr/lib/postgresql/<version>/bin."""
    found = shutil.which(name)
    if found:
        return Path(found)
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                      key=lambda p: int(Path(p).parents[1].name) if Path(p).parents[1].name.isdigit() else 0)
    return Path(versions[-1]) if versions else None


def _tool(name: str, instead: str) -> Path:
    path = find_tool(name)
    if path is None:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client); {instead}")
    return path


def _without_password(url: str) -> tuple[str, dict[str, str]]:
    """(the URL without its password, the environment that gives the tools the password)."""
    parts = urlsplit(url)
    env = dict(os.environ)
    if parts.password is None:
        return url, env
    env["PGPASSWORD"] = unquote(parts.password)  # as the URL carries it, percent-encoded; the tools want it as is
    host = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}@{host}" if user else host)), env


def _run(command: list[str | os.PathLike], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    try:
        result = subprocess.run([str(part) for part in command], capture_output=True, text=True, env=env,
                                timeout=TOOL_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise BackupError(f"{Path(command[0]).name} did not finish within {TOOL_TIMEOUT // 3600} hours") from None
    if result.returncode != 0:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        raise BackupError(f"{Path(command[0]).name} failed: {lines[0].strip() if lines else result.returncode}")
    return result


def _listing(archive: Path) -> str:
    """The archive's table of contents (``pg_restore --list``): also proves it is a readable pg_dump archive."""
    tool = _tool("pg_restore", "a PostgreSQL backup is read with pg_restore")
    try:
        return _run([tool, "--list", archive]).stdout
    except BackupError:
        raise BackupError(f"{archive} is not a PostgreSQL backup (a file written by `backup` from PostgreSQL); "
                          "a SQLite file goes into PostgreSQL with `scoundrel-bot copy-db FILE URL`") from None


def _holds_secret(listing: str) -> bool:
    return any(line.split()[-3:-1] == ["public", SECRETS_TABLE] and "TABLE DATA" in line
               for line in listing.splitlines() if not line.startswith(";"))


def _archive_version(archive: Path) -> int:
    """The schema version recorded in the archive's ``schema_version`` table (its COPY data, read back)."""
    tool = _tool("pg_restore", "")
    text = _run([tool, "--data-only", "--table=schema_version", "--file=-", archive]).stdout
    versions = [int(line.split("\t", 1)[0]) for line in text.splitlines()
                if line[:1].isdigit() and "\t" in line]
    return max(versions, default=0)


def _usable(url: str) -> None:
    """Refuse, in one line, a URL the tools and the driver cannot read (before anything is written)."""
    problem = url_problem(url)
    if problem is not None:
        raise DatabaseError(f"cannot use {redact(url)}: {problem}")


async def _connect(url: str) -> asyncpg.Connection:
    _usable(url)
    try:
        return await asyncpg.connect(url, timeout=10)
    except (TimeoutError, OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise DatabaseError(f"cannot connect to PostgreSQL at {redact(url)}: {type(exc).__name__}") from exc


async def _fetch(url: str, sql: str, *args) -> list:
    conn = await _connect(url)
    try:
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()


async def _schema_version(url: str) -> int:
    rows = await _fetch(url, "SELECT to_regclass('schema_version') IS NOT NULL")
    if not rows[0][0]:
        return 0
    return (await _fetch(url, "SELECT coalesce(max(version), 0) FROM schema_version"))[0][0]


def backup_postgres(url: str, target: str | os.PathLike, *, overwrite: bool = False, with_secret: bool = False,
                    check: bool = True) -> dict:
    """``pg_dump`` the database at ``url`` into ``target`` (custom format); returns facts about the copy."""
    _usable(url)
    dump = _tool("pg_dump", "or copy the database into a SQLite file with `scoundrel-bot copy-db URL FILE`")
    target = Path(target)
    if target.is_dir():
        raise BackupError(f"{target} is a directory: name the file to write")
    if target.exists() and not overwrite:
        raise BackupError(f"{target} already exists (pass --force to replace it)")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = partial_path(target)
    address, env = _without_password(url)
    started = time.perf_counter()
    version = asyncio.run(_schema_version(url))
    command: list[str | os.PathLike] = [dump, "--format=custom", f"--file={partial}", f"--dbname={address}"]
    if not with_secret:
        command.append(f"--exclude-table-data={SECRETS_TABLE}")
    try:
        _run(command, env)
        listing = _listing(partial) if check else ""
        if check and "TABLE public games" not in listing:
            raise BackupError("the archive pg_dump wrote has no games table")
        with open(partial, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return {"schema_version": version, "secret": with_secret, "checked": check, "bytes": target.stat().st_size,
            "seconds": time.perf_counter() - started}


async def _other_sessions(url: str) -> int:
    rows = await _fetch(url, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                             "AND pid <> pg_backend_pid()")
    return rows[0][0]


async def _secrets(url: str) -> list[tuple[str, bytes]]:
    if not (await _fetch(url, f"SELECT to_regclass('{SECRETS_TABLE}') IS NOT NULL"))[0][0]:
        return []
    return [(r[0], bytes(r[1])) for r in await _fetch(url, f"SELECT name, value FROM {SECRETS_TABLE}")]


async def _put_secrets(url: str, secret: list[tuple[str, bytes]]) -> None:
    conn = await _connect(url)
    try:
        async with conn.transaction():
            await conn.execute(f"DELETE FROM {SECRETS_TABLE}")
            await conn.executemany(f"INSERT INTO {SECRETS_TABLE} (name, value) VALUES ($1, $2)", secret)
    finally:
        await conn.close()


def restore_postgres(archive: str | os.PathLike, url: str, *, secret_from: str | os.PathLike | None = None,
                     new_secret: bool = False) -> dict:
    """Put ``archive`` (written by ``backup_postgres``) in place of the database at ``url``; the bot stopped."""
    _usable(url)
    archive = Path(archive)
    if not archive.is_file():
        raise BackupError(f"no backup at {archive}")
    restore = _tool("pg_restore", "a PostgreSQL backup is put back with pg_restore")
    has_secret = _holds_secret(_listing(archive))
    migrate.check_version(_archive_version(archive), str(archive), migrate.latest_version("pg_migrations"))
    if asyncio.run(_other_sessions(url)):
        raise BackupError(f"{redact(url)} is in use: stop the bot (every process) before restoring")
    source_of_secret: str | None = "the backup" if has_secret else None
    old: list[tuple[str, bytes]] = []
    if not has_secret and secret_from is not None:
        if not _holds_secret(_listing(Path(secret_from))):
            raise BackupError(f"{secret_from} holds no daily secret")
        source_of_secret = str(secret_from)
    elif not has_secret and not new_secret:
        old = asyncio.run(_secrets(url))
        if not old:
            raise BackupError("the backup holds no daily secret: pass --secret-from a copy made with --with-secret "
                              "(or --new-secret to start a new one: every daily deal from today on changes)")
        source_of_secret = f"the database being replaced ({redact(url)})"
    address, env = _without_password(url)
    _run([restore, "--clean", "--if-exists", "--no-owner", "--no-acl", "--single-transaction", "--exit-on-error",
          f"--dbname={address}", archive], env)
    if secret_from is not None and source_of_secret == str(secret_from):
        _run([restore, "--data-only", f"--table={SECRETS_TABLE}", "--single-transaction", "--exit-on-error",
              f"--dbname={address}", secret_from], env)
    elif old:
        asyncio.run(_put_secrets(url, old))
    version = 0
    with contextlib.suppress(DatabaseError):
        version = asyncio.run(_schema_version(url))
    return {"schema_version": version, "secret_from": source_of_secret}


__all__ = ["backup_postgres", "find_tool", "restore_postgres"]
