"""The scheduled daily post (``/scoundrel-admin daily`` and ``daily-off`` set it: cogs/daily/post_settings.py).

One ``ext.tasks`` loop fires at explicit UTC times: 00:00 and every time a server has chosen. At start-up and at
every fire it runs the daily round (app/daily/round.py: who is due, claim, build, confirm, retry) for the servers
of this process's shards; this cog only schedules the round, words each post and sends it, paced by the process's
share of Discord's global limit (``bot.send_budget``: app/daily/budget.py), posts first. A post that failed is
retried by the retry loop until it is delivered or given up; a post missed while the bot was down is made when it
comes back; no post is made twice, across restarts and processes. Whatever fails before a post is even claimed
(the database down at the post time, at midnight's sweep, at the par) is retried the same way until it is done
for the day (``cogs/daily/schedule.py``; ``/healthz`` reports a job failing for more than 15 minutes).

The day's deal, par and the coach's score are made a day ahead: after each midnight's posts the next day's par is
solved in the background (``solve_par``), under a lease shared by every process (app/daily/par.py), so the next
midnight's posts go out at once and its first games show par when they end.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import time, timedelta

import discord
from discord.ext import commands, tasks

from app.daily.budget import SendBudget
from app.daily.days import day_of
from app.daily.par import ParKeeper
from app.daily.post_facts import DayFacts, ServerFacts
from app.daily.round import (
    EARLY_MARGIN,
    MIDNIGHT,
    DailyRound,
    Due,
    RoundReport,
    RoundStopped,
    Unreachable,
    anything_daily,
    due_posts,
    in_flight_for,
    post_nonce,
    post_times,
    undelivered_posts,
)
from app.daily.sweep import close_past_dailies
from cogs.daily.glance import post_embed
from cogs.daily.play import PlayDailyButton
from cogs.daily.schedule import PAR, POST, SWEEP, Jobs
from cogs.daily.share_finish import finish_share_posts
from cogs.plumbing import clock
from cogs.text.locale import for_server
from games.i18n import ENGLISH, Messages

log = logging.getLogger(__name__)

RETRY_TICK = timedelta(minutes=1)  # how often failed posts are looked at
WATCHDOG_TICK = timedelta(hours=1)
UNLOAD_WAIT = 2.0  # seconds a stopping bot waits for a round being made
GONE = (discord.NotFound, discord.Forbidden)  # the channel deleted, the bot removed, a permission missing


def post_message(facts: DayFacts, server: ServerFacts, tr: Messages = ENGLISH
                 ) -> tuple[discord.Embed, discord.ui.View]:
    """The post of one server, in ``tr``'s language (the server's: everyone there reads it)."""
    view = discord.ui.View(timeout=None)
    view.add_item(PlayDailyButton(facts.day, tr))
    return post_embed(facts, server, tr), view


async def send_post(channel: discord.abc.Messageable, item: Due, facts: DayFacts, server: ServerFacts,
                    budget: SendBudget, tr: Messages = ENGLISH) -> tuple[int, int]:
    """Word and send one post, in its turn under the global limit (posts first); (channel id, message id).
    Raises ``Unreachable`` when the server cannot take it (channel gone, bot removed, no permission)."""
    embed, view = post_message(facts, server, tr)
    role = item.role_id
    await budget.take(urgent=True)
    try:
        message = await channel.send(
            content=f"<@&{role}>" if role else None, embed=embed, view=view, nonce=post_nonce(item.guild_id, item.day),
            allowed_mentions=discord.AllowedMentions(roles=[discord.Object(role)]) if role else
            discord.AllowedMentions.none())
    except GONE as error:
        raise Unreachable(f"{error.status} {error.text or type(error).__name__}") from error
    return item.channel_id, message.id


class DailyPoster(commands.Cog):
    """Schedules the daily round and sends its posts.

    Three loops: ``post_loop`` fires at 00:00 and at every server's time; ``retry_loop`` runs
    while some post is owed and runs the round again, with back-off, until it is delivered or given up;
    ``watchdog`` restarts the post loop if it ever stops and starts the retries when another process left a post
    undelivered. No error in one server's post reaches a loop: the round logs it and that post is retried.
    """

    def __init__(self, bot) -> None:
        self.bot = bot
        self.posting = asyncio.Lock()  # one round at a time; a restart of the loop never cuts a round in half
        self.owner = bot.daily_par.owner  # this process, as it signs its leases
        self.jobs = Jobs()  # what is done today and what is still owed (retried by retry_loop; read by /healthz)
        self.times_unknown = False  # the servers' post times could not be read at start-up
        self.last_report: RoundReport | None = None  # the last round's (for the logs and the tests)
        self.round: DailyRound | None = None  # the round being made

    @property
    def par(self) -> ParKeeper:
        """The bot's keeper of the days' pars (a daily started while par is unknown asks it too: app.events)."""
        return self.bot.daily_par

    @property
    def budget(self) -> SendBudget:
        return self.bot.send_budget

    async def cog_load(self) -> None:
        try:
            times = await self.times()
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
        if self.round is not None:
            self.round.stop()  # no new post; those in flight are sent and confirmed
        try:  # a round being made is finished (sent and confirmed) rather than cut off holding its leases
            await asyncio.wait_for(self.posting.acquire(), UNLOAD_WAIT)
            self.posting.release()
        except TimeoutError:
            log.warning("stopping while daily posts are still being made; their leases run out by themselves")
        self.watchdog.cancel()
        self.retry_loop.cancel()
        self.post_loop.cancel()
        await self.par.close()

    async def times(self) -> list[time]:
        times = {MIDNIGHT} | await post_times(self.bot.store)
        return sorted(times, key=lambda t: (t.hour, t.minute))

    async def reschedule(self) -> None:
        """Fire at every server's time. Restarts the loop: discord.py only re-times a loop that has fired once,
        and the restart's first step (``before_loop``) makes any post that is now due."""
        times = await self.times()
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
            busy = await anything_daily(self.bot.store, day_of(clock.now()))
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
            pending = await undelivered_posts(self.bot.store, clock.now(), self.mine)
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
            if await undelivered_posts(self.bot.store, clock.now(), self.mine):
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
        """Close yesterday's unfinished attempts (their results are in today's post), post, then make sure today's
        par is there (and start tomorrow's) and finish yesterday's Share posts. Never raises; what fails is
        retried."""
        await self.sweep()
        await self.post_due()
        if solve:
            await self.solve_par()
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
            closed = await close_past_dailies(self.bot.store, today)
            if closed:
                log.info("closed %d daily games whose day had ended", closed)
            self.jobs.succeeded(SWEEP, today)
        except Exception:
            log.exception("closing the dailies of past days failed; a move on one is still refused")
            self.job_failed(SWEEP)

    async def solve_par(self) -> None:
        """Today's par (solved the day before, so normally already there), then tomorrow's in the background: the
        next midnight's posts and first games find it ready (the solver's own refusal or time-out is an answer:
        no par). Never raises; a failure is retried by ``retry_loop``."""
        try:
            day = day_of(clock.now() + EARLY_MARGIN)
            await self.par.ensure(day)
            self.jobs.succeeded(PAR, day)
        except Exception:
            log.exception("preparing the par of the day failed; posting without waiting for it")
            self.job_failed(PAR)
            return
        self.par.soon(day + 1, failed=lambda: self.job_failed(PAR))

    def mine(self, guild_id: int) -> bool:
        """Whether this process serves the server: its shard is one of this process's (``(id >> 22) % count``, as
        Discord shards servers)."""
        count, ids = self.bot.config.shard_count, self.bot.config.shard_ids
        return not count or ids is None or (guild_id >> 22) % count in ids

    async def post_due(self, retrying: bool = False) -> list[int]:
        """Run the daily round wherever a post is due and not settled yet; returns the guild ids posted to.
        Never raises: a failure is logged and retried by ``retry_loop``."""
        try:
            async with self.posting:
                now = clock.now()
                due = await due_posts(self.bot.store, now, self.mine)
                self.round = DailyRound(self.bot.store, self.owner, in_flight_for(self.budget.share))
                try:
                    report = self.last_report = await self.round.run(due, self.send)
                finally:
                    self.round = None
                if report.failed:
                    self.jobs.failed(POST, clock.now())
                    self.start_retrying()
                else:
                    self.jobs.succeeded(POST, day_of(now))
                if report.delivered or report.skipped or report.failed:
                    log.info("daily round: %d posted, %d given up, %d to retry, %d taken by another process",
                             len(report.delivered), report.skipped, report.failed, report.taken)
                return report.delivered
        except Exception as error:
            if not isinstance(error, RoundStopped):
                log.exception("daily posts could not be checked%s; trying again soon", " (retry)" if retrying else "")
            self.job_failed(POST)
            return []

    async def send(self, item: Due, facts: DayFacts, server: ServerFacts) -> tuple[int, int]:
        guild = self.bot.get_guild(item.guild_id)
        if guild is None:
            raise Unreachable("the bot is not in this server")
        channel = guild.get_channel(item.channel_id)
        if channel is None:
            raise Unreachable("the post's channel is gone")
        # Posted on the bot's own, for everyone there: in the server's preferred language.
        return await send_post(channel, item, facts, server, self.budget, for_server(guild))


def poster(client) -> DailyPoster | None:
    """The running poster, or None when the daily is turned off in the bot's config."""
    return client.get_cog(DailyPoster.__cog_name__)
