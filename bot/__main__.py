"""``python -m bot <command>``: the same entry point as the ``scoundrel-bot`` console script (see bot/cli.py)."""

import sys

from bot.cli import main

if __name__ == "__main__":
    sys.exit(main())
