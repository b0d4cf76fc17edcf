"""Settings from the environment, and what the bot's log lines look like."""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys
from datetime import time

import pytest

from bot.config import ENV_NAMES, TOKEN_ENV, ConfigError, load_config
from bot.logging_setup import setup_logging
from bot.redaction import REDACTED
from tests.discord.harness import FAKE_TOKEN


def test_every_setting_has_an_environment_name():
    assert set(ENV_NAMES.values()) == {
        "SCOUNDREL_DATABASE", "SCOUNDREL_LOG_LEVEL", "SCOUNDREL_LOG_FORMAT", "SCOUNDREL_DEV_GUILD_ID",
        "SCOUNDREL_DEFAULT_PRESET", "SCOUNDREL_DAILY_ENABLED", "SCOUNDREL_DAILY_POST_TIME", "SCOUNDREL_SERVICE_ADDRESS",
        "SCOUNDREL_SHARD_COUNT", "SCOUNDREL_SHARD_IDS", "SCOUNDREL_GLOBAL_RATE_LIMIT", "SCOUNDREL_ACTIVITY_CLIENT_ID",
        "SCOUNDREL_ACTIVITY_CLIENT_SECRET", "SCOUNDREL_ACTIVITY_PUBLIC_URL", "SCOUNDREL_ACTIVITY_API_BASE",
        "SCOUNDREL_ACTIVITY_ADDRESS"}


def test_the_environment_alone_configures_the_bot(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    config = load_config(None, {
        TOKEN_ENV: FAKE_TOKEN, "SCOUNDREL_DATABASE": "data/bot.db", "SCOUNDREL_LOG_LEVEL": "warning",
        "SCOUNDREL_LOG_FORMAT": "JSON", "SCOUNDREL_DEV_GUILD_ID": "42", "SCOUNDREL_DEFAULT_PRESET": "lenient",
        "SCOUNDREL_DAILY_ENABLED": "no", "SCOUNDREL_DAILY_POST_TIME": "09:30"})
    assert config.database == tmp_path / "data" / "bot.db"  # relative to where the bot is started
    assert (config.log_level, config.log_format, config.dev_guild_id) == ("WARNING", "json", 42)
    assert config.default_preset == "lenient" and config.daily_enabled is False
    assert config.daily_post_time == time(9, 30)


def test_the_environment_wins_over_the_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[bot]\nlog_level = "DEBUG"\ndatabase = "file.db"\n[daily]\nenabled = false\n')
    config = load_config(path, {TOKEN_ENV: FAKE_TOKEN, "SCOUNDREL_LOG_LEVEL": "ERROR",
                                "SCOUNDREL_DAILY_ENABLED": "true"})
    assert config.log_level == "ERROR" and config.daily_enabled is True
    assert config.database == tmp_path / "file.db"  # not overridden: still relative to the file


@pytest.mark.parametrize("name, value, expected", [
    ("SCOUNDREL_LOG_LEVEL", "LOUD", "SCOUNDREL_LOG_LEVEL must be one of DEBUG"),
    ("SCOUNDREL_LOG_FORMAT", "xml", "SCOUNDREL_LOG_FORMAT must be one of text, json"),
    ("SCOUNDREL_DEV_GUILD_ID", "abc", "SCOUNDREL_DEV_GUILD_ID must be a server id"),
    ("SCOUNDREL_DEV_GUILD_ID", "0", "SCOUNDREL_DEV_GUILD_ID must be a server id"),
    ("SCOUNDREL_DEFAULT_PRESET", "hard", "SCOUNDREL_DEFAULT_PRESET must be one of classic"),
    ("SCOUNDREL_DAILY_ENABLED", "maybe", "SCOUNDREL_DAILY_ENABLED must be true or false"),
    ("SCOUNDREL_DAILY_POST_TIME", "25:00", "SCOUNDREL_DAILY_POST_TIME must be a UTC time"),
    ("SCOUNDREL_DATABASE", " ", "SCOUNDREL_DATABASE must be a non-empty text value"),
])
def test_bad_environment_values_give_one_line_naming_the_variable(name, value, expected):
    with pytest.raises(ConfigError) as caught:
        load_config(None, {TOKEN_ENV: FAKE_TOKEN, name: value})
    assert str(caught.value).startswith(expected) and "\n" not in str(caught.value)


def test_commands_that_never_log_in_need_no_token(tmp_path):
    config = load_config(None, {"SCOUNDREL_DATABASE": str(tmp_path / "x.db")}, require_token=False)
    assert config.database == tmp_path / "x.db" and config.token == ""
    with pytest.raises(ConfigError, match="does not look like"):  # a token that is there is still checked
        load_config(None, {TOKEN_ENV: "junk"}, require_token=False)


def test_a_bad_environment_value_stops_run_with_exit_2_and_one_line(tmp_path):
    result = subprocess.run([sys.executable, "-m", "bot", "run"], capture_output=True, text=True, timeout=60,
                            cwd=tmp_path, env={"DISCORD_TOKEN": FAKE_TOKEN, "SCOUNDREL_LOG_LEVEL": "LOUD",
                                               "PATH": "/usr/bin:/bin"})
    assert result.returncode == 2
    assert result.stderr.startswith("error: SCOUNDREL_LOG_LEVEL must be one of") and result.stderr.count("\n") == 1


def _log_through(log_format: str) -> str:
    stream = io.StringIO()
    handler = setup_logging(logging.INFO, FAKE_TOKEN, logging.StreamHandler(stream), log_format=log_format)
    try:
        log = logging.getLogger("bot.test")
        log.warning("started with %s", FAKE_TOKEN)
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            log.exception("it failed")
    finally:
        logging.getLogger().removeHandler(handler)
    return stream.getvalue()


def test_text_logs_to_a_file_or_pipe_have_no_colour_codes():
    text = _log_through("text")
    assert "\x1b[" not in text
    assert "[WARNING ] bot.test: started with " + REDACTED in text and FAKE_TOKEN not in text
    assert "RuntimeError: boom" in text


def test_json_lines():
    lines = [line for line in _log_through("json").splitlines() if line]
    entries = [json.loads(line) for line in lines]
    assert len(entries) == 2
    assert entries[0]["level"] == "WARNING" and entries[0]["logger"] == "bot.test"
    assert entries[0]["message"] == f"started with {REDACTED}" and entries[0]["time"].endswith("+00:00")
    assert entries[1]["message"] == "it failed" and "RuntimeError: boom" in entries[1]["exception"]
    assert FAKE_TOKEN not in "".join(lines)


def test_no_voice_warnings_when_the_bot_is_built():
    script = ("import logging, discord, sys\n"
              "from bot.logging_setup import setup_logging\n"
              "setup_logging(logging.INFO, '')\n"
              "discord.Client(intents=discord.Intents.default())\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "voice" not in result.stderr.lower()
    # without the set-up, discord.py would have warned: the test would notice if it stopped doing so
    bare = subprocess.run([sys.executable, "-c", "import logging, discord\nlogging.basicConfig()\n"
                           "discord.Client(intents=discord.Intents.default())\n"], capture_output=True, text=True,
                          timeout=60)
    assert "voice will NOT be supported" in bare.stderr
