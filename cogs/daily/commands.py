"""The daily challenge extension: ``/scoundrel daily``, its buttons, the scheduled post and its admin commands.

The pieces live in ``cogs/daily/play.py`` (playing, practice, share), ``cogs/daily/post.py`` (the post; its round
is ``app/daily/round.py``), ``cogs/daily/post_settings.py`` (``/scoundrel-admin daily``/``daily-off``) and
``app/daily/par.py`` (par, solved ahead of time); the day, the deal, the share text and streaks are
``app/daily/days.py``. Boards and stats are ``cogs/boards/leaderboard.py``.
"""

from __future__ import annotations

from discord import app_commands

from cogs.commands.admin_group import add_admin_subcommands, install, remove_admin_subcommands
from cogs.commands.group import add_subcommands, remove_subcommands
from cogs.daily.play import DYNAMIC_ITEMS, play_daily
from cogs.daily.play import play_extras as play_extras  # offered (cogs/offers.py)
from cogs.daily.play import share_extras as share_extras
from cogs.daily.post import DailyPoster
from cogs.daily.post_settings import ADMIN_COMMANDS
from cogs.plumbing.interaction import Interaction


@app_commands.command(name="daily", description="Play today's daily dungeon privately: the same deal for everyone")
async def daily(interaction: Interaction) -> None:
    await play_daily(interaction)


async def setup(bot) -> None:
    add_subcommands(daily)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    add_admin_subcommands(*ADMIN_COMMANDS)
    install(bot)
    if bot.config.daily_enabled:
        await bot.add_cog(DailyPoster(bot))


async def teardown(bot) -> None:
    remove_subcommands(daily)
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
    remove_admin_subcommands(*ADMIN_COMMANDS)

