"""A real PostgreSQL server for the tests, started from Debian's ``postgresql`` binaries and thrown away after.

One server per test process (each xdist worker has its own), in a temporary directory, listening on 127.0.0.1 at
a free port with ``trust`` authentication; every test gets a fresh database of its own. PostgreSQL refuses to run
as root: as root the server runs as the package's ``postgres`` user (``runuser``).

``fsync=off``: the tests kill *processes* (the bot, or the server with SIGKILL), and the operating system keeps
what they wrote; only a power cut would need the fsyncs, which cannot be tested here and would slow every test.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

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

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.as_root = os.geteuid() == 0
        self.root = Path(tempfile.mkdtemp(prefix="scoundrel-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.user = "postgres" if self.as_root else os.environ.get("USER", "postgres")
        self._names = itertools.count(1)

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
                   "-c fsync=off -c full_page_writes=off -c max_connections=200 -c shared_buffers=32MB")
        result = self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-o", options, "-w",
                           "-t", "60", "start", check=False)
        if result.returncode != 0:
            log = (self.root / "log").read_text(errors="replace") if (self.root / "log").exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {result.stderr}\n{log[-2000:]}")

    def server_stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.server_stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def _psql(self, sql: str) -> None:
        result = self._run("psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user, "-d", "postgres",
                           "-v", "ON_ERROR_STOP=1", "-qc", sql, check=False)
        if result.returncode != 0:
            raise RuntimeError(result.stderr)

    def create_database(self, template: str | None = None) -> str:
        """A new database (empty, or a copy of the database at the URL ``template``); its URL."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        source = template.rsplit("/", 1)[1] if template else "template0"
        self._psql(f"CREATE DATABASE {name} TEMPLATE {source}")
        return self.url(name)

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        with contextlib.suppress(RuntimeError):
            self._psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._run("pg_isready", "-h", "127.0.0.1", "-p", str(self.port), check=False).returncode == 0:
                return
            time.sleep(0.1)
        raise RuntimeError("PostgreSQL did not come back")
