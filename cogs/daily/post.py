"""The scheduled daily post (``/scoundrel-admin daily`` and ``daily-off`` set it: cogs/daily/post_settings.py).

One ``ext.tasks`` loop fires at explicit UTC times: 00:00 and every time a server has chosen. At start-up
and at every fire it posts for every server whose time today has passed and whose post is not delivered yet.
Each post is claimed in the database with a lease (``Store.claim_daily_post``), sent with a nonce that is the
same for every attempt, and confirmed (``confirm_daily_post``); a failure releases it with a back-off and the
retry loop tries again until it is delivered. So a post missed while the bot was down is made when it comes
back, a post that failed is retried, and no post is made twice, across restarts and processes. Whatever fails
before a post is even claimed (the database down at the post time, at midnight's sweep, at the par) is retried
the same way until it is done for the day (``cogs/daily/schedule.py``; ``/healthz`` reports a job failing for
more than 15 minutes).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, time, timedelta

import discord
from discord.ext import commands, tasks

from app.daily.days import daily_seed, day_end, day_of, post_due_at
from app.daily.deal import todays_challenge
from cogs.daily.glance import add_day_glance, results_value
from cogs.daily.par import ParKeeper, par_text, process_name
from cogs.daily.play import PlayDailyButton
from cogs.daily.schedule import PAR, POST, SWEEP, Jobs, retry_delay
from cogs.daily.share_finish import finish_share_posts
from cogs.plumbing import clock
from cogs.text.command_text import slash
from cogs.text.locale import for_server
from games.engine import seed_to_text
from games.i18n import ENGLISH, Messages

log = logging.getLogger(__name__)

MIDNIGHT = time(0, 0, tzinfo=UTC)
LEASE = timedelta(minutes=2)  # how long one process may hold a post before another takes over
RETRY_TICK = timedelta(minutes=1)  # how often failed posts are looked at
WATCHDOG_TICK = timedelta(hours=1)
# asyncio may wake a loop a hair early; a post due within this margin is made now rather than tomorrow.
EARLY_MARGIN = timedelta(seconds=30)
UNLOAD_WAIT = 2.0  # seconds a stopping bot waits for a post being made


def utc_time(value: time) -> time:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


# --- the post ------------------------------------------------------------------------------------

async def build_post(store, guild_id: int, day: int, tr: Messages = ENGLISH,
                     played: int | None = None) -> tuple[discord.Embed, discord.ui.View]:
    """The post of daily ``day`` in one server, in ``tr``'s language (the server's: everyone there reads it);
    ``played``: today's count of players here, when the caller has just read it (cogs/daily/count.py)."""
    await todays_challenge(store, day)  # recorded before anyone can play it
    embed = discord.Embed(
        title=tr("🗝️ Scoundrel Daily #{day}", day=day),
        colour=discord.Colour.dark_gold(),
        description=tr("Today's dungeon: the same deal for everyone, on every server. Play it privately below; "
                       "only your first try counts.\nEnds {when}.",
                       when=discord.utils.format_dt(day_end(day), 'R')))
    # Today's par is not shown: it would tell players still on today's deal what they can reach. It comes with
    # the revealed seed in tomorrow's post, once no attempt at today's deal can change any more.
    yesterday = day - 1
    if yesterday >= 1:
        embed.add_field(name=tr("Yesterday's best here (Daily #{day})", day=yesterday),
                        value=await results_value(store, guild_id, yesterday, tr), inline=False)
        past = await store.get_daily(yesterday)
        seed = past.seed if past is not None else daily_seed(await store.daily_secret(), yesterday)
        text = seed_to_text(seed)
        if past is not None and past.par is not None:
            # The seed once, inside the command that replays it: a phone shows it on two lines, not three.
            reveal = tr("{par} — replay it with `{command}{seed}`", seed=text,
                        par=par_text(past.par, tr, past.coach_score), command=slash(tr, "play", "seed"))
        else:
            reveal = tr("Replay it with `{command}{seed}`", seed=text, command=slash(tr, "play", "seed"))
        embed.add_field(name=tr("Daily #{day}'s seed, now revealed", day=yesterday), value=reveal, inline=False)
    await add_day_glance(embed, store, guild_id, day, tr, played)  # champions, today's count (cogs/daily/glance.py)
    view = discord.ui.View(timeout=None)
    view.add_item(PlayDailyButton(day, tr))
    return embed, view


# --- the scheduler -------------------------------------------------------------------------------

def post_nonce(guild_id: int, day: int) -> str:
    """The same nonce for every attempt at one post: Discord returns the message already made with it (within a
    few minutes) instead of making a second one, which covers a send whose answer was lost."""
    return f"d{day}g{guild_id}"[:25]


class DailyPoster(commands.Cog):
    """Posts each server's daily exactly once: claimed (a lease in the database), sent, confirmed.

    Three loops: ``post_loop`` fires at 00:00 and at every server's time; ``retry_loop`` runs while some post
    is claimed but not delivered and tries it again, with back-off, until it is; ``watchdog`` restarts the post
    loop if it ever stops and starts the retries when another process left a post undelivered.
    No error in one server's post reaches a loop: it is logged and that post retried.
    """

    def __init__(self, bot) -> None:
        self.bot = bot
        self.posting = asyncio.Lock()  # a restart of the loop never cuts a post in half
        self.owner = process_name()  # this process, for leases
        self.par = ParKeeper(bot, self.owner)
        self.jobs = Jobs()  # what is done today and what is still owed (retried by retry_loop; read by /healthz)
        self.post_failed = False  # a post failed during the current post_due
        self.times_unknown = False  # the servers' post times could not be read at start-up

    async def cog_load(self) -> None:
        try:
            times = await self.post_times()
        except Exception:  # the database is down as the bot starts: midnight for now, the retries do the rest
            log.exception("could not read the servers' post times; retrying")
            times = [MIDNIGHT]
            self.times_unknown = True
            self.job_failed(POST)
        self.post_loop.change_interval(time=times)
        self.post_loop.start()
        self.start_retrying()  # stops by itself when nothing is left to deliver
        self.watchdog.start()

    async def cog_unload(self) -> None:
        try:  # a post being made is finished (sent and confirmed) rather than cut off holding its lease
            await asyncio.wait_for(self.posting.acquire(), UNLOAD_WAIT)
            self.posting.release()
        except TimeoutError:
            log.warning("stopping while a daily post is still being made; its lease runs out by itself")
        self.watchdog.cancel()
        self.retry_loop.cancel()
        self.post_loop.cancel()
        await self.par.close()

    async def post_times(self) -> list[time]:
        times = {MIDNIGHT}
        for settings in await self.bot.store.guilds_with_daily():
            times.add(utc_time(settings.daily_time))
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
        # Catch up on a post missed while the bot was down. A bot with nothing daily to do yet starts no solve.
        try:
            store = self.bot.store
            busy = await store.guilds_with_daily() or await store.get_daily(day_of(clock.now())) is not None
        except Exception:
            log.exception("catching up on daily posts failed; the retry loop will try again")
            self.job_failed(SWEEP)
            self.job_failed(POST)
            return
        await self.prepare_and_post(solve=bool(busy))

    @tasks.loop(seconds=RETRY_TICK.total_seconds())
    async def retry_loop(self) -> None:
        """Jobs that failed (sweep, par, posts: see cogs/daily/schedule.py) and posts claimed but not delivered (a
        failure, or a process that died holding one) are tried again, with back-off, until done."""
        due = self.jobs.due(clock.now())
        if SWEEP in due:
            await self.sweep()
        if PAR in due:
            await self.solve_par()
        if self.jobs.any_failing() and not self.jobs.failing(POST):
            return  # only the sweep or the par is owed: nothing to look up until its next attempt
        try:
            pending = await self.bot.store.undelivered_daily_posts(day_of(clock.now()))
        except Exception:
            log.exception("could not look for undelivered daily posts")
            return
        if POST in due and self.times_unknown:
            await self.reschedule_times()
        if pending or POST in due:
            await self.post_due(retrying=True)
        elif not self.jobs.any_failing():
            self.retry_loop.stop()  # nothing left to retry; a failure or the watchdog starts it again

    @retry_loop.before_loop
    async def before_retry_loop(self) -> None:
        await self.bot.wait_until_ready()

    @tasks.loop(seconds=WATCHDOG_TICK.total_seconds())
    async def watchdog(self) -> None:
        if not self.post_loop.is_running():
            log.error("the daily post loop had stopped; restarting it")
            self.post_loop.start()
        try:  # a post another process claimed and never delivered (it died) is taken over here
            if await self.bot.store.undelivered_daily_posts(day_of(clock.now())):
                self.start_retrying()
        except Exception:
            log.exception("could not look for undelivered daily posts")

    def start_retrying(self) -> None:
        if not self.retry_loop.is_running():
            self.retry_loop.start()

    def job_failed(self, name: str) -> None:
        delay = self.jobs.failed(name, clock.now())
        log.warning("scheduled %s failed; next attempt in %s", name, delay)
        self.start_retrying()

    async def reschedule_times(self) -> None:
        """The post loop set to the servers' times once they can be read (they could not be at start-up)."""
        try:
            await self.reschedule()
            self.times_unknown = False
        except Exception:
            log.exception("could not read the servers' post times")

    async def prepare_and_post(self, solve: bool = True) -> None:
        """Close yesterday's unfinished attempts, solve today's par (at 00:00, before anyone has played), post,
        then finish yesterday's Share posts. Never raises; what fails is retried by ``retry_loop``."""
        await self.sweep()
        if solve:
            await self.solve_par()
        await self.post_due()
        await self.finish_shares()

    async def finish_shares(self) -> None:
        """Par and the streak added to the Share posts of days now over. Never raises: posts left over (the
        database down) are finished after the next scheduled run."""
        try:
            edited = await finish_share_posts(self.bot)
            if edited:
                log.info("added par to %d share posts of past days", edited)
        except Exception:
            log.exception("finishing the share posts of past days failed; trying again after the next post")

    async def sweep(self) -> None:
        """Close the dailies of past days. Never raises."""
        try:
            # Not now + EARLY_MARGIN: a wake-up a hair before midnight must not close a day still running.
            today = day_of(clock.now())
            closed = await self.bot.store.expire_dailies(today)
            if closed:
                log.info("closed %d daily games whose day had ended", len(closed))
            self.jobs.succeeded(SWEEP, today)
        except Exception:
            log.exception("closing the dailies of past days failed; a move on one is still refused")
            self.job_failed(SWEEP)

    async def solve_par(self) -> None:
        """Today's par (the solver's own refusal or time-out is an answer: no par). Never raises."""
        try:
            day = day_of(clock.now() + EARLY_MARGIN)
            await self.par.ensure(day)
            self.jobs.succeeded(PAR, day)
        except Exception:
            log.exception("preparing today's par failed; posting without waiting for it")
            self.job_failed(PAR)

    async def post_due(self, retrying: bool = False) -> list[int]:
        """Post today's daily wherever it is due and not delivered yet; returns the guild ids posted to.
        Never raises: a failure is logged and that post is retried by ``retry_loop``."""
        try:
            async with self.posting:
                self.post_failed = False
                now = clock.now()
                moment = now + EARLY_MARGIN  # a wake-up just before midnight still makes the 00:00 posts
                days = sorted({day_of(now), day_of(moment)})
                posted = []
                store = self.bot.store
                scheduled = await store.guilds_with_daily()
                for day in days:
                    delivered = await store.delivered_daily_posts(day)
                    for settings in scheduled:
                        if settings.guild_id in delivered:
                            continue
                        if post_due_at(day, utc_time(settings.daily_time)) <= moment:
                            if await self.post_one(settings, day):
                                posted.append(settings.guild_id)
                if not self.post_failed:
                    self.jobs.succeeded(POST, day_of(now))
                return posted
        except Exception:
            log.exception("daily posts could not be checked%s; trying again soon", " (retry)" if retrying else "")
            self.job_failed(POST)
            return []

    async def post_one(self, settings, day: int) -> bool:
        """Claim, send, confirm one server's post; True if this call delivered it."""
        channel = self.bot.get_channel(settings.daily_channel_id)
        if channel is None or getattr(channel.guild, "id", None) != settings.guild_id:
            # the bot left the server or the channel is gone, or the server is on another process's shard
            return False
        store, guild_id = self.bot.store, settings.guild_id
        try:
            if not await store.claim_daily_post(guild_id, day, self.owner, LEASE):
                return False
        except Exception:
            log.exception("could not claim daily %s in guild %s", day, guild_id)
            self.post_failed = True
            self.job_failed(POST)
            return False
        try:
            # Posted on the bot's own, for everyone there: in the server's preferred language.
            embed, view = await build_post(store, guild_id, day, for_server(getattr(channel, "guild", None)))
            role = settings.daily_role_id
            message = await channel.send(
                content=f"<@&{role}>" if role else None, embed=embed, view=view, nonce=post_nonce(guild_id, day),
                allowed_mentions=discord.AllowedMentions(roles=[discord.Object(role)]) if role else None)
        except Exception as error:  # noqa: BLE001 - any failure: release the post for a later attempt
            await self.failed(guild_id, day, error)
            return False
        try:
            await store.confirm_daily_post(guild_id, day, channel.id, message.id)
        except Exception:  # the message exists; the lease expires and the nonce stops a second copy
            log.exception("daily %s posted in guild %s but not recorded", day, guild_id)
        log.info("posted daily %s in guild %s", day, guild_id)
        return True

    async def failed(self, guild_id: int, day: int, error: BaseException) -> None:
        self.post_failed = True
        self.jobs.failed(POST, clock.now())
        try:
            delay = await self.bot.store.release_daily_post(guild_id, day, self.owner, _describe(error), retry_delay)
        except Exception:
            log.exception("could not record the failed daily post %s in guild %s", day, guild_id)
            delay = LEASE  # the lease runs out, then any process may try
        self.start_retrying()
        quiet = isinstance(error, discord.HTTPException | asyncio.TimeoutError | OSError)
        log.warning("daily %s in guild %s failed (%s); next attempt in %s", day, guild_id, _describe(error),
                    delay, exc_info=None if quiet else error)


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:300]


def poster(client) -> DailyPoster | None:
    """The running poster, or None when the daily is turned off in the bot's config."""
    return client.get_cog(DailyPoster.__cog_name__)
