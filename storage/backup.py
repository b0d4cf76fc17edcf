"""Copies of a live database that always finish, and putting one back.

``backup(db, target)`` writes the copy with ``VACUUM INTO`` from one read transaction. Under WAL a reader never
blocks the bot's writes and is never restarted by them, so the copy finishes in time proportional to the
database's size however busy the bot is (the online backup API instead starts over whenever another connection
commits, and never finishes on a busy bot). The copy is also compacted: free pages are left behind.

The copy is flushed to disk every ``FLUSH_BYTES`` while it is written (see ``_Pacer``). It is made under a
temporary name in the target's directory (``.NAME.PID.backup-partial``), checked with
``PRAGMA integrity_check``, switched to a single self-contained file (``journal_mode=DELETE``), flushed to disk
and only then renamed onto the target, so the target is never a half-written database. A copy whose process was
killed is removed by the next backup into that directory (``remove_stale_partials``).

The daily secret (every future daily deal is derived from it) is left out of a copy unless asked for: it is
deleted from the copy with ``secure_delete`` on, so its bytes are overwritten, not just unlinked. ``restore``
puts a copy back and takes the secret from a copy that has it (or the database being replaced).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sqlite3
import time
from pathlib import Path

from storage import migrate
from storage.errors import StorageError

PARTIAL_SUFFIX = ".backup-partial"
_PARTIAL_NAME = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)" + re.escape(PARTIAL_SUFFIX) + r"(-journal|-wal|-shm)?$")
SECRETS_TABLE = "bot_secrets"
BUSY_TIMEOUT_MS = 5000
PROGRESS_STEPS = 100_000  # SQLite VM steps between calls of the progress handler
FLUSH_BYTES = 16 * 1024 * 1024  # the growing copy is flushed to disk every this many bytes


class BackupError(StorageError):
    """The copy could not be made or put back; the message says why in one line."""


def partial_path(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}{PARTIAL_SUFFIX}")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


def remove_stale_partials(directory: str | os.PathLike) -> list[Path]:
    """Delete unfinished copies (and their journals) left in ``directory`` by backups that were killed."""
    removed = []
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        for path in Path(directory).iterdir():
            match = _PARTIAL_NAME.match(path.name)
            if match and not _alive(int(match["pid"])):
                path.unlink(missing_ok=True)
                removed.append(path)
    return removed


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
    return conn


class _Pacer:
    """The progress handler of the copy. VACUUM INTO is one long C call: running Python code now and then lets
    Ctrl-C stop it (SQLite answers "interrupted"). It also writes the copy to disk every ``FLUSH_BYTES`` as it
    grows, from the copying thread: left to the final fsync, a gigabyte of dirty pages reaches the disk in one
    burst and the bot's commits (each an fsync on the same disk) wait behind it for seconds."""

    def __init__(self, path: Path) -> None:
        self.path, self.flushed = path, 0
        self.fd: int | None = None

    def __call__(self) -> int:
        if self.fd is None:
            try:
                self.fd = os.open(self.path, os.O_RDONLY)
            except FileNotFoundError:
                return 0
        size = os.fstat(self.fd).st_size
        if size - self.flushed >= FLUSH_BYTES:
            os.fdatasync(self.fd)
            self.flushed = size
        return 0

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def has_secret(path: str | os.PathLike) -> bool:
    conn = _connect(Path(path))
    try:
        return conn.execute(f"SELECT count(*) FROM {SECRETS_TABLE}").fetchone()[0] > 0
    except sqlite3.Error:
        return False
    finally:
        conn.close()


def backup(db: str | os.PathLike, target: str | os.PathLike, *, overwrite: bool = False,
           with_secret: bool = False, check: bool = True) -> dict:
    """Copy ``db`` to ``target``; returns facts about the copy (bytes, schema version, seconds, secret)."""
    db, target = Path(db), Path(target)
    if not db.is_file():
        raise BackupError(f"no database at {db}")
    if target.is_dir():
        raise BackupError(f"{target} is a directory: name the file to write")
    if target.exists() and not overwrite:
        raise BackupError(f"{target} already exists (pass --force to replace it)")
    if target.resolve() == db.resolve():
        raise BackupError("the backup must go to another file than the database")
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_partials(target.parent)
    partial = partial_path(target)
    for leftover in (partial, Path(f"{partial}-journal")):
        leftover.unlink(missing_ok=True)
    started = time.perf_counter()
    try:
        try:
            source = _connect(db)  # read-write open: a read-only one cannot always read a WAL database
        except sqlite3.Error as exc:
            raise BackupError(f"cannot open {db}: {exc}") from exc
        pacer = _Pacer(partial)
        try:
            source.set_progress_handler(pacer, PROGRESS_STEPS)
            source.execute("VACUUM INTO ?", (str(partial),))
        except sqlite3.OperationalError as exc:
            if "interrupt" in str(exc):
                raise KeyboardInterrupt from None
            raise
        finally:
            pacer.close()
            source.close()
        copied = time.perf_counter() - started
        facts = _finish_copy(partial, with_secret=with_secret, check=check)
        with open(partial, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(partial, target)
        _fsync_directory(target.parent)
    except sqlite3.Error as exc:
        raise BackupError(f"backup of {db} failed: {' '.join(str(exc).split())}") from exc
    finally:
        for leftover in (partial, Path(f"{partial}-journal")):
            leftover.unlink(missing_ok=True)
    facts.update(bytes=target.stat().st_size, seconds=time.perf_counter() - started, copy_seconds=copied)
    return facts


def _finish_copy(path: Path, *, with_secret: bool, check: bool) -> dict:
    conn = _connect(path)
    try:
        conn.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, whatever the source used
        secret_rows = 0
        if not with_secret:
            conn.execute("PRAGMA secure_delete = ON")  # overwrite the deleted bytes, not just free the page
            secret_rows = conn.execute(f"DELETE FROM {SECRETS_TABLE}").rowcount
        if check:
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise BackupError("the copy failed its integrity check: " + "; ".join(map(str, problems[:5])))
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        kept = conn.execute(f"SELECT count(*) FROM {SECRETS_TABLE}").fetchone()[0]
    finally:
        conn.close()
    return {"schema_version": version, "secret": kept > 0, "secret_removed": secret_rows > 0, "checked": check}


def _fsync_directory(directory: Path) -> None:
    with contextlib.suppress(OSError):  # not every file system lets a directory be opened
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def restore(copy: str | os.PathLike, db: str | os.PathLike, *, secret_from: str | os.PathLike | None = None,
            new_secret: bool = False) -> dict:
    """Put ``copy`` in place of ``db`` (the bot must be stopped). The daily secret comes from the copy itself,
    else from ``secret_from`` (a copy made with the secret, or the database being replaced); with neither,
    ``new_secret=True`` accepts that the bot makes a new one (today's and every later daily deal change)."""
    copy, db = Path(copy), Path(db)
    if not copy.is_file():
        raise BackupError(f"no backup at {copy}")
    if db.exists() and _in_use(db):
        raise BackupError(f"{db} is in use: stop the bot before restoring")
    conn = _connect(copy)
    try:
        problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.Error as exc:
        raise BackupError(f"{copy} is not a usable backup: {exc}") from exc
    finally:
        conn.close()
    if problems != ["ok"]:
        raise BackupError(f"{copy} failed its integrity check: " + "; ".join(map(str, problems[:5])))
    migrate.check_version(version, str(copy))
    secret = _read_secrets(copy)
    source_of_secret = "the backup" if secret else None
    if not secret and secret_from is not None:
        secret = _read_secrets(Path(secret_from))
        if not secret:
            raise BackupError(f"{secret_from} holds no daily secret")
        source_of_secret = str(secret_from)
    if not secret and db.exists() and not new_secret:
        secret = _read_secrets(db)
        source_of_secret = f"the database being replaced ({db})" if secret else None
    if not secret and not new_secret:
        raise BackupError("the backup holds no daily secret: pass --secret-from a copy made with --with-secret "
                          "(or --new-secret to start a new one: every daily deal from today on changes)")
    staging = db.with_name(f".{db.name}.{os.getpid()}.restoring")
    try:
        shutil.copyfile(copy, staging)
        conn = _connect(staging)
        try:
            conn.execute("PRAGMA journal_mode = DELETE")
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(f"DELETE FROM {SECRETS_TABLE}")
            conn.executemany(f"INSERT INTO {SECRETS_TABLE} (name, value) VALUES (?, ?)", secret)
            conn.execute("COMMIT")
        finally:
            conn.close()
        with open(staging, "rb") as handle:
            os.fsync(handle.fileno())
        for suffix in ("-wal", "-shm", "-journal"):  # the old database's journals belong to the old file
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        os.replace(staging, db)
        _fsync_directory(db.parent)
    except sqlite3.Error as exc:
        raise BackupError(f"restore failed: {exc}") from exc
    finally:
        staging.unlink(missing_ok=True)
    return {"schema_version": version, "secret_from": source_of_secret}


def _read_secrets(path: Path) -> list[tuple[str, bytes]]:
    try:
        conn = _connect(path)
    except sqlite3.Error:
        return []
    try:
        return [(name, bytes(value)) for name, value in conn.execute(f"SELECT name, value FROM {SECRETS_TABLE}")]
    except sqlite3.Error:
        return []
    finally:
        conn.close()


def _in_use(db: Path) -> bool:
    """True while another connection (the bot) has the database open in WAL mode or holds a lock."""
    conn = _connect(db)
    try:
        conn.execute("PRAGMA busy_timeout = 0")
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        if mode == "wal":
            # Only the last connection to close can switch WAL off: if that fails, someone else is connected.
            try:
                switched = conn.execute("PRAGMA journal_mode = DELETE").fetchone()[0]
            except sqlite3.OperationalError:
                return True
            if switched != "delete":
                return True
            conn.execute("PRAGMA journal_mode = WAL")
            return False
        conn.execute("BEGIN EXCLUSIVE")
        conn.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError:
        return True
    finally:
        conn.close()
