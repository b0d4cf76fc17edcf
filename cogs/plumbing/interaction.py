"""``Interaction``: what the cogs annotate an interaction with, and ``Bot``: the client it comes from, as the cogs
see it. The process (``bot.client.ScoundrelBot``) is a ``Bot``; the cogs never import it, so no import runs from
the surfaces back up to the process, not even for the type checker.

``Bot`` declares what the cogs use of the bot beyond discord.py's own: ``store`` (a ``storage.Store``), ``config``
(the ``Settings`` below), ``par_solver`` (the solver's service, or None), ``metrics`` and the interactions being
handled (``in_flight``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import time
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

import discord
from discord.ext import commands

if TYPE_CHECKING:
    from storage.store import Store


class Settings(Protocol):
    """The settings the cogs read (``bot.config.Config`` has them)."""

    @property
    def daily_enabled(self) -> bool: ...
    @property
    def default_preset(self) -> str: ...
    @property
    def daily_post_time(self) -> time: ...
    @property
    def activity(self) -> object | None: ...  # the [activity] section: the table as a Discord Activity, or None


class Bot(commands.Bot):
    """What the cogs use of the Scoundrel bot: declared here, filled in by ``bot.client.ScoundrelBot`` (a
    subclass). Nothing but annotations: the process keeps every behaviour."""

    store: Store
    config: Settings
    par_solver: Callable[..., Awaitable[Any]] | None
    metrics: Any  # bot.metrics.Metrics
    in_flight: set[asyncio.Task]


if TYPE_CHECKING:
    Interaction: TypeAlias = discord.Interaction[Bot]
else:
    Interaction = discord.Interaction  # what discord.py sees when it reads a command's annotations
