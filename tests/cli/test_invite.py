"""The install links: in the README and from ``scoundrel-bot invite``, with the permissions the bot needs, as
discord.py's ``Permissions`` computes them (the README names them: View Channel, Send Messages, Embed Links, Attach
Files)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import discord

ROOT = Path(__file__).resolve().parents[2]
NEEDED = discord.Permissions(view_channel=True, send_messages=True, embed_links=True, attach_files=True)


def links(text: str) -> list[dict[str, list[str]]]:
    return [parse_qs(urlsplit(url).query) for url in re.findall(r"https://discord\.com/oauth2/authorize\?[^\s`)]+",
                                                               text)]


def check_the_two_links(found: list[dict[str, list[str]]], app_id: str) -> None:
    guild = [q for q in found if q["integration_type"] == ["0"]]
    user = [q for q in found if q["integration_type"] == ["1"]]
    assert len(guild) == 1 and len(user) == 1, found
    assert guild[0]["scope"] == ["bot applications.commands"] and guild[0]["client_id"] == [app_id]
    assert guild[0]["permissions"] == [str(NEEDED.value)]  # 52224
    assert discord.Permissions(int(guild[0]["permissions"][0])) == NEEDED
    assert user[0]["scope"] == ["applications.commands"] and user[0]["client_id"] == [app_id]
    assert "permissions" not in user[0]  # no bot user joins: nothing to grant


def test_the_readme_links_ask_for_the_permissions_it_names():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    check_the_two_links(links(readme), "APP_ID")
    for name in ("View Channel", "Send Messages", "Embed Links", "Attach Files"):
        assert name in readme


def test_invite_prints_both_install_links():
    done = subprocess.run([sys.executable, "-m", "bot", "invite", "--app-id", "1456074443980800010"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    check_the_two_links(links(done.stdout), "1456074443980800010")


def test_invite_refuses_an_id_that_is_not_one():
    done = subprocess.run([sys.executable, "-m", "bot", "invite", "--app-id", "my-bot"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "--app-id: must be the application's id" in done.stderr and not done.stdout
