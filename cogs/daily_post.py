"""The scheduled daily post, and ``/scoundrel-admin daily`` / ``daily-off`` that configure it.

One ``ext.tasks`` loop fires at explicit UTC times: 00:00 and every time a server has chosen. At start-up
and at every fire it posts for every server whose time today has passed and whose post for today it can
*claim* in the database (``Store.claim_daily_post``: true once per server and day, ever). So a post missed
while the bot was down is made when it comes back, once, and never twice.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, time, timedelta

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import clock
from bot.daily import BadTime, daily_seed, day_end, day_of, format_post_time, parse_post_time, post_due_at
from bot.engine import seed_to_text
from cogs.admin_group import require_manager
from cogs.bounds import TIME_LENGTH
from cogs.daily_par import ParKeeper, par_text, todays_challenge
from cogs.daily_play import DAILY_OFF, PlayDailyButton

log = logging.getLogger(__name__)

MIDNIGHT = time(0, 0, tzinfo=UTC)
# asyncio may wake a loop a hair early; a post due within this margin is made now rather than tomorrow.
EARLY_MARGIN = timedelta(seconds=30)
TOP_RESULTS = 5
MEDALS = ("🥇", "🥈", "🥉")


def _utc_time(value: time) -> time:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def next_post_at(post_time: time, now: datetime) -> datetime:
    """The next instant at ``post_time`` (UTC) from ``now`` on (today's if not passed yet)."""
    today = day_of(now)
    due = post_due_at(today, post_time)
    return due if due > now else post_due_at(today + 1, post_time)


# --- the post ------------------------------------------------------------------------------------

def result_line(entry) -> str:
    place = MEDALS[entry.rank - 1] if entry.rank <= len(MEDALS) else f"{entry.rank}."
    outcome = "cleared" if entry.status == "won" else "died"
    return f"{place} <@{entry.user_id}> — **{entry.score}** ({outcome})"


async def build_post(store, guild_id: int, day: int) -> tuple[discord.Embed, discord.ui.View]:
    challenge = await todays_challenge(store, day)
    embed = discord.Embed(
        title=f"🗝️ Scoundrel Daily #{day}",
        colour=discord.Colour.dark_gold(),
        description=("Today's dungeon: the same deal for everyone, on every server. Play it privately with the "
                     "button below; your first attempt is the one that counts.\n"
                     f"Ends {discord.utils.format_dt(day_end(day), 'R')}."))
    if challenge.par is not None:
        embed.add_field(name="Par", value=f"{par_text(challenge.par)}: the best score this deal allows")
    yesterday = day - 1
    if yesterday >= 1:
        top = await store.leaderboard_daily(yesterday, guild_id, TOP_RESULTS)
        lines = [result_line(entry) for entry in top] or ["Nobody here finished it."]
        embed.add_field(name=f"Yesterday's best here (Daily #{yesterday})", value="\n".join(lines), inline=False)
        past = await store.get_daily(yesterday)
        seed = past.seed if past is not None else daily_seed(await store.daily_secret(), yesterday)
        text = seed_to_text(seed)
        embed.add_field(name=f"Daily #{yesterday}'s seed, now revealed",
                        value=f"`{text}` — replay it with `/scoundrel play seed:{text}`", inline=False)
    view = discord.ui.View(timeout=None)
    view.add_item(PlayDailyButton(day))
    return embed, view


# --- the scheduler -------------------------------------------------------------------------------

class DailyPoster(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot
        self.posting = asyncio.Lock()  # a restart of the loop never cuts a post in half
        self.par = ParKeeper(bot)

    async def cog_load(self) -> None:
        self.post_loop.change_interval(time=await self.post_times())
        self.post_loop.start()

    async def cog_unload(self) -> None:
        self.post_loop.cancel()
        await self.par.close()

    async def post_times(self) -> list[time]:
        times = {MIDNIGHT}
        for settings in await self.bot.store.guilds_with_daily():
            times.add(_utc_time(settings.daily_time))
        return sorted(times, key=lambda t: (t.hour, t.minute))

    async def reschedule(self) -> None:
        """Fire at every server's time. Restarts the loop: discord.py only re-times a loop that has fired once,
        and the restart's first step (``before_loop``) makes any post that is now due."""
        times = await self.post_times()
        async with self.posting:
            task = self.post_loop.get_task()
            if task is not None and not task.done():
                self.post_loop.cancel()
                await asyncio.wait({task})
            self.post_loop.change_interval(time=times)
        self.post_loop.start()

    @tasks.loop(time=MIDNIGHT)
    async def post_loop(self) -> None:
        await self.prepare_and_post()

    @post_loop.before_loop
    async def before_post_loop(self) -> None:
        await self.bot.wait_until_ready()
        try:
            # Catch up on a post missed while the bot was down. A bot with nothing daily to do yet starts no solve.
            store = self.bot.store
            busy = await store.guilds_with_daily() or await store.get_daily(day_of(clock.now())) is not None
            await self.prepare_and_post(solve=bool(busy))
        except Exception:
            log.exception("catching up on daily posts failed")

    async def prepare_and_post(self, solve: bool = True) -> None:
        """Today's par first (at 00:00, before anyone has played; the post then shows it), then the posts."""
        if solve:
            await self.par.ensure(day_of(clock.now() + EARLY_MARGIN))
        await self.post_due()

    async def post_due(self) -> list[int]:
        """Post today's daily wherever it is due and not yet posted; returns the guild ids posted to."""
        async with self.posting:
            store = self.bot.store
            now = clock.now()
            moment = now + EARLY_MARGIN  # a wake-up just before midnight still makes the 00:00 posts
            days = sorted({day_of(now), day_of(moment)})
            posted = []
            for settings in await store.guilds_with_daily():
                for day in days:
                    if post_due_at(day, _utc_time(settings.daily_time)) <= moment:
                        if await self.post_one(settings, day):
                            posted.append(settings.guild_id)
            return posted

    async def post_one(self, settings, day: int) -> bool:
        channel = self.bot.get_channel(settings.daily_channel_id)
        if channel is None:  # the bot left the server or the channel is gone: nothing to claim
            return False
        store = self.bot.store
        if not await store.claim_daily_post(settings.guild_id, day):
            return False
        try:
            embed, view = await build_post(store, settings.guild_id, day)
            message = await channel.send(embed=embed, view=view)
        except discord.HTTPException:
            log.warning("could not post daily %s in guild %s", day, settings.guild_id, exc_info=True)
            return False
        await store.set_daily_post_message(settings.guild_id, day, channel.id, message.id)
        log.info("posted daily %s in guild %s", day, settings.guild_id)
        return True


def poster(client) -> DailyPoster | None:
    """The running poster, or None when the daily is turned off in the bot's config."""
    return client.get_cog(DailyPoster.__cog_name__)


# --- admin commands ----------------------------------------------------------------------------

@app_commands.command(name="daily", description="Post the daily challenge in a channel every day at a UTC time")
@app_commands.describe(channel="The channel for the daily post",
                       time="UTC time of day, HH:MM (default: the bot's configured time)")
async def admin_daily(interaction: discord.Interaction, channel: discord.TextChannel,
                      time: app_commands.Range[str, 1, TIME_LENGTH] | None = None) -> None:
    if not await require_manager(interaction):
        return
    config = interaction.client.config
    if poster(interaction.client) is None:
        await interaction.response.send_message(DAILY_OFF, ephemeral=True)
        return
    try:
        post_time = parse_post_time(time) if time is not None else _utc_time(config.daily_post_time)
    except BadTime as bad:
        await interaction.response.send_message(f"{bad} Nothing was changed.", ephemeral=True)
        return
    permissions = channel.permissions_for(channel.guild.me)
    if not (permissions.view_channel and permissions.send_messages and permissions.embed_links):
        await interaction.response.send_message(
            f"I can't post in {channel.mention}: I need View Channel, Send Messages and Embed Links there. "
            "Nothing was changed.", ephemeral=True)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await interaction.client.store.set_daily_schedule(interaction.guild_id, channel.id, post_time)
    await poster(interaction.client).reschedule()
    when = next_post_at(post_time, clock.now())
    await interaction.followup.send(
        f"The daily challenge will be posted in {channel.mention} every day at {format_post_time(post_time)} UTC "
        f"(next {discord.utils.format_dt(when, 'R')}, {discord.utils.format_dt(when, 't')} your time).",
        ephemeral=True)


@app_commands.command(name="daily-off", description="Stop posting the daily challenge in this server")
async def admin_daily_off(interaction: discord.Interaction) -> None:
    if not await require_manager(interaction):
        return
    store = interaction.client.store
    settings = await store.get_guild_settings(interaction.guild_id)
    if not settings.daily_scheduled:
        await interaction.response.send_message("The daily post is already off here.", ephemeral=True)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await store.set_daily_schedule(interaction.guild_id, None, None)
    if poster(interaction.client) is not None:
        await poster(interaction.client).reschedule()
    await interaction.followup.send("The daily post is off. `/scoundrel daily` still plays today's challenge.",
                                    ephemeral=True)


ADMIN_COMMANDS = (admin_daily, admin_daily_off)
