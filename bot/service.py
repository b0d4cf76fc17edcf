"""An optional HTTP endpoint for operators: ``/healthz`` and ``/metrics`` (``[service] address`` in the config).

``/healthz`` answers 200 when the bot is connected to Discord's gateway and its database answers, else 503, with
a JSON body saying which part is down. ``/metrics`` is Prometheus' text format (``bot/metrics.py``). Off unless an
address is configured; bind it to loopback or a private interface, it has no authentication.
"""

from __future__ import annotations

import logging

from aiohttp import web

log = logging.getLogger(__name__)


class Service:
    def __init__(self, bot, host: str, port: int) -> None:
        self.bot, self.host, self.port = bot, host, port
        self.runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        await web.TCPSite(self.runner, self.host, self.port).start()
        self.port = self.runner.addresses[0][1]  # the real port when 0 asked for any free one
        log.info("health and metrics on http://%s:%d/healthz and /metrics", self.host, self.port)

    async def close(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    async def healthz(self, request: web.Request) -> web.Response:
        gateway = self.bot.is_ready() and not self.bot.is_closed()
        try:
            database = self.bot.store is not None and await self.bot.store.ping()
        except Exception:  # noqa: BLE001 - any failure means "not reachable"
            log.warning("health check: the database did not answer", exc_info=True)
            database = False
        body = {"gateway": "connected" if gateway else "disconnected", "database": "ok" if database else "down"}
        return web.json_response(body, status=200 if gateway and database else 503)

    async def metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=self.bot.metrics.exposition(),
                            headers={"Content-Type": "text/plain; version=0.0.4; charset=utf-8"})
