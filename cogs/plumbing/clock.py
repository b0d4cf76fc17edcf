"""The bot's one source of "now": aware UTC, and virtual under SimCord.

``discord.utils.utcnow`` is what SimCord's virtual clock patches (and what ``ext.tasks``
schedules by), so reading time through here keeps the bot, its loops and the tests agreeing.
"""

from __future__ import annotations

from datetime import datetime

import discord


def now() -> datetime:
    return discord.utils.utcnow()
