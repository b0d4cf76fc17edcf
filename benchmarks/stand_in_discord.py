"""A stand-in for Discord's REST API as the daily post meets it, on 127.0.0.1, for benchmarks/daily_post_bench.py.

It answers what discord.py asks when it posts: ``GET /users/@me`` and ``/oauth2/applications/@me`` (its log-in),
``POST /channels/{id}/messages`` and ``PATCH /channels/{id}/messages/{id}``, each after ``latency`` seconds, as
Discord's own round trip. Over all the processes that talk to it it holds the bot to a global limit of ``limit``
requests in any one-second window (Discord counts by the second): a request over it is answered at once with 429,
``{"retry_after": …, "global": true}`` and the headers ``X-RateLimit-Global: true``, ``X-RateLimit-Scope: global``
and ``Retry-After``. A message sent with a nonce and ``enforce_nonce`` that was already used comes back as the
message it made, as Discord does, so a send retried after its answer was lost does not make a second message.
Channels listed in ``gone`` answer 404 Unknown Channel, those in ``forbidden`` 403 Missing Permissions.

What it saw is in ``stats()``: requests, 429s, messages made per channel, sends answered from a nonce, the time of
the first and last message, and the most requests any one-second window let through.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import Counter, deque

from aiohttp import web

API = "/api/v10"
BOT_ID = "1000000000000000001"


def reply(data, status: int = 200, headers: dict | None = None) -> web.Response:
    """JSON as Discord sends it: discord.py reads a body as JSON only under exactly ``application/json``."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers=headers,
                        content_type="application/json")


class StandInDiscord:
    def __init__(self, *, latency: float = 0.08, limit: int = 50) -> None:
        self.latency = latency
        self.limit = limit
        self.gone: set[int] = set()
        self.forbidden: set[int] = set()
        self.window: deque[float] = deque()  # the times of the requests let through in the last second
        self.ids = itertools.count(1 << 40)
        self.by_nonce: dict[str, dict] = {}
        self.messages: Counter[int] = Counter()  # channel id -> messages made
        self.edits = 0
        self.requests = 0
        self.limited = 0
        self.from_nonce = 0
        self.first: float | None = None
        self.last: float | None = None
        self.busiest = 0
        self.runner: web.AppRunner | None = None
        self.port = 0

    async def start(self, port: int = 0) -> int:
        app = web.Application(client_max_size=8 << 20)
        app.router.add_get(API + "/users/@me", self.me)
        app.router.add_get(API + "/oauth2/applications/@me", self.application)
        app.router.add_post(API + "/channels/{channel}/messages", self.send)
        app.router.add_patch(API + "/channels/{channel}/messages/{message}", self.edit)
        app.router.add_post("/control", self.control)
        app.router.add_get("/stats", self.stats_route)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", port, backlog=1024)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self.port

    async def close(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    def _over(self) -> float | None:
        """None if the request may go (it is counted), else the seconds until it would."""
        now = time.monotonic()
        self.requests += 1
        while self.window and self.window[0] <= now - 1.0:
            self.window.popleft()
        if len(self.window) >= self.limit:
            self.limited += 1
            return max(0.001, self.window[0] + 1.0 - now)
        self.window.append(now)
        self.busiest = max(self.busiest, len(self.window))
        return None

    def _limited(self, wait: float) -> web.Response:
        retry = round(wait, 3)
        body = {"message": "You are being rate limited.", "retry_after": retry, "global": True, "code": 0}
        # discord.py takes a 429 without Via for Cloudflare's ban, not for a rate limit: Discord's carry it.
        return reply(body, status=429, headers={"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global",
                                                "Via": "1.1 google", "Retry-After": str(max(1, round(retry)))})

    @staticmethod
    def _error(status: int, code: int, message: str) -> web.Response:
        return reply({"message": message, "code": code}, status=status)

    async def me(self, request: web.Request) -> web.Response:
        return reply({"id": BOT_ID, "username": "scoundrel", "discriminator": "0", "avatar": None,
                                  "bot": True, "global_name": None, "flags": 0})

    async def application(self, request: web.Request) -> web.Response:
        return reply({"id": BOT_ID, "name": "scoundrel", "icon": None, "description": "", "bot_public": True,
                      "bot_require_code_grant": False, "verify_key": "0" * 64, "flags": 0,
                      "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None}})

    async def _payload(self, request: web.Request) -> dict:
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    return json.loads(await part.text())
            return {}
        return await request.json()

    async def send(self, request: web.Request) -> web.Response:
        wait = self._over()
        if wait is not None:
            return self._limited(wait)
        channel = int(request.match_info["channel"])
        payload = await self._payload(request)
        await asyncio.sleep(self.latency)
        if channel in self.gone:
            return self._error(404, 10003, "Unknown Channel")
        if channel in self.forbidden:
            return self._error(403, 50013, "Missing Permissions")
        nonce = payload.get("nonce")
        if nonce and payload.get("enforce_nonce") and nonce in self.by_nonce:
            self.from_nonce += 1
            return reply(self.by_nonce[nonce])
        message = self._message(channel, payload)
        if nonce:
            self.by_nonce[str(nonce)] = message
        self.messages[channel] += 1
        now = time.time()
        self.first = now if self.first is None else self.first
        self.last = now
        return reply(message)

    async def edit(self, request: web.Request) -> web.Response:
        wait = self._over()
        if wait is not None:
            return self._limited(wait)
        channel, message_id = int(request.match_info["channel"]), request.match_info["message"]
        payload = await self._payload(request)
        await asyncio.sleep(self.latency)
        self.edits += 1
        message = self._message(channel, payload)
        message["id"] = message_id
        return reply(message)

    def _message(self, channel: int, payload: dict) -> dict:
        return {"id": str(next(self.ids)), "channel_id": str(channel), "type": 0, "tts": False,
                "content": payload.get("content") or "", "embeds": payload.get("embeds") or [],
                "components": [], "attachments": [], "mentions": [], "mention_roles": [], "pinned": False,
                "mention_everyone": False, "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None,
                "flags": 0, "nonce": payload.get("nonce"),
                "author": {"id": BOT_ID, "username": "scoundrel", "discriminator": "0", "avatar": None,
                           "bot": True}}

    async def control(self, request: web.Request) -> web.Response:
        """``{"limit": N}`` lowers or raises the global limit now (a 429 storm for the bot)."""
        body = await request.json()
        if "limit" in body:
            self.limit = int(body["limit"])
        return reply(self.stats())

    async def stats_route(self, request: web.Request) -> web.Response:
        return reply(self.stats())

    def stats(self) -> dict:
        return {"requests": self.requests, "limited": self.limited, "messages": sum(self.messages.values()),
                "channels": len(self.messages), "doubled": sum(1 for n in self.messages.values() if n > 1),
                "from_nonce": self.from_nonce, "edits": self.edits, "first": self.first, "last": self.last,
                "busiest_second": self.busiest}
