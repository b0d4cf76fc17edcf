"""``backup`` and ``restore`` of a PostgreSQL database whose password holds characters a URL must percent-encode
(``Pw:S3cret@7f3a9c/x``), on a real server that checks the password (SCRAM), as an operator runs them; the bot
and every command read the same URL, and none prints the password."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from urllib.parse import quote

import pytest

from games.engine import Rules
from storage import open_store
from tests.postgres_server import RawPostgres

ROLE = "scoundrel_pw"
PASSWORD = "Pw:S3cret@7f3a9c/x"


@pytest.fixture
def password_url(postgres_server):
    """A database owned by a role that must give PASSWORD (over TCP), and its URL with the password encoded."""
    hba = postgres_server.data / "pg_hba.conf"
    rule = f"host all {ROLE} 127.0.0.1/32 scram-sha-256\n"
    if rule not in hba.read_text():
        hba.write_text(rule + hba.read_text())  # before the file's trust lines: the first match decides
        postgres_server._run("pg_ctl", "-D", str(postgres_server.data), "reload")
    admin = RawPostgres(postgres_server.url())
    name = f"pw_{os.getpid()}"
    try:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.execute(f"DROP ROLE IF EXISTS {ROLE}")
        admin.execute(f"CREATE ROLE {ROLE} LOGIN PASSWORD '{PASSWORD}'")
        admin.execute(f"CREATE DATABASE {name} OWNER {ROLE}")
        yield f"postgresql://{ROLE}:{quote(PASSWORD, safe='')}@127.0.0.1:{postgres_server.port}/{name}"
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.execute(f"DROP ROLE IF EXISTS {ROLE}")
    finally:
        admin.close()


def cli(*args: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("SCOUNDREL_", "DISCORD_", "PG"))}
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True, timeout=180,
                          env=environ)


async def _games(url: str, start: tuple[int, ...] = ()) -> list[int]:
    """Start a game for each of the users ``start``; the ids of the games in progress."""
    store = await open_store(url)  # the bot's own way in, which decodes the password
    try:
        for user in start:
            await store.create_game(user, 5, 6, Rules(), seed=user)
        found = [await store.active_game(user) for user in (1, 2, 3)]
        return sorted(record.id for record in found if record is not None)
    finally:
        await store.close()


def test_backup_and_restore_with_a_password_that_must_be_encoded(password_url, tmp_path):
    assert quote(PASSWORD, safe="") in password_url and PASSWORD not in password_url
    wrong = password_url.replace(quote(PASSWORD, safe=""), "wrong")
    kept = asyncio.run(_games(password_url, start=(1, 2)))
    archive = tmp_path / "scoundrel.pgdump"

    made = cli("backup", str(archive), "--db", password_url)
    assert made.returncode == 0, made.stderr
    assert archive.stat().st_size > 0 and "backed up postgresql://scoundrel_pw:***@" in made.stdout

    asyncio.run(_games(password_url, start=(3,)))  # a third game after the backup: the restore takes it away
    put_back = cli("restore", str(archive), "--db", password_url, "--new-secret")
    assert put_back.returncode == 0, put_back.stderr
    assert asyncio.run(_games(password_url)) == kept

    refused = cli("backup", str(tmp_path / "other.pgdump"), "--db", wrong)  # the server does check the password
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    for done in (made, put_back, refused):
        for shown in (PASSWORD, quote(PASSWORD, safe=""), "S3cret"):
            assert shown not in done.stdout + done.stderr
