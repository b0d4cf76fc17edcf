"""Today's daily post, kept up to date with how many members here have played it (an extension).

Event-driven, so a quiet bot runs nothing: when a counted daily ends (``on_daily_finished``, dispatched by the
game's click handler in cogs/game_message/view.py), its server's post is edited with the count read then — at once if
the post was not edited in the last ``COUNT_EVERY``, otherwise once that interval is up, however many more
players finish meanwhile. The count is the only thing that changes while the day runs (no score:
cogs/daily/glance.py). Each process edits the posts of the servers it sees, which are the servers whose clicks
it receives. An edit draws on the same share of Discord's global limit as the posts, after them: while posts wait
for their turn, no edit goes (``bot.send_budget``, app/daily/budget.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta

from discord.ext import commands

from app.daily.post_facts import post_to_edit
from cogs.daily.glance import post_embed
from cogs.plumbing import clock
from cogs.text.locale import for_server

log = logging.getLogger(__name__)

COUNT_EVERY = timedelta(minutes=5)


class PostCounter(commands.Cog):
    """Edits a server's daily post with its running count of players, at most once per ``COUNT_EVERY``."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.edited_at: dict[int, datetime] = {}  # guild id -> when its post was last edited
        self.pending: dict[int, asyncio.Task] = {}  # guild id -> the edit waiting for its turn

    async def cog_unload(self) -> None:
        tasks, self.pending = list(self.pending.values()), {}
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    @commands.Cog.listener()
    async def on_daily_finished(self, record) -> None:
        if record.guild_id is not None and record.day is not None:
            self.schedule(record.guild_id, record.day)

    def schedule(self, guild_id: int, day: int) -> None:
        """Edit ``guild_id``'s post of ``day`` now, or when its interval is up; once however often called."""
        if guild_id in self.pending:
            return  # the coming edit will read the count as it is then
        last = self.edited_at.get(guild_id)
        wait = 0.0 if last is None else max(0.0, (last + COUNT_EVERY - clock.now()).total_seconds())
        self.pending[guild_id] = asyncio.get_running_loop().create_task(self._edit_later(guild_id, day, wait))

    async def _edit_later(self, guild_id: int, day: int, wait: float) -> None:
        try:
            if wait:
                await asyncio.sleep(wait)
            await self.edit_post(guild_id, day)
        except Exception:  # noqa: BLE001 - a count is not worth a crash; the next finish tries again
            log.exception("could not update the daily %s post in guild %s", day, guild_id)
        finally:
            self.pending.pop(guild_id, None)
            self.edited_at[guild_id] = clock.now()

    async def edit_post(self, guild_id: int, day: int) -> bool:
        posted = await post_to_edit(self.bot.store, guild_id, day)
        channel = self.bot.get_channel(posted.channel_id) if posted is not None else None
        if posted is None or channel is None:  # no post that day, or not in a channel this process sees
            return False
        embed = post_embed(posted.facts, posted.server, for_server(channel.guild))
        await self.bot.send_budget.take(urgent=False)  # after every post waiting for its turn
        await channel.get_partial_message(posted.message_id).edit(embed=embed)  # the Play button stays as it is
        return True


async def setup(bot) -> None:
    if bot.config.daily_enabled:
        await bot.add_cog(PostCounter(bot))
