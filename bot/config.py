"""The bot's settings: a TOML file (see config.example.toml) plus the token from the environment.

``load_config(path, environ)`` returns a frozen ``Config`` or raises ``ConfigError`` whose message is one line
a person can act on. The token is never part of that message, of ``repr(config)`` or of any log line.
"""

from __future__ import annotations

import logging
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import time
from pathlib import Path

from bot.engine import PRESETS

TOKEN_ENV = "DISCORD_TOKEN"
DATABASE_ENV = "SCOUNDREL_DATABASE"  # overrides [bot] database (e.g. a PostgreSQL URL holding a password)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# A bot token is three base64url parts joined by dots; this catches pasted junk, not every bad token.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{20,}$")
_KNOWN = {
    "bot": {"token", "database", "log_level", "dev_guild_id", "default_preset"},
    "daily": {"enabled", "post_time"},
}


class ConfigError(ValueError):
    """A setting is missing or wrong; the message is one line and never holds the token."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str = field(repr=False)
    # A SQLite file, or a postgresql:// URL kept as text (out of repr: it may hold a password).
    database: Path | str = field(default=Path("scoundrel.sqlite3"), repr=False)
    log_level: str = "INFO"
    dev_guild_id: int | None = None  # sync commands to this guild only (instant) instead of globally
    default_preset: str = "classic"
    daily_enabled: bool = True
    daily_post_time: time = time(0, 0)  # UTC time a server's daily post goes out unless /scoundrel daily sets one

    @property
    def log_level_number(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]


def load_config(path: str | os.PathLike | None, environ: Mapping[str, str] | None = None) -> Config:
    """Read ``path`` (may be None: environment only) and validate every value."""
    environ = os.environ if environ is None else environ
    data: dict = {}
    base = Path.cwd()
    if path is not None:
        path = Path(path)
        try:
            with path.open("rb") as f:
                data = tomllib.load(f)
        except FileNotFoundError:
            raise ConfigError(f"config file {path} not found (copy config.example.toml to start)") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None
        except OSError as exc:
            raise ConfigError(f"config file {path} cannot be read: {exc.strerror}") from None
        base = path.resolve().parent
    _check_known(data)
    bot = data.get("bot", {})
    daily = data.get("daily", {})

    token = environ.get(TOKEN_ENV) or bot.get("token") or ""
    if not isinstance(token, str) or not token.strip():
        raise ConfigError(f"no bot token: set {TOKEN_ENV} in the environment or [bot] token in the config file")
    token = token.strip()
    if not _TOKEN_SHAPE.match(token):
        raise ConfigError(f"the bot token (from {TOKEN_ENV if environ.get(TOKEN_ENV) else 'the config file'}) "
                          "does not look like a Discord bot token")

    database = environ.get(DATABASE_ENV) or _string(bot, "database", "scoundrel.sqlite3")
    if database.startswith(("postgresql://", "postgres://")):
        db_path = database
    else:
        db_path = Path(database.removeprefix("sqlite:///")).expanduser()
        if not db_path.is_absolute():
            db_path = base / db_path  # relative to the config file, not to wherever the bot was started

    log_level = _string(bot, "log_level", "INFO").upper()
    if log_level not in LOG_LEVELS:
        raise ConfigError(f"[bot] log_level must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")

    dev_guild_id = bot.get("dev_guild_id")
    if dev_guild_id is not None and (type(dev_guild_id) is not int or dev_guild_id <= 0):
        raise ConfigError("[bot] dev_guild_id must be a server id (a positive whole number)")

    default_preset = _string(bot, "default_preset", "classic")
    if default_preset not in PRESETS:
        raise ConfigError(f"[bot] default_preset must be one of {', '.join(PRESETS)}, not {default_preset!r}")

    daily_enabled = daily.get("enabled", True)
    if type(daily_enabled) is not bool:
        raise ConfigError("[daily] enabled must be true or false")
    post_time = _string(daily, "post_time", "00:00", section="daily")
    try:
        daily_post_time = time.fromisoformat(post_time)
    except ValueError:
        raise ConfigError(f"[daily] post_time must be a UTC time like \"09:30\", not {post_time!r}") from None

    return Config(token=token, database=db_path, log_level=log_level, dev_guild_id=dev_guild_id,
                  default_preset=default_preset, daily_enabled=daily_enabled,
                  daily_post_time=daily_post_time.replace(tzinfo=None))


def _check_known(data: dict) -> None:
    for section, value in data.items():
        if section not in _KNOWN:
            raise ConfigError(f"unknown section [{section}] in the config file (known: "
                              f"{', '.join('[' + s + ']' for s in _KNOWN)})")
        if not isinstance(value, dict):
            raise ConfigError(f"[{section}] must be a table of settings")
        unknown = sorted(set(value) - _KNOWN[section])
        if unknown:
            raise ConfigError(f"unknown setting {unknown[0]!r} in [{section}] "
                              f"(known: {', '.join(sorted(_KNOWN[section]))})")


def _string(table: dict, key: str, default: str, section: str = "bot") -> str:
    value = table.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"[{section}] {key} must be a non-empty text value")
    return value.strip()
