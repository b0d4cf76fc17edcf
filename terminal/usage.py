"""The command's name as a player types it, for each terminal command's usage line and a command to run next."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

PROG = "scoundrel-bot"
# (A shell reads an unquoted # as the start of a comment: `--seed #5` would pass no seed at all.)
SEED_HELP = "a seed as shared (K7Q2-M9XD), or a seed number: 5, or '#5' in quotes"


def prog(command: str) -> str:
    """The ``prog`` a command's own parser shows in its usage line."""
    return f"{PROG} {command}"


def invocation(argv0: str | None = None) -> str:
    """The command as this process was started, to print in a command to run next: ``scoundrel-bot`` when that is
    what the shell finds, else the path of the script that ran (a virtualenv's, not activated), or
    ``python -m bot`` with this interpreter's path."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    if not argv0 or argv0 == "-c" or Path(argv0).name in ("__main__.py", "-m"):
        return f"{shlex.quote(sys.executable)} -m bot"
    script = Path(argv0).resolve()
    found = shutil.which(PROG)
    if found is not None and Path(found).resolve() == script:
        return PROG
    return shlex.quote(str(script))
