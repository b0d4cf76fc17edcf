"""``ScoundrelBot``: the discord.py client that owns the store and loads the cogs."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

import cogs
from bot.config import Config
from cogs.plumbing import clock
from cogs.plumbing.interaction import Bot

if TYPE_CHECKING:
    from bot.service import Service
    from storage import Store

log = logging.getLogger(__name__)
DEFAULT_PAR = object()  # marker: use app.solver.worker.solve_par
STOP_GRACE = 6.0  # seconds a clean stop gives the interactions in flight, leaving time to close within 10 s


def find_extensions() -> list[str]:
    """The extensions to load: ``cogs.EXTENSIONS``, declared in one place and in order (see cogs/__init__.py)."""
    return list(cogs.EXTENSIONS)


YOUNG_OBJECTS = 10_000  # objects made and not yet freed before the garbage collector's youngest pass


def tune_collector() -> None:
    """The garbage collector for serving clicks, once start-up is done."""
    # What start-up made (modules, commands, the guild cache) lives as long as the process: frozen out of the
    # collector's reach, so its collections walk only what clicks create.
    gc.collect()
    gc.freeze()
    # A click's objects that the collector must free (most are freed as the click ends: cogs.plumbing.respond.release)
    # die young unless the youngest generation fills before they do: with 700 (Python's default) and many
    # clicks in flight they were promoted, and full collections of them took a tenth of a click's CPU.
    gc.set_threshold(YOUNG_OBJECTS, 10, 10)


class ScoundrelBot(Bot):
    """Slash commands and buttons only. Of the gateway's events it asks for its servers and their channels and
    roles (the ``guilds`` intent) and nothing else: interactions arrive whatever the intents, and no message, typing
    or reaction event is read, so none is sent (in a busy server they would be most of the gateway's traffic, the
    echoes of the bot's own edits included)."""

    config: Config  # all of the settings (the cogs see the part they read: cogs.plumbing.interaction.Settings)

    def __init__(self, config: Config, *, sync_commands: bool = True, extensions: list[str] | None = None,
                 par_solver=DEFAULT_PAR, coach_player=DEFAULT_PAR, own_process: bool = False) -> None:
        from cogs.plumbing.errors import ScoundrelTree  # the central error handler must be the tree's own on_error

        # Nobody is pinged unless a message names them on purpose: a send that should notify someone (a duel
        # challenge) passes its own AllowedMentions for that one user.
        shards: dict[str, Any] = {}
        if config.shard_count is not None:
            shards = {"shard_count": config.shard_count,
                      "shard_ids": list(config.shard_ids or range(config.shard_count))}
        if shards and not isinstance(self, commands.AutoShardedBot):
            raise TypeError("a sharded configuration needs ShardedScoundrelBot (see make_bot)")
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True),
                         tree_cls=ScoundrelTree, help_command=None,
                         allowed_mentions=discord.AllowedMentions.none(), **shards)
        self.config = config
        self.sync_commands = sync_commands
        # The process is this bot's alone (bot/run.py, the benchmarks): start-up then tunes its garbage collector
        # (tune_collector). Not for a bot among others in one process: its freeze would keep each closed bot alive.
        self.own_process = own_process
        self.extension_names = list(extensions) if extensions is not None else find_extensions()
        # Opened in setup_hook, None again after close(). Typed as always open: no interaction reaches a cog before
        # setup_hook or after close.
        self.store: Store = None  # type: ignore[assignment]
        # How par is computed: app.solver.worker.solve_par (a worker process), or None for no par at all (tests that
        # are not about par: a real solve costs seconds of CPU).
        if par_solver is DEFAULT_PAR:
            from app.solver.worker import solve_par as par_solver
        self.par_solver = par_solver
        # The coach's score of the daily, played in the same worker after par (app.solver.worker.coach_score); by
        # default there whenever par is.
        if coach_player is DEFAULT_PAR:
            from app.solver.worker import coach_score as default_coach

            coach_player = default_coach if par_solver is not None else None
        self.coach_player = coach_player
        from app.daily.par import ParKeeper

        # Each day's par, solved once across the processes sharing the database: the daily post has the next day's
        # solved ahead (cogs/daily/post.py), and a daily started while it is unknown asks for it (app.events).
        self.daily_par = ParKeeper(lambda: self.store, self.par_solver, self.coach_player)
        from bot.metrics import Metrics

        self.metrics = Metrics()  # served at /metrics when [service] address is set
        self.service: Service | None = None
        # The DynamicItem classes registered with discord.py, so cogs.plumbing.clicks can answer the clicks it drops.
        self.dynamic_item_classes: list[type[discord.ui.DynamicItem]] = []
        self.stopping = False  # set by shutdown(): new interactions are refused plainly (cogs/plumbing/intake.py)
        self.in_flight: set[asyncio.Task] = set()  # the tasks of interactions being handled (cogs/plumbing/intake.py)
        # Called with each interaction as it arrives, before its code runs, on the gateway's own turn: a cog's look
        # at every interaction without a task of its own for each (cogs/plumbing/clicks.py). One that needs to wait
        # starts its own task.
        self.arrival_checks: list[Callable[[discord.Interaction[ScoundrelBot]], None]] = []
        self.arrived: discord.Interaction[ScoundrelBot] | None = None  # the one being parsed (cogs/plumbing/intake.py)
        from cogs.offers import OFFERS

        self.offers = OFFERS  # what messages offer besides their own buttons, declared once (cogs/offers.py)
        from app.daily.budget import SendBudget, process_share

        # This process's share of Discord's global limit, which its posts and edits outside interactions are paced
        # by, posts first (cogs/daily/post.py, count.py); it learns of global 429s from discord.py's log.
        self.send_budget = SendBudget(process_share(config.global_rate_limit, config.shard_count, config.shard_ids))
        self.unwatch_limits: Callable[[], None] | None = None

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem]) -> None:
        super().add_dynamic_items(*items)
        self.dynamic_item_classes += [item for item in items if item not in self.dynamic_item_classes]

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem]) -> None:
        super().remove_dynamic_items(*items)
        self.dynamic_item_classes = [item for item in self.dynamic_item_classes if item not in items]

    async def setup_hook(self) -> None:
        from bot.pacing import watch_global_limits

        self.unwatch_limits = watch_global_limits(self.send_budget)
        from cogs.commands.group import scoundrel
        from cogs.text.translator import CommandTranslator

        # cogs.plumbing.clock.now is discord's utcnow: virtual under SimCord, so stored times agree with the tests'
        # clock.
        from storage import open_store
        from storage.time_limit import STORE_WAIT

        # Every store call gives up after a bounded wait (storage/time_limit.py), so nothing waits on a hung database.
        self.store = await open_store(self.config.database, clock=clock.now, wait=STORE_WAIT)
        from app import events

        # A counted daily finished, by a click in chat or a move at the table: the daily post counts it
        # (cogs/daily/count.py listens for the bot's event).
        events.listen(self.store, lambda record: self.dispatch("daily_finished", record))
        # A move in a challenge's game: its standings are edited in their turn (cogs/challenge/keeper.py).
        events.listen_challenges(self.store, lambda record: self.dispatch("challenge_moved", record))
        if self.config.daily_enabled:  # a daily started while its par is unknown: solved in the background
            events.listen_par_wanted(self.store, self.daily_par.soon)
        await self.tree.set_translator(CommandTranslator())
        for name in self.extension_names:
            await self.load_extension(name)
        self.tree.add_command(scoundrel, override=True)
        if self.sync_commands:
            await self.sync_tree()
        if self.config.service_address is not None or self.config.activity is not None:
            from bot.service import Service

            host, port = self.config.service_address or (None, 0)
            self.service = Service(self, host, port)
            await self.service.start()

    async def sync_tree(self) -> None:
        guild_id = self.config.dev_guild_id
        if guild_id is None:
            if self.config.activity is not None:  # the app's Entry Point command must survive the overwrite
                from bot.entry_point import sync_keeping_entry_point

                synced: list = await sync_keeping_entry_point(self, self.tree)
            else:
                synced = await self.tree.sync()
            log.info("synced %d commands globally (may take up to an hour to appear)", len(synced))
        else:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to dev guild %d", len(synced), guild_id)

    def dispatch(self, event_name: str, /, *args, **kwargs) -> None:
        if event_name == "interaction" and args:
            self.interaction_arrived(args[0])
        super().dispatch(event_name, *args, **kwargs)

    def interaction_arrived(self, interaction: discord.Interaction[ScoundrelBot]) -> None:
        """As an interaction arrives, before its code has run: its deadline (cogs/plumbing/respond.py), its count,
        the cogs' checks."""
        from bot.metrics import interaction_kind
        from cogs.plumbing.respond import answer_in_time

        self.arrived = interaction
        answer_in_time(interaction)
        self.metrics.interactions.labels(kind=interaction_kind(interaction)).inc()
        for check in self.arrival_checks:
            try:
                check(interaction)
            except Exception:  # noqa: BLE001 - one failing check must not stop the interaction or the gateway
                log.exception("an arrival check failed on interaction %s", interaction.id)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, getattr(self.user, "id", "?"), len(self.guilds))
        if self.own_process:
            tune_collector()

    async def shutdown(self, grace: float = STOP_GRACE) -> None:
        """A clean stop (SIGTERM, Ctrl-C): take no new work, let the interactions in flight finish (a click being
        handled is committed and its message edited) for up to ``grace`` seconds, then close: the cogs stop their
        loops and release their leases (post, par), the group commit is flushed, the database and the gateway
        are closed."""
        self.stopping = True
        pending = {task for task in self.in_flight if not task.done()}
        if pending:
            log.info("stopping: waiting for %d interactions in flight", len(pending))
            _, late = await asyncio.wait(pending, timeout=grace)
            if late:
                log.warning("stopping: %d interactions still running after %.0f s are cut off", len(late), grace)
        await self.close()

    async def close(self) -> None:
        if self.unwatch_limits is not None:
            self.unwatch_limits()
            self.unwatch_limits = None
        try:
            if self.service is not None:
                await self.service.close()
            await super().close()
        finally:
            store, self.store = self.store, None  # type: ignore[assignment]
            if store is not None:
                await store.close()  # (not timed: moves already submitted are committed first)


class ShardedScoundrelBot(ScoundrelBot, commands.AutoShardedBot):
    """The same bot over discord.py's ``AutoShardedBot``: ``config.shard_count`` shards in all, of which this process
    runs ``config.shard_ids``. Several such processes share one PostgreSQL database: a click is answered by the
    process whose shard receives it, and whatever must happen once (a daily post, the day's par) is claimed in the
    database, so no process needs to know the others."""


def make_bot(config: Config, **options) -> ScoundrelBot:
    """``ShardedScoundrelBot`` when the config names a shard count, else the plain one-connection bot."""
    cls = ScoundrelBot if config.shard_count is None else ShardedScoundrelBot
    return cls(config, **options)
