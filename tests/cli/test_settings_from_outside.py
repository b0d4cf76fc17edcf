"""Settings and database URLs as an operator writes them, whatever they hold: each command answers a wrong one
in one line (exit status 2), never a traceback, never the password; every setting read from the environment is
tried with any Unicode at any length."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.config import ENV_NAMES, TOKEN_ENV, ConfigError, check_shards, database_from, load_config
from storage.backends.base import redact, url_problem
from tests.discord.harness import FAKE_TOKEN
from tests.outside_text import outside

FAST = settings(max_examples=150, deadline=None)
PASSWORD = "Pw:S3cret@7f3a9c/x"
ENCODED = "Pw%3AS3cret%407f3a9c%2Fx"


def command(*args: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("SCOUNDREL_", "DISCORD_"))}
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True, timeout=60,
                          env=environ)


BROKEN = [f"postgresql://bot:{ENCODED}@db.example:54x2/scoundrel", f"postgresql://bot:{ENCODED}@db.example:①/scoundrel",
          f"postgresql://bot:{ENCODED}@db.example:99999/scoundrel", f"postgresql://bot:{ENCODED}@[::1/scoundrel"]


def refused_in_one_line(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: --db: cannot use postgresql://")
    assert "***@" in done.stderr and PASSWORD not in done.stderr and ENCODED not in done.stderr


@pytest.mark.parametrize("url", BROKEN)
def test_backup_refuses_a_url_it_cannot_read_in_one_line(tmp_path, url):
    refused_in_one_line(command("backup", str(tmp_path / "copy.pgdump"), "--db", url))
    assert not (tmp_path / "copy.pgdump").exists()


def test_restore_maintenance_and_forget_refuse_it_alike(tmp_path):
    (tmp_path / "copy.pgdump").write_bytes(b"PGDMP")
    for args in (["restore", str(tmp_path / "copy.pgdump")], ["maintenance"], ["forget", "--user", "5"]):
        refused_in_one_line(command(*args, "--db", BROKEN[0]))


def test_the_words_for_each_kind_of_broken_url():
    assert url_problem("postgresql://u@h:54x2/db") == "the port must be a number from 1 to 65535, not '54x2'"
    assert url_problem("postgresql://u@h:0/db") == "the port must be a number from 1 to 65535, not '0'"
    assert url_problem("postgresql://u@[::1/db") == "it is not a URL (Invalid IPv6 URL)"
    assert url_problem("postgresql://u@h/db?sslmode") == "its query string must be name=value pairs joined by &"
    assert url_problem("postgresql://u@h/db?port=x") == "the port must be a number from 1 to 65535"
    assert url_problem("postgresql://u@h1,/db") == "a host in its list of hosts is empty"
    for fine in ("postgresql://u:p@h:5432/db", "postgresql://h1:5432,h2:5433/db", "postgresql://[::1]:5432/db",
                 "postgres://u@h/db?sslmode=require", "postgresql:///db?host=/run/postgresql", "postgresql://h:/db"):
        assert url_problem(fine) is None, fine


@FAST
@given(outside(":@[]/?=,%"), st.sampled_from(["postgresql://", "postgres://"]))
def test_any_database_url_is_read_or_refused_in_one_line_without_its_password(text, scheme):
    url = f"{scheme}bot:{ENCODED}@{text}"
    try:
        database_from(argparse.Namespace(db=url, config=None))
    except ConfigError as refused:
        message = str(refused)
        assert "\n" not in message.strip() and ENCODED not in message
    assert ENCODED not in redact(url)
    assert ENCODED not in redact(f"{scheme}bot:{ENCODED}@{text}@host/db")


@FAST
@given(st.sampled_from(sorted(set(ENV_NAMES.values()) - {"SCOUNDREL_ACTIVITY_CLIENT_SECRET"})), outside(":,#"))
def test_any_setting_from_the_environment_is_read_or_refused_in_one_line(name, value):
    try:
        load_config(None, {TOKEN_ENV: FAKE_TOKEN, name: value, "SCOUNDREL_DATABASE": "/nonexistent/x.db"}
                    if name != "SCOUNDREL_DATABASE" else {TOKEN_ENV: FAKE_TOKEN, name: value})
    except ConfigError as refused:
        assert "\n" not in str(refused).strip()


@FAST
@given(outside(","), outside(","))
def test_shard_options_from_any_text(count, ids):
    try:
        shard_count, shard_ids = check_shards(count, ids)
    except ConfigError as refused:
        assert len(str(refused)) < 200
    else:
        assert shard_count is None or shard_count >= 1
