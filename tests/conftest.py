"""Suite-wide test setup.

Temporary files (every test database, pytest's ``tmp_path``, the PostgreSQL test servers) go to the RAM disk
/dev/shm when it has room for a whole run: SQLite still runs for real on real files, but the fsyncs that
``synchronous=FULL`` asks for cost nothing there, which halves the suite's wall time. A container's /dev/shm is
often 64 MB, less than one run writes (about 340 MB): then they stay in the system's temporary directory on disk.
The PostgreSQL test servers need little of /dev/shm themselves (their dynamic shared memory peaks near 2 MB).
Durability against a killed process is tested either way (tests/storage/test_concurrency.py); power loss cannot
be tested here.
"""

from __future__ import annotations

import os
import tempfile

_RAM_DISK = "/dev/shm"
_RAM_DISK_ROOM = 1 << 30  # bytes free before the suite writes there: a run's 340 MB with room to spare


def ram_disk_has_room(path: str = _RAM_DISK, room: int = _RAM_DISK_ROOM) -> bool:
    try:
        free = os.statvfs(path)
    except OSError:  # no such directory
        return False
    return os.access(path, os.W_OK) and free.f_bavail * free.f_frsize >= room


if ram_disk_has_room():
    tempfile.tempdir = _RAM_DISK


# --- a real PostgreSQL server (tests/postgres_server.py) -------------------------------------------------------
import pytest  # noqa: E402

from tests.postgres_server import SKIP_REASON, PostgresServer, find_bindir  # noqa: E402


@pytest.fixture(scope="session")
def postgres_server():
    """One PostgreSQL server per test process (per xdist worker), removed at the end. Without the binaries the
    tests that need it are skipped, except under CI (CI=true), where that is a failure."""
    bindir = find_bindir()
    if bindir is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI=true but {SKIP_REASON}")
        pytest.skip(SKIP_REASON)
    server = PostgresServer(bindir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(postgres_server):
    """The URL of a fresh database at the latest schema on the test server, dropped after the test."""
    url = postgres_server.create_database(template=postgres_server.migrated_template())
    try:
        yield url
    finally:
        postgres_server.drop_database(url)


@pytest.fixture
def pg_empty_url(postgres_server):
    """The URL of a fresh, empty database (no schema at all), dropped after the test."""
    url = postgres_server.create_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)


def pytest_configure(config):
    config.addinivalue_line("markers", "sqlite_only: a storage test about SQLite files; not run on PostgreSQL")


def pytest_collection_modifyitems(config, items):
    """Drop the [postgres] variant of tests marked sqlite_only (reported as deselected, not skipped)."""
    kept, dropped = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if params.get("backend") == "postgres" and item.get_closest_marker("sqlite_only"):
            dropped.append(item)
        else:
            kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
