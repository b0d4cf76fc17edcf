"""Settings: every bad value stops start-up with one line, and the token never shows."""

from __future__ import annotations

import io
import logging
from datetime import time

import pytest

from bot.config import TOKEN_ENV, ConfigError, load_config
from bot.redaction import REDACTED, ScrubSecrets
from bot.run import main
from tests.discord.harness import FAKE_TOKEN

OTHER_TOKEN = "OTk5OTk5OTk5OTk5OTk5OTk5.XyZaBc.another-fake-token-for-tests-99999999"


def write(tmp_path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_example_config_loads_with_a_token_from_the_environment():
    config = load_config("config.example.toml", {TOKEN_ENV: FAKE_TOKEN})
    assert config.token == FAKE_TOKEN
    assert config.default_preset == "classic" and config.log_level == "INFO" and config.dev_guild_id is None
    assert config.database.name == "scoundrel.sqlite3" and config.database.is_absolute()
    assert config.daily_enabled and config.daily_post_time == time(0, 0)
    assert FAKE_TOKEN not in repr(config)


def test_the_environment_token_wins_and_paths_are_relative_to_the_file(tmp_path):
    path = write(tmp_path, f'[bot]\ntoken = "{OTHER_TOKEN}"\ndatabase = "data/s.db"\ndev_guild_id = 42\n'
                           'log_level = "debug"\ndefault_preset = "lenient"\n[daily]\npost_time = "09:30"\n')
    assert load_config(path, {}).token == OTHER_TOKEN
    config = load_config(path, {TOKEN_ENV: FAKE_TOKEN})
    assert config.token == FAKE_TOKEN
    assert config.database == tmp_path / "data" / "s.db"
    assert (config.dev_guild_id, config.log_level, config.default_preset) == (42, "DEBUG", "lenient")
    assert config.daily_post_time == time(9, 30) and config.log_level_number == logging.DEBUG


@pytest.mark.parametrize("text, expected", [
    ("", "no bot token"),
    ('[bot]\ntoken = "not a token"', "does not look like a Discord bot token"),
    ('[bot]\nlog_level = "LOUD"', "log_level must be one of"),
    ("[bot]\ndev_guild_id = \"abc\"", "dev_guild_id must be a server id"),
    ("[bot]\ndev_guild_id = -5", "dev_guild_id must be a server id"),
    ('[bot]\ndefault_preset = "hard"', "default_preset must be one of"),
    ('[bot]\ndatabse = "x.db"', "unknown setting 'databse' in [bot]"),
    ("[bots]\n", "unknown section [bots]"),
    ("[daily]\nenabled = \"yes\"", "[daily] enabled must be true or false"),
    ('[daily]\npost_time = "25:00"', "post_time must be a UTC time"),
    ("[bot\n", "is not valid TOML"),
])
def test_bad_settings_give_one_line(tmp_path, text, expected):
    environ = {} if expected in ("no bot token", "does not look like a Discord bot token") else {TOKEN_ENV: FAKE_TOKEN}
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text), environ)
    message = str(caught.value)
    assert expected in message and "\n" not in message and FAKE_TOKEN not in message


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "nope.toml", {TOKEN_ENV: FAKE_TOKEN})


def test_run_without_token_exits_with_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(TOKEN_ENV, raising=False)
    path = write(tmp_path, '[bot]\ndatabase = "s.db"\n')
    assert main(["--config", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("error: no bot token")
    assert "Traceback" not in err
    assert not (tmp_path / "s.db").exists()  # nothing was started


def test_run_with_a_malformed_token_never_prints_it(tmp_path, monkeypatch, capsys):
    bad = "x" * 30 + " oops"
    monkeypatch.setenv(TOKEN_ENV, bad)
    assert main(["--config", str(write(tmp_path, ""))]) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "does not look like a Discord bot token" in err
    assert bad not in out + err and "x" * 30 not in out + err


def test_run_rejects_a_bad_dev_guild_option(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(TOKEN_ENV, FAKE_TOKEN)
    assert main(["--config", str(write(tmp_path, "")), "--dev-guild", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --dev-guild") and FAKE_TOKEN not in err


def test_log_filter_scrubs_the_token_from_messages_arguments_and_tracebacks():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ScrubSecrets(FAKE_TOKEN))
    logger = logging.getLogger("tests.redaction")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("plain %s", FAKE_TOKEN)
        logger.warning(f"inline {FAKE_TOKEN}")
        try:
            raise RuntimeError(f"failed with {FAKE_TOKEN}")
        except RuntimeError:
            logger.exception("boom")
        logger.warning("nothing secret %d", 5)
    finally:
        logger.removeHandler(handler)
    text = stream.getvalue()
    assert FAKE_TOKEN not in text
    assert text.count(REDACTED) == 3 and "nothing secret 5" in text and "RuntimeError" in text


def test_run_with_a_database_from_a_newer_version_stops_before_connecting(tmp_path, monkeypatch, capsys):
    import sqlite3

    database = tmp_path / "newer.sqlite3"
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA user_version = 999")
    monkeypatch.setenv(TOKEN_ENV, FAKE_TOKEN)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        assert main(["--config", str(write(tmp_path, f'[bot]\ndatabase = "{database.name}"\n'))]) == 2
    finally:  # main configures the root logger for the process; put it back for the other tests
        root.handlers[:] = handlers
        root.setLevel(level)
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "newer version" in err
    assert "Traceback" not in err and FAKE_TOKEN not in err
