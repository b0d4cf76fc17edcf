"""``Interaction``: what the cogs annotate an interaction with, and ``Bot``: the client it comes from, as the cogs
see it. The process (``bot.client.ScoundrelBot``) is a ``Bot``; the cogs never import it, so no import runs from
the surfaces back up to the process, not even for the type checker.

``Bot`` declares what the cogs use of the bot beyond discord.py's own: ``store`` (a ``storage.Store``), ``config``
(the ``Settings`` below), ``par_solver`` (the solver's service, or None), ``daily_par`` (the keeper of the days'
pars, ``app.daily.par.ParKeeper``), ``metrics``, the interactions being
handled (``in_flight``) and what a game message offers besides its cards (``offers``, declared in cogs/offers.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import time
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

import discord
from discord.ext import commands

from games.i18n import Messages

if TYPE_CHECKING:
    from app.daily.par import ParKeeper
    from app.records import Store


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


@dataclass(frozen=True)
class Offer:
    """Buttons a message offers for one feature, while the extension named ``extension`` is loaded: its function
    named ``items`` gives them, ``items(record, tr)`` (none when the record is not the feature's to decorate).

    By name, looked up in the extension's module as loaded: discord.py runs an extension's module afresh each time
    it loads it, with its own button classes and settings, and those are the ones a message must carry."""

    extension: str
    items: str
    shows: str | None = None  # the flag of ``app.shown.Shown`` that allows it (None: offered wherever listed)


@dataclass(frozen=True)
class Offers:
    """What messages offer besides their own buttons, in the order shown: under a finished game, under a game
    being played, under a finished duel, under a streak reminder (``items(day, tr)``); and what one feature's
    command hands to another's, by the same rule (``lent``): the ``duel:`` option of ``/scoundrel replay``."""

    finished: tuple[Offer, ...] = ()
    playing: tuple[Offer, ...] = ()
    duel_over: tuple[Offer, ...] = ()
    reminder: tuple[Offer, ...] = ()
    replay_duel: Offer | None = None


def offered(bot: Bot | None, offers: tuple[Offer, ...], record, tr: Messages,
            shown: object = None) -> list[discord.ui.Item]:
    """The items of ``offers`` for ``record``, in order, from the extensions ``bot`` has loaded (none without a
    bot), each only where ``shown`` (what the viewer may be offered, ``app.shown.Shown``) allows it."""
    if bot is None:
        return []
    loaded = bot.extensions
    return [item for offer in offers
            if offer.extension in loaded and (offer.shows is None or getattr(shown, offer.shows, False))
            for item in getattr(loaded[offer.extension], offer.items)(record, tr)]


def lent(bot: Bot, offer: Offer | None) -> Callable[..., Any] | None:
    """The function ``offer`` names in its extension as loaded, or None while that extension is not loaded."""
    if offer is None or offer.extension not in bot.extensions:
        return None
    return getattr(bot.extensions[offer.extension], offer.items)


class Bot(commands.Bot):
    """What the cogs use of the Scoundrel bot: declared here, filled in by ``bot.client.ScoundrelBot`` (a
    subclass). Nothing but annotations: the process keeps every behaviour."""

    store: Store
    config: Settings
    par_solver: Callable[..., Awaitable[Any]] | None
    daily_par: ParKeeper
    metrics: Any  # bot.metrics.Metrics
    in_flight: set[asyncio.Task]
    offers: Offers


if TYPE_CHECKING:
    Interaction: TypeAlias = discord.Interaction[Bot]
else:
    Interaction = discord.Interaction  # what discord.py sees when it reads a command's annotations
