"""A real PostgreSQL server for the tests, started from Debian's ``postgresql`` binaries and thrown away after.

One server per test process (each xdist worker has its own), in a temporary directory, listening on 127.0.0.1 at
a free port with ``trust`` authentication; every test gets a fresh database of its own. PostgreSQL refuses to run
as root: as root the server runs as the package's ``postgres`` user (``runuser``).

``fsync=off``: the tests kill *processes* (the bot, or the server with SIGKILL), and the operating system keeps
what they wrote; only a power cut would need the fsyncs, which cannot be tested here and would slow every test.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import itertools
import os
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import asyncpg


class RawIntegrityError(sqlite3.IntegrityError):
    """A constraint violation met by a raw block on PostgreSQL, as sqlite3 reports it (one test body, two
    backends)."""


def numbered(sql: str) -> str:
    """A test's raw statement with its ``?`` placeholders numbered ``$1, $2, …`` for PostgreSQL."""
    out, number, quoted = [], 0, False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            number += 1
            out.append(f"${number}")
        else:
            out.append(char)
    return "".join(out)


SKIP_REASON = "PostgreSQL's server binaries are not installed (Debian: apt-get install postgresql)"


def find_bindir() -> Path | None:
    """The newest /usr/lib/postgresql/<version>/bin holding initdb and pg_ctl (or $PG_BINDIR)."""
    candidates = [os.environ["PG_BINDIR"]] if os.environ.get("PG_BINDIR") else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name), reverse=True)
    for candidate in candidates:
        if (Path(candidate) / "initdb").is_file() and (Path(candidate) / "pg_ctl").is_file():
            return Path(candidate)
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PostgresServer:
    """``start()`` initdb + pg_ctl start; ``stop()`` stops it and removes its directory."""

    def __init__(self, bindir: Path, *, durable: bool = False) -> None:
        self.bindir = bindir
        self.durable = durable  # fsync on, as in production (the benchmarks); the tests turn it off
        self.as_root = os.geteuid() == 0
        self.root = Path(tempfile.mkdtemp(prefix="scoundrel-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.user = "postgres" if self.as_root else os.environ.get("USER", "postgres")
        self._names = itertools.count(1)
        self._admin_conn: RawPostgres | None = None
        self._template: str | None = None

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, check=check, capture_output=True, text=True, timeout=60)

    def start(self) -> PostgresServer:
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        os.chmod(self.root, 0o700)
        self._run("initdb", "-D", str(self.data), "-U", self.user, "--auth=trust", "-E", "UTF8", "--no-sync",
                  "--locale=C")
        self.server_start()
        return self

    def server_start(self) -> None:
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.root} "
                   "-c max_connections=200 " + ("-c shared_buffers=256MB" if self.durable else
                                                "-c fsync=off -c full_page_writes=off -c shared_buffers=32MB"))
        result = self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-o", options, "-w",
                           "-t", "60", "start", check=False)
        if result.returncode != 0:
            log = (self.root / "log").read_text(errors="replace") if (self.root / "log").exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {result.stderr}\n{log[-2000:]}")

    def server_stop(self, mode: str = "fast") -> None:
        if self._admin_conn is not None:  # its connection would not survive the stop
            with contextlib.suppress(Exception):
                self._admin_conn.close()
            self._admin_conn = None
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.server_stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def _admin(self) -> RawPostgres:
        if self._admin_conn is None:
            self._admin_conn = RawPostgres(self.url())
        return self._admin_conn

    def create_database(self, template: str | None = None) -> str:
        """A new database (empty, or a copy of the database at the URL ``template``); its URL."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        source = template.rsplit("/", 1)[1] if template else "template0"
        self._admin().execute(f"CREATE DATABASE {name} TEMPLATE {source}")
        return self.url(name)

    def migrated_template(self) -> str:
        """The URL of a database at the latest schema, made once: tests start from copies of it (no migrations)."""
        if self._template is None:
            from storage import open_store

            async def migrate(url: str) -> None:
                await (await open_store(url)).close()

            url = self.create_database()
            worker = threading.Thread(target=asyncio.run, args=(migrate(url),))
            worker.start()
            worker.join()
            self._template = url
        return self._template

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        with contextlib.suppress(asyncpg.PostgresError, OSError):
            self._admin().execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._run("pg_isready", "-h", "127.0.0.1", "-p", str(self.port), check=False).returncode == 0:
                return
            time.sleep(0.1)
        raise RuntimeError("PostgreSQL did not come back")


class _Rows(list):
    def fetchone(self):
        return self[0] if self else None

    def fetchall(self):
        return list(self)


class RawPostgres:
    """A synchronous PostgreSQL connection for the tests' ``raw`` blocks (asyncpg on a private event loop in its
    own thread, so it can be used from inside a running test loop)."""

    def __init__(self, url: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._conn = self._call(asyncpg.connect(url))

    def _call(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=30)

    async def _close(self) -> None:
        if self._conn.is_closed():
            return
        try:
            await self._conn.close(timeout=5)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            self._conn.terminate()  # the server is gone: just drop the socket

    def execute(self, sql: str, params=()) -> _Rows:
        try:
            rows = self._call(self._conn.fetch(numbered(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise RawIntegrityError(str(exc)) from exc
        return _Rows(tuple(row) for row in rows)

    def close(self) -> None:
        try:
            self._call(self._close())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
            self._loop.close()
