"""The bot's HTTP listeners: the operators' ``/healthz`` and ``/metrics`` (``[service] address``), and the table as a
Discord Activity (``[activity] address``), each on its own socket: what the Activity's public URL reaches is the
table and nothing else, so the operators' endpoints are never served to the Internet through it.

``/healthz`` answers 200 when the bot is connected to Discord's gateway, its database takes a write, and no
scheduled job (the sweep, the day's par, the daily posts) has been failing for more than 15 minutes; else 503,
with a JSON body saying which part is down and why. It answers within 2 s whatever the database does: a
database that does not answer in time is reported as down. ``/metrics`` is Prometheus' text format
(``bot/metrics.py``). Off unless an address is configured; bind it to loopback or a private interface, it has no
authentication. Every refusal on either listener is JSON (``web.http``'s conventions).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from aiohttp import web

from cogs.plumbing import clock

if TYPE_CHECKING:
    from bot.chat_follows import ChatFollows
    from web.identity import DiscordIdentity

log = logging.getLogger(__name__)
DATABASE_WAIT = 1.5  # seconds the database is given to take a write before it is reported as down


class Service:
    def __init__(self, bot, host: str | None, port: int = 0) -> None:
        """``host`` and ``port``: the operators' endpoint (None: not served); the table's address is the bot's
        ``[activity] address``."""
        self.bot, self.host, self.port = bot, host, port
        self.table_port: int | None = None  # where the table answers, once started (the real port when 0 was asked)
        self.runners: list[web.AppRunner] = []
        self.probe: asyncio.Task | None = None  # one look at the database at a time: a hung one is not asked again
        self.identity: DiscordIdentity | None = None  # the Activity's players, when [activity] is set
        self.follows: ChatFollows | None = None  # what the chat does after the table's moves

    async def start(self) -> None:
        from web.http import Runner, adopt_conventions

        if self.host is not None:
            app = web.Application()
            adopt_conventions(app)
            app.router.add_get("/healthz", self.healthz)
            app.router.add_get("/metrics", self.metrics)
            self.port = await self._serve(Runner(app, access_log=None), self.host, self.port)
            log.info("health and metrics on http://%s:%d/healthz and /metrics", self.host, self.port)
        activity = getattr(self.bot.config, "activity", None)
        if activity is not None:  # the table as a Discord Activity (web/), behind the configured public URL
            from bot.chat_follows import ChatFollows
            from web.identity import DiscordIdentity
            from web.routes import Table, add_routes

            self.identity = DiscordIdentity(activity.client_id, activity.client_secret, activity.api_base,
                                            bot_token=self.bot.config.token)
            self.follows = ChatFollows(self.bot)
            table = web.Application()
            add_routes(table, Table(store=lambda: self.bot.store, identity=self.identity,
                                    client_id=activity.client_id, default_preset=self.bot.config.default_preset,
                                    daily_enabled=self.bot.config.daily_enabled,
                                    after_move=self.follows.after_move))
            host, port = activity.address
            self.table_port = await self._serve(Runner(table, access_log=None), host, port)
            log.info("the Activity's table on http://%s:%d/ (behind %s)", host, self.table_port, activity.public_url)

    async def _serve(self, runner: web.AppRunner, host: str, port: int) -> int:
        """Start ``runner`` on host:port; the port it listens on."""
        await runner.setup()
        self.runners.append(runner)
        await web.TCPSite(runner, host, port).start()
        return runner.addresses[0][1]

    async def close(self) -> None:
        if self.follows is not None:
            await self.follows.close()
        if self.identity is not None:
            await self.identity.close()
        while self.runners:
            await self.runners.pop().cleanup()

    async def healthz(self, request: web.Request) -> web.Response:
        from cogs.daily.post import poster

        gateway = self.bot.is_ready() and not self.bot.is_closed()
        problem = await self.database_problem()
        scheduler = poster(self.bot)
        overdue = scheduler.jobs.overdue(clock.now()) if scheduler is not None else []
        body = {"gateway": "connected" if gateway else "disconnected", "database": "down" if problem else "ok",
                "overdue": overdue}
        reasons = ([] if gateway else ["not connected to Discord"]) + ([problem] if problem else []) + [
            f"the scheduled {job} has been failing for more than 15 minutes" for job in overdue]
        if reasons:
            body["reason"] = "; ".join(reasons)
        return web.json_response(body, status=503 if reasons else 200)

    async def database_problem(self) -> str | None:
        """Why the database cannot be written now, or None: it answered a read and a write within DATABASE_WAIT."""
        store = self.bot.store
        if store is None:
            return "the database is closed"
        if self.probe is None or self.probe.done():
            self.probe = asyncio.get_running_loop().create_task(self._write_probe(store))
        try:
            # (not 3.11's wait_for: SimCord's virtual time cannot follow it to the probe; see
            # tests/faults/test_waits_in_virtual_time.py)
            async with asyncio.timeout(DATABASE_WAIT):
                await asyncio.shield(self.probe)
        except TimeoutError:
            log.warning("health check: the database did not take a write within %.1f s", DATABASE_WAIT)
            return f"the database cannot be written: no answer within {DATABASE_WAIT:.1f} s"
        except Exception as error:  # noqa: BLE001 - any failure means "cannot be written"
            log.warning("health check: the database cannot be written", exc_info=True)
            return f"the database cannot be written ({type(error).__name__})"
        return None

    @staticmethod
    async def _write_probe(store) -> None:
        """``Store.ping`` commits a small write (its heartbeat row)."""
        if not await store.ping():
            raise RuntimeError("the database did not store the health check's write")

    async def metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=self.bot.metrics.exposition(),
                            headers={"Content-Type": "text/plain; version=0.0.4; charset=utf-8"})
