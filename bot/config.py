"""The bot's settings: a TOML file (see config.example.toml) and/or the environment.

Every setting can come from either place; the environment wins. ``[bot] log_level`` is ``SCOUNDREL_LOG_LEVEL``,
``[daily] post_time`` is ``SCOUNDREL_DAILY_POST_TIME`` and so on (``ENV_NAMES``); the token is ``DISCORD_TOKEN``.

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

from games.engine import PRESETS, whole_number

TOKEN_ENV = "DISCORD_TOKEN"
DATABASE_ENV = "SCOUNDREL_DATABASE"  # overrides [bot] database (e.g. a PostgreSQL URL holding a password)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")
DEFAULT_DATABASE = "scoundrel.sqlite3"
DISCORD_API = "https://discord.com/api/v10"  # [activity] api_base: tests point it at a local fake
# A bot token is three base64url parts joined by dots; this catches pasted junk, not every bad token.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{20,}$")
_KNOWN = {
    "bot": {"token", "database", "log_level", "log_format", "dev_guild_id", "default_preset", "shard_count",
            "shard_ids", "global_rate_limit"},
    "daily": {"enabled", "post_time"},
    "service": {"address"},
    # The table as a Discord Activity (web/): served on its own address, behind the public URL.
    "activity": {"client_id", "client_secret", "public_url", "api_base", "address"},
}
# (section, setting) -> the environment variable that overrides it
ENV_NAMES = {(section, key): "SCOUNDREL_" + (key if section == "bot" else f"{section}_{key}").upper()
             for section, keys in _KNOWN.items() for key in sorted(keys) if key != "token"}
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


class ConfigError(ValueError):
    """A setting is missing or wrong; the message is one line and never holds the token."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str = field(repr=False)
    # A SQLite file, or a postgresql:// URL kept as text (out of repr: it may hold a password).
    database: Path | str = field(default=Path(DEFAULT_DATABASE), repr=False)
    log_level: str = "INFO"
    log_format: str = "text"  # "json": one JSON object a line, for hosted log collectors
    dev_guild_id: int | None = None  # sync commands to this guild only (instant) instead of globally
    default_preset: str = "classic"
    daily_enabled: bool = True
    daily_post_time: time = time(0, 0)  # UTC time a server's daily post goes out unless /scoundrel daily sets one
    service_address: tuple[str, int] | None = None  # host and port of /healthz and /metrics; None: off
    # Sharding over several processes: the total number of shards and the ones this process runs (None: all of
    # them). Without a count the bot is one unsharded connection, as Discord allows below 2,500 servers.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # Requests a second Discord allows the bot over all its processes (50 unless Discord raised it for the bot);
    # each process paces itself to its shards' share of it (app/daily/budget.py).
    global_rate_limit: float = 50.0
    activity: Activity | None = None  # the [activity] section; None: no Activity, the bot runs without it

    @property
    def log_level_number(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]


@dataclass(frozen=True, slots=True)
class Activity:
    """The Discord Activity's settings: the app's OAuth2 client (its secret never logged nor sent to a client)."""

    client_id: int
    client_secret: str = field(repr=False)
    public_url: str  # where Discord's URL mapping points (HTTPS), proxied to ``address``
    api_base: str = DISCORD_API
    # Where the table listens: the public URL's proxy reaches this, never [service] address (/healthz, /metrics).
    address: tuple[str, int] = ("127.0.0.1", 0)


class _Settings:
    """Looks a setting up in the environment first, then in the file, remembering where it came from."""

    def __init__(self, data: dict, environ: Mapping[str, str], base: Path) -> None:
        self.data, self.environ, self.base = data, environ, base

    def get(self, section: str, key: str, default):
        """(value, where, from_env): ``where`` names the setting as the person wrote it, for messages."""
        env = ENV_NAMES[(section, key)]
        if env in self.environ:
            return self.environ[env], env, True
        return self.data.get(section, {}).get(key, default), f"[{section}] {key}", False

    def text(self, section: str, key: str, default: str) -> tuple[str, str, bool]:
        value, where, from_env = self.get(section, key, default)
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(f"{where} must be a non-empty text value")
        return value.strip(), where, from_env


def load_config(path: str | os.PathLike | None, environ: Mapping[str, str] | None = None, *,
                require_token: bool = True) -> Config:
    """Read ``path`` (may be None: environment only) and validate every value.

    ``require_token=False`` is for commands that never log in (``backup``, ``maintenance``): they only need
    to find the same database as ``run``.
    """
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
            raise ConfigError(f"config file {path} is not valid TOML: {' '.join(str(exc).split())}") from None
        except IsADirectoryError:
            raise ConfigError(f"config file {path} is a directory") from None
        except OSError as exc:
            raise ConfigError(f"config file {path} cannot be read: {exc.strerror}") from None
        base = path.resolve().parent
    _check_known(data)
    settings = _Settings(data, environ, base)

    token = environ.get(TOKEN_ENV) or data.get("bot", {}).get("token") or ""
    if not isinstance(token, str):
        raise ConfigError("[bot] token must be a text value")
    token = token.strip()
    if require_token and not token:
        raise ConfigError(f"no bot token: set {TOKEN_ENV} in the environment or [bot] token in the config file")
    if token and not _TOKEN_SHAPE.match(token):
        raise ConfigError(f"the bot token (from {TOKEN_ENV if environ.get(TOKEN_ENV) else 'the config file'}) "
                          "does not look like a Discord bot token")

    database, where, from_env = settings.text("bot", "database", DEFAULT_DATABASE)
    db_path: Path | str
    if database.startswith(("postgresql://", "postgres://")):
        db_path = usable_url(database, where)
    else:
        db_path = Path(database.removeprefix("sqlite:///")).expanduser()
        if not db_path.is_absolute():
            # relative to the config file (not to wherever the bot was started); from the environment, to the cwd
            db_path = (Path.cwd() if from_env else base) / db_path

    log_level, where, _ = settings.text("bot", "log_level", "INFO")
    log_level = log_level.upper()
    if log_level not in LOG_LEVELS:
        raise ConfigError(f"{where} must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")

    log_format, where, _ = settings.text("bot", "log_format", "text")
    log_format = log_format.lower()
    if log_format not in LOG_FORMATS:
        raise ConfigError(f"{where} must be one of {', '.join(LOG_FORMATS)}, not {log_format!r}")

    dev_guild_id, where, from_env = settings.get("bot", "dev_guild_id", None)
    if from_env:
        dev_guild_id = _whole(dev_guild_id)
    if dev_guild_id is not None and (type(dev_guild_id) is not int or dev_guild_id <= 0):
        raise ConfigError(f"{where} must be a server id (a positive whole number)")

    default_preset, where, _ = settings.text("bot", "default_preset", "classic")
    if default_preset not in PRESETS:
        raise ConfigError(f"{where} must be one of {', '.join(PRESETS)}, not {default_preset!r}")

    daily_enabled, where, from_env = settings.get("daily", "enabled", True)
    if from_env and daily_enabled.strip().lower() in _TRUE + _FALSE:
        daily_enabled = daily_enabled.strip().lower() in _TRUE
    if type(daily_enabled) is not bool:
        raise ConfigError(f"{where} must be true or false")
    post_time, where, _ = settings.text("daily", "post_time", "00:00")
    try:
        daily_post_time = time.fromisoformat(post_time)
    except ValueError:
        raise ConfigError(f"{where} must be a UTC time like \"09:30\", not {post_time!r}") from None

    address, where, _ = settings.get("service", "address", None)
    service_address = None if address in (None, "") else _host_port(address, where)

    count, count_where, _ = settings.get("bot", "shard_count", None)
    ids, ids_where, _ = settings.get("bot", "shard_ids", None)
    shard_count, shard_ids = check_shards(count, ids, count_where, ids_where)

    limit, where, from_env = settings.get("bot", "global_rate_limit", 50)
    try:
        global_rate_limit = float(limit.strip() if from_env else limit)
    except (TypeError, ValueError, AttributeError):
        global_rate_limit = 0.0
    if type(limit) is bool or not global_rate_limit >= 1:
        raise ConfigError(f"{where} must be the requests a second Discord allows the bot (50 unless raised), "
                          f"a number of at least 1")

    return Config(token=token, database=db_path, log_level=log_level, log_format=log_format,
                  dev_guild_id=dev_guild_id, default_preset=default_preset, daily_enabled=daily_enabled,
                  daily_post_time=daily_post_time.replace(tzinfo=None), service_address=service_address,
                  shard_count=shard_count, shard_ids=shard_ids, global_rate_limit=global_rate_limit,
                  activity=_activity(settings, service_address))


def _activity(settings: _Settings, service_address) -> Activity | None:
    """The [activity] section, or None when neither the file nor the environment sets any of it."""
    given = {key: settings.get("activity", key, None) for key in sorted(_KNOWN["activity"])}
    if all(value in (None, "") for value, _, _ in given.values()):
        return None
    client_id, where, _ = given["client_id"]
    if isinstance(client_id, str):
        client_id = _whole(client_id)
    if type(client_id) is not int or client_id <= 0:
        raise ConfigError(f"{where} must be the application's id (a positive whole number)")
    secret, where, _ = given["client_secret"]
    if not isinstance(secret, str) or not secret.strip():
        raise ConfigError(f"{where} must be set: the application's OAuth2 client secret "
                          f"(better in the environment, as {ENV_NAMES[('activity', 'client_secret')]})")
    public_url, where, _ = given["public_url"]
    if not isinstance(public_url, str) or not public_url.strip().startswith("https://"):
        raise ConfigError(f"{where} must be the Activity's public https:// address (Discord requires HTTPS)")
    api_base, where, _ = settings.text("activity", "api_base", DISCORD_API)
    if not api_base.startswith(("https://", "http://")):
        raise ConfigError(f"{where} must be an http(s):// address, not {api_base!r}")
    address, where, _ = given["address"]
    if address in (None, ""):
        raise ConfigError(f"{where} must be set: where the table listens, which the public URL's proxy reaches "
                          "(apart from [service] address, which keeps /healthz and /metrics private)")
    table = _host_port(address, where)
    if service_address is not None and table[1] != 0 and table[1] == service_address[1]:
        raise ConfigError(f"{where} must not be [service] address's port: the table faces the Internet, "
                          "/healthz and /metrics must not")
    return Activity(client_id=client_id, client_secret=secret.strip(), public_url=public_url.strip().rstrip("/"),
                    api_base=api_base.rstrip("/"), address=table)


def check_shards(count, ids, count_where: str = "--shard-count",
                 ids_where: str = "--shard-ids") -> tuple[int | None, tuple[int, ...] | None]:
    """(shard count, this process's shard ids) from a whole number and a list (or "0,2,4" text); ConfigError with
    one line for a count that is not a positive whole number, ids without a count, ids out of range or twice."""
    if isinstance(count, str):
        count = _whole(count) if count.strip() else None
    if count is not None and (type(count) is not int or count < 1):
        raise ConfigError(f"{count_where} must be a positive whole number (the total number of shards)")
    if isinstance(ids, str):
        parts = [part.strip() for part in ids.split(",")]
        ids = None if ids.strip() == "" else [_whole(p) if _whole(p) >= 0 else p for p in parts]
    if ids is None:
        return count, None
    if count is None:
        raise ConfigError(f"{ids_where} needs {count_where}: the total number of shards over every process")
    if not isinstance(ids, list | tuple) or not ids or any(type(i) is not int for i in ids):
        raise ConfigError(f"{ids_where} must be shard numbers separated by commas, like \"0,1\"")
    outside = [i for i in ids if not 0 <= i < count]
    if outside:
        raise ConfigError(f"{ids_where}: shard {outside[0]} does not exist; with {count} shards they are "
                          f"0 to {count - 1}")
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ConfigError(f"{ids_where}: shard {twice[0]} is listed twice")
    return count, tuple(sorted(ids))


def _host_port(value, where: str) -> tuple[str, int]:
    """``"127.0.0.1:9108"`` → ("127.0.0.1", 9108); ``[::1]:9108`` for IPv6."""
    text = value.strip() if isinstance(value, str) else ""
    host, _, port = text.rpartition(":")
    host = host.strip("[]")
    if not host or not 0 <= _whole(port) <= 65535:
        raise ConfigError(f"{where} must be host:port, like \"127.0.0.1:9108\", not {value!r}")
    return host, _whole(port)


def _whole(text: str) -> int:
    """A whole number written in 0-9 (spaces around allowed), else -1: never ``int``'s own error (``①`` passes
    ``isdigit``, 5,000 digits exceed ``int``'s limit)."""
    number = whole_number(text.strip())
    return -1 if number is None else number


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


def add_database_options(parser) -> None:
    """``--config``/``--db`` for commands that work on the bot's database without logging in."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--config", "-c", metavar="FILE",
                       help="the bot's settings file: use the database it names, as `run` does")
    where.add_argument("--db", metavar="PATH",
                       help="the database: a SQLite file or a postgresql:// URL (default: SCOUNDREL_DATABASE, "
                            "else scoundrel.sqlite3 here)")


def database_from(args, environ: Mapping[str, str] | None = None) -> Path | str:
    """The database ``run`` would use with the same ``--config`` (or ``--db`` when given). Raises ConfigError."""
    if args.db is not None:
        if args.db.startswith(("postgresql://", "postgres://")):
            return usable_url(args.db, "--db")
        return Path(args.db.removeprefix("sqlite:///")).expanduser()
    return load_config(args.config, environ, require_token=False).database


def usable_url(url: str, where: str) -> str:
    """A ``postgresql://`` URL the driver can read, else ConfigError in one line (its password never shown)."""
    from storage.backends.base import redact, url_problem

    problem = url_problem(url)
    if problem is not None:
        raise ConfigError(f"{where}: cannot use {redact(url)}: {problem}")
    return url
