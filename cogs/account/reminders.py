"""Streak reminders: ``/scoundrel remind`` and the direct message sent before the UTC day ends (an extension).

Opt-in only: a player is messaged only after choosing a time with ``/scoundrel remind`` (1, 2, 4 or 8 hours
before 00:00 UTC), and never again after turning it off (the command, or the message's own button). One
``ext.tasks`` loop fires at 16:00, 20:00, 22:00 and 23:00 UTC (and catches up at start-up, while the day runs);
each reminder is claimed in the database before it is sent (``store.reminders.claim``), so a player gets at most
one a day across restarts and processes. Closed DMs are recorded, not retried, and told at the next
``/scoundrel remind``; a passing failure (Discord down) gives the claim back for the next reminder time that day.
Buttons::

    sc:dplay:<day>   the daily post's Play button (cogs/daily/play.py): starts the daily in the DM
    sc:remind:off    turn reminders off
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, time

import discord
from discord import app_commands
from discord.ext import commands, tasks

from app.daily import reminders
from app.daily.days import day_end
from app.daily.par import process_name
from app.daily.reminders import CLOSED, FAILED, REMIND_HOURS, SENT
from cogs.commands.group import add_subcommands, remove_subcommands
from cogs.plumbing import clock
from cogs.plumbing.errors import DAILY_OFF, report_error, send_private
from cogs.plumbing.interaction import Bot, Interaction, offered
from cogs.text.command_text import slash
from cogs.text.locale import for_reader
from games.i18n import Messages, messages_for

log = logging.getLogger(__name__)

DMS_CLOSED = 50007  # Discord's "Cannot send messages to this user"
FIRE_TIMES = sorted(time(24 - hours, 0, tzinfo=UTC) for hours in REMIND_HOURS)


# --- the message ------------------------------------------------------------------------------------------

def reminder_text(tr: Messages, day: int, streak: int) -> str:
    when = f"{discord.utils.format_dt(day_end(day), 't')} ({discord.utils.format_dt(day_end(day), 'R')})"
    if streak > 0:
        return tr.plural("🔥 Your **{n}-day** daily streak ends at {when} unless you play Daily #{day}.",
                         "🔥 Your **{n}-day** daily streak ends at {when} unless you play Daily #{day}.",
                         streak, when=when, day=day)
    return tr("🗝️ Daily #{day} ends at {when} and you haven't played it yet.", when=when, day=day)


def reminder_view(bot: Bot, tr: Messages, day: int) -> discord.ui.View:
    """The reminder's buttons: the daily's Play (``bot.offers.reminder``), then turning reminders off."""
    view = discord.ui.View(timeout=None)
    for item in offered(bot, bot.offers.reminder, day, tr):
        view.add_item(item)
    view.add_item(RemindersOffButton(tr))
    return view


class RemindersOffButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sc:remind:off"):
    def __init__(self, tr: Messages | None = None) -> None:
        label = tr("Turn reminders off") if tr is not None else "Turn reminders off"
        super().__init__(discord.ui.Button(label=label, emoji="🔕", style=discord.ButtonStyle.secondary,
                                           custom_id="sc:remind:off"))

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Button, match):
        return cls()

    async def callback(self, interaction: Interaction) -> None:
        try:
            tr = for_reader(interaction)
            await reminders.turn_off(interaction.client.store, interaction.user.id)
            await send_private(interaction, tr("🔕 Reminders are off: I won't message you again. `{command}` turns "
                                               "them back on.", command=slash(tr, "remind")))
        except Exception as error:  # discord.py only logs DynamicItem errors; the player must hear too
            await report_error(interaction, error, where="reminders off button")


# --- the sender -------------------------------------------------------------------------------------------

class StreakReminders(commands.Cog):
    """Sends the day's due reminders at each reminder time; each one claimed in the database first."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.owner = process_name()
        self.sending = asyncio.Lock()

    async def cog_load(self) -> None:
        self.remind_loop.start()

    async def cog_unload(self) -> None:
        self.remind_loop.cancel()

    @tasks.loop(time=FIRE_TIMES)
    async def remind_loop(self) -> None:
        await self.send_due()

    @remind_loop.before_loop
    async def before_remind_loop(self) -> None:
        await self.bot.wait_until_ready()
        await self.send_due()  # reminders whose time passed while the bot was down, if their day still runs

    async def send_due(self) -> int:
        """Send every reminder due now and not sent yet; the number sent. Never raises."""
        try:
            async with self.sending:
                sent = 0
                async for claimed in reminders.due(self.bot.store, clock.now(), self.owner):
                    sent += await self.send_one(claimed)
                return sent
        except Exception:
            log.exception("streak reminders could not be sent; the next reminder time tries again")
            return 0

    async def send_one(self, claimed: reminders.Due) -> bool:
        """Send one claimed reminder; whether it was delivered."""
        store, reminder, day = self.bot.store, claimed.reminder, claimed.day
        tr = messages_for(reminder.locale)
        try:
            user = self.bot.get_user(reminder.user_id) or await self.bot.fetch_user(reminder.user_id)
            await user.send(reminder_text(tr, day, claimed.streak), view=reminder_view(self.bot, tr, day))
        except discord.Forbidden as error:
            outcome = CLOSED if error.code == DMS_CLOSED else FAILED
            log.info("reminder to user %s for daily %s not delivered (%s)", reminder.user_id, day, error.text)
        except (TimeoutError, discord.HTTPException, OSError) as error:
            # A passing failure: the claim is given back, so the next reminder time today tries again.
            log.warning("reminder to user %s for daily %s failed: %s", reminder.user_id, day, error)
            await reminders.release(store, claimed, self.owner)
            return False
        else:
            outcome = SENT
        await reminders.sent(store, claimed, outcome)
        return outcome == SENT


# --- the command ------------------------------------------------------------------------------------------

CHOICES = [app_commands.Choice(name="off", value=0),
           *(app_commands.Choice(name=name, value=hours) for name, hours in (
               ("1 hour before the day ends", 1), ("2 hours before the day ends", 2),
               ("4 hours before the day ends", 4), ("8 hours before the day ends", 8)))]


@app_commands.command(name="remind", description="A direct message before the daily ends, if you haven't played it")
@app_commands.describe(when="How long before 00:00 UTC to remind you, or off (default: show your setting)")
@app_commands.choices(when=CHOICES)
async def remind(interaction: Interaction, when: app_commands.Choice[int] | None = None) -> None:
    tr = for_reader(interaction)
    if not interaction.client.config.daily_enabled:
        await send_private(interaction, tr(DAILY_OFF))
        return
    store, user_id = interaction.client.store, interaction.user.id
    if when is None:  # show the setting (and tell of an undelivered reminder once)
        chosen = await reminders.setting(store, user_id)
    else:
        chosen = await reminders.choose(store, user_id, when.value or None, str(interaction.locale))
    hours, lines = chosen.hours, []
    if chosen.undelivered_day is not None:
        lines.append(tr("⚠️ Your reminder for Daily #{day} could not be delivered: your direct messages are closed "
                        "to me. Allow direct messages from apps (or from this server's members) to get them.",
                        day=chosen.undelivered_day))
    if hours is None:
        lines.append(tr("🔕 Reminders are off: I won't message you. `{command}` chooses a time.",
                        command=slash(tr, "remind", "when")))
    else:
        moment = reminders.next_reminder(clock.now(), hours)
        lines.append(tr.plural(
            "🔔 On days you haven't played the daily, I'll message you {n} hour before it ends (00:00 UTC). "
            "Next check: {when}.",
            "🔔 On days you haven't played the daily, I'll message you {n} hours before it ends (00:00 UTC). "
            "Next check: {when}.", hours, when=discord.utils.format_dt(moment, 'R')))
    await send_private(interaction, "\n".join(lines))


DYNAMIC_ITEMS = (RemindersOffButton,)


async def setup(bot) -> None:
    add_subcommands(remind)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    if bot.config.daily_enabled:
        await bot.add_cog(StreakReminders(bot))


async def teardown(bot) -> None:
    remove_subcommands(remind)
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
