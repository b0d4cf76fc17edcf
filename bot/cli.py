"""``scoundrel-bot <command>`` (also ``python -m bot <command>``): the one command-line entry point.

The top-level parser knows only the command names; each command lives in its own module with a
``main(argv) -> int`` that builds its own argparse parser, so ``scoundrel-bot play`` never imports discord.py.
Adding a command is one line in ``COMMANDS``.

Exit status: 0 success (quitting a game included), 1 a runtime failure, 2 a usage or configuration error,
130 interrupted with Ctrl-C (no traceback).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import os
import sys
import traceback
from collections.abc import Iterator
from importlib import metadata

from bot.config import ConfigError
from bot.redaction import ScrubbedStream, ScrubSecrets, remember_environment, remember_urls, scrub
from terminal.usage import PROG

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

# name: (module with main(argv) -> int, one-line help)
COMMANDS = {
    "run": ("bot.run", "start the Discord bot"),
    "play": ("terminal.play", "play Scoundrel in this terminal (no Discord needed)"),
    "duel": ("terminal.duel", "the two-player duel, hot-seat at one terminal"),
    "solve": ("terminal.solve", "the best possible score (par) of a deal and a line that reaches it"),
    "review": ("terminal.review", "a game's moves judged on what the player could see, room by room"),
    "hint": ("terminal.hint", "the best move on what a player can see, after some moves"),
    "replay": ("terminal.replay", "a game's replay as an animated GIF, the file the bot posts"),
    "backup": ("bot.backup", "copy the live database safely (consistent, checked)"),
    "restore": ("bot.restore", "put a backup in place of the database (bot stopped)"),
    "maintenance": ("bot.maintenance", "integrity check, pruning and compaction of the database"),
    "copy-db": ("bot.copydb", "copy the database between SQLite and PostgreSQL, checked"),
    "forget": ("bot.forget", "delete everything the bot keeps about one player (a deletion request)"),
    "invite": ("bot.invite", "print the bot's install links (to a server, to a player's account)"),
    "web": ("bot.web_local", "play at the table in your browser (the Discord Activity's client, served locally)"),
    "bench": ("bot.bench", "measure engine speed: random games and actions per second (--health 99: long games)"),
}


def version() -> str:
    try:
        return metadata.version("scoundrel-bot")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a tree that was never installed
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Scoundrel for Discord: run the bot, play in a terminal, look after the database.",
        epilog=f"`{PROG} COMMAND --help` shows a command's options. `python -m bot` works the same way.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for name, (_, text) in COMMANDS.items():
        # The command's own parser reads the rest of the line (and answers its --help).
        commands.add_parser(name, help=text, add_help=False)
    return parser


@contextlib.contextmanager
def secrets_masked(argv: list[str]) -> Iterator[None]:
    """While a command runs: the token and database passwords it was given (environment, arguments) are masked in
    everything it prints (stdout, stderr) and logs (a stderr handler for warnings until ``run`` sets up its own)."""
    remember_environment(os.environ)
    remember_urls(argv)
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = ScrubbedStream(out), ScrubbedStream(err)
    handler = logging.StreamHandler()  # the wrapped stderr
    handler.setLevel(logging.WARNING)
    handler.addFilter(ScrubSecrets())
    handler._scoundrel = True  # type: ignore[attr-defined]  # replaced by bot.logging_setup when `run` starts
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
        sys.stdout, sys.stderr = out, err


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    with secrets_masked(argv):
        return _main(argv)


def _main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        if not argv:
            parser.print_usage(sys.stderr)
            print(f"{PROG}: error: a command is required (try `{PROG} --help`)", file=sys.stderr)
            return EXIT_USAGE
        args, rest = parser.parse_known_args(argv[:1])
        if args.command is None:  # pragma: no cover - argparse exits for anything but a command here
            parser.error("a command is required")
        module = importlib.import_module(COMMANDS[args.command][0])
        return module.main(argv[1:] + rest)
    except SystemExit as exc:  # argparse: --help / --version (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else (EXIT_OK if exc.code is None else EXIT_USAGE)
    except ConfigError as exc:  # a setting the command needed is missing or wrong: one line
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # e.g. piped into `head`
        return EXIT_OK
    except Exception:  # a fault: its traceback, with any secret in it masked (Python's own would print it raw)
        print(scrub(traceback.format_exc()), end="", file=sys.stderr)
        return EXIT_FAILURE
