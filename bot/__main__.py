"""``python -m bot <command>``: the operator's entry points.

Each command lives in its own module with a ``main(argv) -> int``; this file only dispatches,
so ``python -m bot play`` never imports discord.py.
"""

from __future__ import annotations

import importlib
import sys

COMMANDS = {
    "play": ("bot.terminal", "play Scoundrel in this terminal (no Discord needed)"),
    "bench": ("bot.bench", "measure engine speed: random full games per second"),
    "run": ("bot.run", "start the Discord bot"),
    "backup": ("bot.backup", "copy a live database safely (SQLite online backup)"),
    "copy-db": ("bot.copydb", "copy the database between SQLite and PostgreSQL, checked"),
    "solve": ("bot.solver.cli", "print the best possible score (par) of a deal and an optimal line"),
    "duel": ("bot.duel.terminal", "two-player duel (seed 002) at one terminal"),
}


def usage() -> str:
    lines = ["usage: python -m bot <command> [options]", "", "commands:"]
    lines += [f"  {name:<8} {text}" for name, (_, text) in COMMANDS.items()]
    lines.append("\n`python -m bot <command> --help` shows a command's options.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    return module.main(rest)


if __name__ == "__main__":
    sys.exit(main())
