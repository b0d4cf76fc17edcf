"""The ``database`` setting: a SQLite path or a PostgreSQL URL (config or environment), and a database that is
down at start-up."""

from __future__ import annotations

import logging
import socket

from bot.config import DATABASE_ENV, TOKEN_ENV, load_config
from bot.run import main
from tests.discord.harness import FAKE_TOKEN

URL = "postgresql://scoundrel:s3cret@db.example:5432/scoundrel"


def write(tmp_path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_postgresql_url_is_kept_as_text_and_never_shown_in_repr(tmp_path):
    config = load_config(write(tmp_path, f'[bot]\ndatabase = "{URL}"\n'), {TOKEN_ENV: FAKE_TOKEN})
    assert config.database == URL and "s3cret" not in repr(config)


def test_a_sqlite_url_is_a_path_relative_to_the_file_and_the_environment_wins(tmp_path):
    path = write(tmp_path, '[bot]\ndatabase = "sqlite:///data/s.db"\n')
    assert load_config(path, {TOKEN_ENV: FAKE_TOKEN}).database == tmp_path / "data" / "s.db"
    assert load_config(path, {TOKEN_ENV: FAKE_TOKEN, DATABASE_ENV: URL}).database == URL


def test_run_with_postgresql_down_exits_2_with_one_line(tmp_path, monkeypatch, capsys):
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv(TOKEN_ENV, FAKE_TOKEN)
    monkeypatch.setenv(DATABASE_ENV, f"postgresql://scoundrel:s3cret@127.0.0.1:{port}/scoundrel")
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        assert main(["--config", str(write(tmp_path, ""))]) == 2
    finally:  # main configures the root logger for the process; put it back for the other tests
        root.handlers[:] = handlers
        root.setLevel(level)
    out, err = capsys.readouterr()
    assert err.startswith("error: cannot connect to PostgreSQL at ") and err.count("\n") == 1, err
    assert f"127.0.0.1:{port}" in err and "s3cret" not in out + err and FAKE_TOKEN not in out + err
    assert "Traceback" not in err
