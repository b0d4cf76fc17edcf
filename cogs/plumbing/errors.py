"""One place that turns an exception into a short private message for the player.

Slash commands reach it through ``ScoundrelTree.on_error`` (the bot is built with ``tree_cls=ScoundrelTree``;
a subclass rather than ``@tree.error`` so test harnesses that wrap the handler still see errors).
Buttons call ``report_error`` themselves: discord.py only logs exceptions raised in a ``DynamicItem`` callback.

Expected refusals (an illegal move, a stale message, a game that is not yours) are answered and logged briefly;
the database's trouble (full, down, too slow) is counted and logged once a minute (cogs/plumbing/outages.py);
anything else is answered with a generic apology and its traceback goes to the log.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from app import errors as refusals
from cogs.plumbing.bounds import ID, read_seed
from cogs.plumbing.interaction import Interaction
from cogs.plumbing.options import BadOption, check_payload
from cogs.plumbing.outages import TROUBLE
from cogs.text.command_text import command_word
from cogs.text.locale import for_reader
from games.engine import ActionParseError, IllegalAction, RulesError, SeedError
from games.i18n import ENGLISH, N_, Messages

log = logging.getLogger(__name__)

UNEXPECTED = N_("Something went wrong on my side and it has been logged. Please try again in a moment.")
DATABASE_ERRORS = (refusals.DatabaseError,)  # down, locked, full, disk trouble (storage maps the drivers')
DATABASE_DOWN = N_("I can't reach my database right now, so nothing was changed. Please try again in a moment.")
DATABASE_SLOW = N_("My database is not answering in time right now. What you did may still be saved: "
                   "`/scoundrel resume` shows your game as it is. Please try again in a moment.")
DATABASE_FULL = N_("My database is full and could not save anything, so nothing was changed. "
                   "Please try again later; the bot's operator has been told.")
DAILY_OFF = N_("The daily challenge is turned off on this bot.")  # the daily's commands and the reminders'
# Opening the table (the Activity): from a game's message and from a challenge's
NOT_OFFERED = N_("The table is not available on this bot.")
NOT_OPENED = N_("Discord did not open the table here; try again, or keep playing in chat.")


def friendly_message(error: BaseException, tr: Messages = ENGLISH) -> tuple[str, bool]:
    """(text for the player, in ``tr``'s language; whether the traceback belongs in the log)."""
    if isinstance(error, IllegalAction):
        return tr("You can't do that: {reason}", reason=tr.engine_text(str(error))), False
    if isinstance(error, SeedError | RulesError | ActionParseError):
        return str(error)[:1].upper() + str(error)[1:], False
    if isinstance(error, refusals.StaleVersion):
        return tr("This message is out of date; use `/scoundrel resume` to see your game as it is now."), False
    if isinstance(error, refusals.NotYourGame):
        return tr("That game belongs to someone else — start one with `/scoundrel play`."), False
    if isinstance(error, refusals.GameNotFound):
        return tr("That game no longer exists — start one with `/scoundrel play`."), False
    if isinstance(error, refusals.ActiveGameExists):
        return tr("You already have a game in progress: `/scoundrel resume` shows it, "
                  "`/scoundrel abandon` ends it."), False
    if isinstance(error, refusals.AttemptAlreadyUsed):
        return tr("You have already used your attempt at today's daily."), False
    if isinstance(error, refusals.CorruptGame):
        return tr("This game's saved data is damaged and cannot be played. The problem has been logged; "
                  "`/scoundrel abandon` clears it so you can start again."), True
    if isinstance(error, refusals.StoreTimeout):  # the call goes on and may still succeed: not "nothing was changed"
        return tr(DATABASE_SLOW), True
    if isinstance(error, refusals.DatabaseFull):
        return tr(DATABASE_FULL), True
    if isinstance(error, DATABASE_ERRORS):
        return tr(DATABASE_DOWN), True
    if isinstance(error, app_commands.CommandOnCooldown):
        return tr("Slow down a little: try again in {seconds} s.", seconds=f"{error.retry_after:.0f}"), False
    if isinstance(error, app_commands.MissingPermissions | app_commands.BotMissingPermissions):
        return tr("You need Manage Server to do that."), False
    if isinstance(error, BadOption):
        return tr("`{option}` can't be {value} here, so nothing happened.", option=error.name,
                  value=f"`{str(error.value)[:40]}`"), False
    if isinstance(error, app_commands.NoPrivateMessage):
        return tr("That command only works in a server."), False
    if isinstance(error, app_commands.CheckFailure):
        return tr("You can't use that command here."), False
    return tr(UNEXPECTED), True


class GameIdButton:
    """A persistent button whose custom_id is ``sc:<PREFIX>:<game id>``; list it before ``DynamicItem``::

        class ShareButton(GameIdButton, discord.ui.DynamicItem[discord.ui.Button]):
            PREFIX, LABEL, EMOJI, STYLE = "dshare", N_("Share result"), "📣", discord.ButtonStyle.primary

            async def run(self, interaction): ...

    ``ShareButton(game_id, tr)`` labels it in ``tr``'s language (the ``N_``-marked LABEL, translated). It
    derives the DynamicItem template from ``PREFIX``, rebuilds the button from its custom_id after a restart,
    and answers the player when ``run`` fails (discord.py would only log an error raised in a DynamicItem).
    """

    PREFIX: str
    LABEL: str
    EMOJI: str
    STYLE: discord.ButtonStyle
    custom_id: str  # the DynamicItem's

    def __init_subclass__(cls, **kwargs) -> None:
        kwargs.setdefault("template", rf"sc:{cls.PREFIX}:(?P<game>{ID})")
        super().__init_subclass__(**kwargs)

    def __init__(self, game_id: int, tr: Messages = ENGLISH) -> None:
        super().__init__(discord.ui.Button(label=tr(self.LABEL), emoji=self.EMOJI, style=self.STYLE,  # type: ignore[call-arg]
                                           custom_id=f"sc:{self.PREFIX}:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match, /):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:  # typed as discord.py's own: a mixin
        try:
            await self.run(interaction)
        except Exception as error:
            await report_error(interaction, error, where=f"{type(self).__name__} {self.custom_id}")

    async def run(self, interaction: Interaction) -> None:
        raise NotImplementedError  # pragma: no cover - every subclass defines it


def unwrap(error: BaseException) -> BaseException:
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError) and error.__cause__:
        error = error.__cause__
    return error


async def report_error(interaction: Interaction, error: BaseException, where: str = "") -> None:
    """Answer the player privately and log the failure; never raises."""
    error = unwrap(error)
    tr = for_reader(interaction)
    text, with_traceback = friendly_message(error, tr)
    what = where or _describe(interaction)
    database = isinstance(error, DATABASE_ERRORS)  # StoreTimeout too: a DatabaseUnavailable
    if database:  # one line a minute with a count, however many requests fail (cogs/plumbing/outages.py)
        TROUBLE.note(error, what, "down" if isinstance(error, refusals.StoreTimeout) else None)
    elif with_traceback:
        log.error("error in %s for user %s", what, interaction.user.id, exc_info=error)
    if with_traceback:
        metrics = getattr(interaction.client, "metrics", None)
        if metrics is not None:
            metrics.errors.labels(cause="database" if database else "unexpected").inc()
    else:
        log.info("refused %s for user %s: %s", what, interaction.user.id, error)
    try:
        await send_private(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell user %s about an error in %s", interaction.user.id, what, exc_info=True)


async def send_private(interaction: Interaction, text: str, **kwargs) -> None:
    """An ephemeral message, as the first response or as a follow-up, whichever is still possible."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


async def seed_option(interaction: Interaction, seed: str | None, tr: Messages) -> tuple[bool, int | None]:
    """A command's seed option read: (True, its value, or None when it was left out), or (False, None) once a bad
    one was answered with what a seed looks like (bad input is not a failure: the command starts nothing)."""
    try:
        return True, (read_seed(seed, tr) if seed is not None else None)
    except SeedError as bad:
        await send_private(interaction, tr("{problem}. Leave `{seed}` out for a new deal.", problem=str(bad),
                                           seed=command_word(tr, "seed", "option")))
        return False, None


def _describe(interaction: Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    custom_id = (interaction.data or {}).get("custom_id")  # type: ignore[call-overload]  # a component's data
    return f"component {custom_id}" if custom_id else "interaction"


class ScoundrelTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: Interaction) -> bool:
        try:
            check_payload(interaction)  # raises a refusal for a value or a place the command never offered
        except app_commands.AppCommandError:
            raise
        except Exception:  # noqa: BLE001 - a fault in the check itself must not silence the command
            log.exception("could not check the options of %s", _describe(interaction))
        return True

    async def on_error(self, interaction: Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)
