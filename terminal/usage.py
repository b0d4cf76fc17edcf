"""The command's name as a player types it, for each terminal command's usage line."""

from __future__ import annotations

PROG = "scoundrel-bot"


def prog(command: str) -> str:
    """The ``prog`` a command's own parser shows in its usage line."""
    return f"{PROG} {command}"
