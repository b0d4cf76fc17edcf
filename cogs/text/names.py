"""How players and months are named in Discord's messages: the boards and the daily post name them alike."""

from __future__ import annotations

import discord
from babel.dates import format_date

from app.daily.days import month_start
from games.i18n import Messages


def player(user_id: int, names: dict[int, str] | None) -> str:
    """The name kept with the player's result, in bold; a mention (which pings no one: boards are sent without
    mentions) only for a result older than the kept names."""
    name = (names or {}).get(user_id)
    return f"**{discord.utils.escape_markdown(name)}**" if name else f"<@{user_id}>"


def month_name(tr: Messages, month: int) -> str:
    """``November 2026``, in the reader's language."""
    return format_date(month_start(month), "LLLL y", locale=tr.locale.replace("-", "_"))
