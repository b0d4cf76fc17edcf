"""``python -m bot run --config config.toml``: start the Discord bot.

Start-up problems (no token, a bad setting, a database written by a newer version, a rejected token) end the
process with one line on stderr and exit status 2; Discord out of reach exits 1. The token is never printed.

SIGTERM (what systemd, Docker and Kubernetes send to stop a service) and Ctrl-C stop the bot cleanly
(``ScoundrelBot.shutdown``): no new work, the interactions in flight answered, the group commit flushed, the
leases released, the database and the gateway closed; then exit status 0, within 10 s.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import signal
import sys
from collections.abc import Coroutine
from typing import Any

import aiohttp
import discord

from bot.config import ConfigError, check_shards, load_config
from bot.logging_setup import setup_logging
from terminal.usage import prog

log = logging.getLogger("bot.run")

EXIT_FAILURE, EXIT_CONFIG = 1, 2


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=prog("run"), description="Start the Scoundrel Discord bot.")
    parser.add_argument("--config", "-c", help="TOML settings file (see config.example.toml); "
                                                "the token may instead come from DISCORD_TOKEN")
    parser.add_argument("--dev-guild", type=int, metavar="GUILD_ID",
                        help="sync commands to this test server only (instant), overriding the config")
    parser.add_argument("--no-sync", action="store_true", help="do not sync slash commands at start-up")
    parser.add_argument("--log-format", choices=("text", "json"),
                        help="text lines, or one JSON object a line for log collectors (overrides the config)")
    parser.add_argument("--shard-count", metavar="N",
                        help="run sharded: N shards in all, over every process (overrides the config)")
    parser.add_argument("--shard-ids", metavar="A,B,...",
                        help="the shards this process runs, numbered from 0 (default: all N); needs --shard-count")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        config = load_config(args.config)
        if args.dev_guild is not None:
            if args.dev_guild <= 0:
                raise ConfigError("--dev-guild must be a server id (a positive whole number)")
            config = dataclasses.replace(config, dev_guild_id=args.dev_guild)
        if args.log_format is not None:
            config = dataclasses.replace(config, log_format=args.log_format)
        if args.shard_count is not None or args.shard_ids is not None:
            count = args.shard_count if args.shard_count is not None else config.shard_count
            ids = args.shard_ids if args.shard_ids is not None else (
                None if args.shard_count is not None else config.shard_ids)
            shard_count, shard_ids = check_shards(count, ids)
            config = dataclasses.replace(config, shard_count=shard_count, shard_ids=shard_ids)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    setup_logging(config.log_level_number, config.token, log_format=config.log_format)
    try:
        run_loop(_run(config, sync=not args.no_sync))
    except KeyboardInterrupt:
        return 0
    except discord.LoginFailure:
        print("error: Discord rejected the bot token (check DISCORD_TOKEN or [bot] token)", file=sys.stderr)
        return EXIT_CONFIG
    except discord.PrivilegedIntentsRequired:  # pragma: no cover - the bot asks for default intents only
        print("error: Discord refused the requested intents", file=sys.stderr)
        return EXIT_CONFIG
    except StartupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    return 0


def run_loop(main: Coroutine[Any, Any, None]) -> None:
    """Run the bot on uvloop where it is installed (Linux and macOS): the gateway, every HTTP request and every
    task of a click cost the event loop less than on asyncio's own loop. Elsewhere, asyncio's."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(main)
        return
    uvloop.run(main)


class StartupError(Exception):
    def __init__(self, message: str, exit_code: int = EXIT_CONFIG) -> None:
        super().__init__(message)
        self.exit_code = exit_code


async def _run(config, *, sync: bool) -> None:
    from bot.client import make_bot
    from storage import open_store
    from storage.errors import StorageError

    try:
        if not isinstance(config.database, str):  # a SQLite file (a PostgreSQL URL is text): check it first
            await asyncio.to_thread(check_database, config.database)
        # Open (and migrate) the database before logging in, so a bad file is reported without touching Discord.
        store = await open_store(config.database)
        await store.close()
        bot = make_bot(config, sync_commands=sync, own_process=True)
        async with bot:
            stopped = stop_on_signals(bot)
            await bot.start(config.token)  # returns once the gateway is closed
            if bot.stopping:
                # A signal's shutdown closes the gateway before it has closed the store: let it finish, or the
                # loop's end would cancel it mid-close and aiosqlite's thread would keep the process alive.
                await stopped.wait()
    except StorageError as exc:  # e.g. SchemaTooNew: say what to do, not a traceback
        raise StartupError(_one_line(exc)) from None
    except (OSError, aiohttp.ClientError) as exc:
        log.debug("connection failure", exc_info=True)
        raise StartupError(f"cannot reach Discord: {_one_line(exc)}", EXIT_FAILURE) from None


def stop_on_signals(bot) -> asyncio.Event:
    """SIGTERM and SIGINT start ``bot.shutdown()`` (once); the event is set when it has finished."""
    loop = asyncio.get_running_loop()
    stopped = asyncio.Event()

    def on_signal(number: signal.Signals) -> None:
        if bot.stopping:
            return
        log.info("%s received: stopping cleanly", number.name)
        task = loop.create_task(bot.shutdown())
        task.add_done_callback(lambda _: stopped.set())

    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, on_signal, number)
    return stopped


def check_database(path) -> bool:
    """Start-up: a quick_check (one log line if it fails; the bot still starts, the action log being the truth)
    and the removal of unfinished backups left next to the database. True when the file looks sound."""
    from storage.backup import remove_stale_partials
    from storage.maintenance import startup_check

    for leftover in remove_stale_partials(path.parent):
        log.info("removed %s, left by a backup that was killed", leftover.name)
    if not path.exists():
        return True
    problem = startup_check(path)
    if problem is None:
        log.debug("database %s passed its quick check", path)
        return True
    log.error(problem)
    return False


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
