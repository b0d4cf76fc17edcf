"""``scoundrel-bot invite --app-id ID``: the two install links of the application, with the permissions the bot needs.

Guild install (``integration_type=0``): the bot user joins the server with ``bot`` and ``applications.commands``
and exactly the channel permissions it uses: see the messages it posts (View Channel), post them (Send Messages)
with an embed (Embed Links) and a picture (Attach Files). User install (``integration_type=1``): the commands go
with the player, wherever they are; no bot user joins, so no permissions are asked.
"""

from __future__ import annotations

import argparse
from urllib.parse import urlencode

import discord

from games.engine import whole_number
from terminal.usage import prog

AUTHORIZE = "https://discord.com/oauth2/authorize"
# What the bot does in a channel, and nothing more (no Manage Messages, no Mention Everyone, …).
NEEDED = {"view_channel": "View Channel", "send_messages": "Send Messages", "embed_links": "Embed Links",
          "attach_files": "Attach Files"}


def permissions() -> discord.Permissions:
    return discord.Permissions(**dict.fromkeys(NEEDED, True))


def guild_install(app_id: int) -> str:
    query = {"client_id": app_id, "scope": "bot applications.commands", "permissions": permissions().value,
             "integration_type": 0}
    return f"{AUTHORIZE}?{urlencode(query)}"


def user_install(app_id: int) -> str:
    return f"{AUTHORIZE}?{urlencode({'client_id': app_id, 'scope': 'applications.commands', 'integration_type': 1})}"


def _app_id(text: str) -> int:
    app_id = whole_number(text.strip())
    if not app_id:
        raise argparse.ArgumentTypeError("must be the application's id, a positive whole number")
    return app_id


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog=prog("invite"), description="Print the application's two install links: to a server, and to a player's "
                                         "account. The application id is on the developer portal's General page.")
    parser.add_argument("--app-id", type=_app_id, required=True, metavar="ID", help="the application's id")
    args = parser.parse_args(argv)
    print(f"Add to a server (the bot joins; it asks for {', '.join(NEEDED.values())}):")
    print(f"  {guild_install(args.app_id)}")
    print("Add to my account (a player takes /scoundrel anywhere; enable User Install on the portal first):")
    print(f"  {user_install(args.app_id)}")
    return 0
