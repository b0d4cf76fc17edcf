"""A small Discord on 127.0.0.1 for benchmarks/loopback_load.py: REST under ``/api/v10`` and a gateway websocket,
both with aiohttp, enough for discord.py 2.7 to log in, sync its commands and answer interactions over the wire.

What it serves, shaped as Discord's API v10 shapes it:
- ``GET /users/@me``, ``GET /oauth2/applications/@me``, ``GET /gateway[/bot]``, the command syncs
  (``PUT /applications/{app}/commands``, ``.../guilds/{guild}/commands``: the commands are kept, with ids);
- the gateway: HELLO (op 10), IDENTIFY (op 2) → READY then a GUILD_CREATE per guild (channels, roles, the bot's
  member), heartbeats (op 1 → op 11), RESUME (op 6 → RESUMED); frames compressed as the URL asks
  (``compress=zlib-stream``: one zlib stream per connection, each message ended by a Z_SYNC_FLUSH, or none);
- the interactions: ``POST /interactions/{id}/{token}/callback`` (JSON or multipart with files, parsed for real;
  ``?with_response=1`` answered with the callback object and the message it made), ``GET``/``PATCH``/``DELETE``
  ``/webhooks/{app}/{token}/messages/@original|{id}``, follow-ups ``POST /webhooks/{app}/{token}``, and channel
  messages; every message the bot makes or edits is echoed on the gateway (MESSAGE_CREATE / MESSAGE_UPDATE with
  the bot as author), as Discord does.

Any other route is answered 404 in Discord's error shape, logged and counted (``unknown_routes``), so a bot that
asks for something this server does not know is seen, not silently mis-measured.

The load generator lives in the same process: ``send_interaction`` writes an INTERACTION_CREATE and returns a
``Pending`` whose ``first`` is the time the callback request arrived (its headers read) and whose ``answered``
future resolves with the player's answer: the message as it now reads, or a refusal (an ephemeral message).
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import json
import logging
import re
import secrets
import struct
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

try:  # the generator's own (de)serialising, the cheaper the better; the bytes on the wire are JSON either way
    import orjson

    def dumps(data: Any) -> bytes:
        return orjson.dumps(data)

    loads = orjson.loads
except ImportError:  # pragma: no cover - orjson not installed
    def dumps(data: Any) -> bytes:
        return json.dumps(data, separators=(",", ":")).encode()

    loads = json.loads

log = logging.getLogger("loopback_discord")

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
# Interaction callback types (Discord API): the ones a bot may answer with.
PONG, MESSAGE, DEFER_MESSAGE, DEFER_UPDATE, UPDATE, AUTOCOMPLETE, MODAL = 1, 4, 5, 6, 7, 8, 9
# What the bot may do in the players' channels: view, send, embed, attach, history, reactions, external emoji...
CHANNEL_PERMISSIONS = "8526149765299440"
LIMIT = 10 * 1024 * 1024  # attachment_size_limit in every interaction (a server without boosts)
ANSWER_WITHIN = 3.0  # seconds Discord gives an interaction's first answer (its callback)
# Gateway intents (IDENTIFY's ``intents``): which events a connection gets.
GUILDS, GUILD_MESSAGES, DIRECT_MESSAGES = 1 << 0, 1 << 9, 1 << 12


def event_intent(event: str, data: dict) -> int | None:
    """The intent Discord requires for ``event`` (None: sent whatever the intents, like INTERACTION_CREATE)."""
    if event.startswith("MESSAGE_"):
        return GUILD_MESSAGES if data.get("guild_id") else DIRECT_MESSAGES
    if event.startswith(("GUILD_", "CHANNEL_", "THREAD_")):
        return GUILDS
    return None


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


class Snowflakes:
    """Discord ids: milliseconds since 2015 in the top bits, a counter below, so every id is new and ordered."""

    def __init__(self) -> None:
        self.counter = itertools.count()

    def __call__(self) -> str:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return str((ms << 22) | (next(self.counter) & 0x3FFFFF))


@dataclass
class Player:
    user: dict
    guild_id: str
    channel: dict
    locale: str = "en-US"


@dataclass
class Pending:
    """One interaction sent to the bot, until its answer is known."""

    id: str
    token: str
    player: Player
    kind: str  # "command" or "component"
    message: dict | None  # the message clicked (a component's)
    sent: float = 0.0  # perf_counter when the INTERACTION_CREATE frame was written
    first: float | None = None  # when the callback request arrived
    first_type: int | None = None
    original: dict | None = None  # the message the interaction's answer is (the clicked one, or the new one)
    payload: dict = field(default_factory=dict)  # the INTERACTION_CREATE's data
    answered: asyncio.Future = field(default_factory=lambda: asyncio.get_running_loop().create_future())

    def answer(self, outcome: str, message: dict | None = None, text: str = "") -> None:
        if not self.answered.done():
            self.answered.set_result((outcome, message, text))


class FakeDiscord:
    def __init__(self, token: str, *, guilds: int = 2, channels: int = 10) -> None:
        self.token = token
        self.snowflake = Snowflakes()
        self.app_id = self.snowflake()
        self.bot_user = {"id": self.app_id, "username": "Scoundrel", "discriminator": "0", "global_name": None,
                         "avatar": None, "bot": True, "verified": True, "flags": 0, "mfa_enabled": False,
                         "public_flags": 0, "bio": "", "locale": "en-US", "email": None, "banner": None,
                         "accent_color": None, "avatar_decoration_data": None, "primary_guild": None}
        self.owner = self._user("owner")
        self.guilds = [self._guild(f"Dungeon {n}", channels) for n in range(guilds)]
        self.commands: list[dict] = []  # the bot's global commands, as synced
        self.guild_commands: dict[str, list[dict]] = {}
        self.pending: dict[str, Pending] = {}  # by interaction token
        self.messages: dict[str, dict] = {}  # by message id
        self.counts: collections.Counter = collections.Counter()  # answers and requests by kind
        self.refusals: collections.Counter = collections.Counter()  # ephemeral texts the players got
        self.unknown_routes: collections.Counter = collections.Counter()
        self.sockets: list[Gateway] = []
        self.ready = asyncio.Event()  # the bot identified and got its guilds
        self.port = 0
        self._echoes: set[asyncio.Task] = set()
        self._runner: web.AppRunner | None = None

    # --- the world ---------------------------------------------------------------------------------------------

    def _user(self, name: str) -> dict:
        return {"id": self.snowflake(), "username": name, "discriminator": "0", "global_name": name.title(),
                "avatar": None, "public_flags": 0, "flags": 0, "banner": None, "accent_color": None,
                "avatar_decoration_data": None, "collectibles": None, "display_name_styles": None,
                "primary_guild": None, "clan": None}

    def _guild(self, name: str, channels: int) -> dict:
        guild_id = self.snowflake()
        category = {"id": self.snowflake(), "type": 4, "guild_id": guild_id, "name": "Text Channels",
                    "position": 0, "permission_overwrites": [], "flags": 0, "nsfw": False, "parent_id": None}
        texts = [{"id": self.snowflake(), "type": 0, "guild_id": guild_id, "name": f"table-{n}", "position": n,
                  "permission_overwrites": [], "parent_id": category["id"], "topic": None, "nsfw": False,
                  "last_message_id": None, "rate_limit_per_user": 0, "flags": 0, "icon_emoji": None,
                  "theme_color": None, "version": 0} for n in range(channels)]
        bot_role = {"id": self.snowflake(), "name": "Scoundrel", "permissions": CHANNEL_PERMISSIONS, "position": 1,
                    "color": 0, "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                    "hoist": False, "managed": True, "mentionable": False, "icon": None, "unicode_emoji": None,
                    "flags": 0, "tags": {"bot_id": self.app_id}, "description": None, "version": 0}
        everyone = {"id": guild_id, "name": "@everyone", "permissions": "2248473465835073", "position": 0,
                    "color": 0, "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                    "hoist": False, "managed": False, "mentionable": False, "icon": None, "unicode_emoji": None,
                    "flags": 0, "description": None, "version": 0}
        me = {"user": self.bot_user, "roles": [bot_role["id"]], "joined_at": now_iso(), "deaf": False,
              "mute": False, "flags": 0, "pending": False, "nick": None, "avatar": None, "banner": None,
              "premium_since": None, "communication_disabled_until": None, "unusual_dm_activity_until": None}
        return {"id": guild_id, "name": name, "icon": None, "splash": None, "discovery_splash": None,
                "owner_id": self.owner["id"], "afk_channel_id": None, "afk_timeout": 300, "verification_level": 1,
                "default_message_notifications": 1, "explicit_content_filter": 2, "roles": [everyone, bot_role],
                "emojis": [], "stickers": [], "features": ["COMMUNITY", "NEWS"], "mfa_level": 0,
                "application_id": None, "system_channel_id": texts[0]["id"], "system_channel_flags": 0,
                "rules_channel_id": texts[0]["id"], "vanity_url_code": None, "description": None, "banner": None,
                "premium_tier": 0, "premium_subscription_count": 0, "preferred_locale": "en-US",
                "public_updates_channel_id": texts[0]["id"], "nsfw_level": 0, "premium_progress_bar_enabled": False,
                "safety_alerts_channel_id": None, "max_members": 500000, "max_video_channel_users": 25,
                "max_stage_video_channel_users": 50, "joined_at": now_iso(), "large": False, "unavailable": False,
                "member_count": 1000, "voice_states": [], "members": [me], "channels": [category, *texts],
                "threads": [], "presences": [], "stage_instances": [], "guild_scheduled_events": [],
                "soundboard_sounds": [], "lazy": True, "application_command_counts": {}, "incidents_data": None,
                "home_header": None, "latest_onboarding_question_id": None, "hub_type": None, "version": 0}

    def add_player(self, n: int, locale: str = "en-US") -> Player:
        guild = self.guilds[n % len(self.guilds)]
        texts = [c for c in guild["channels"] if c["type"] == 0]
        return Player(self._user(f"player{n}"), guild["id"], texts[(n // len(self.guilds)) % len(texts)], locale)

    # --- serving -----------------------------------------------------------------------------------------------

    async def start(self) -> int:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        api = "/api/v10"
        app.router.add_get("/gateway/ws", self.gateway)
        route = app.router.add_route
        route("GET", f"{api}/users/@me", self.me)
        route("GET", f"{api}/oauth2/applications/@me", self.application)
        route("GET", f"{api}/gateway", self.gateway_url)
        route("GET", f"{api}/gateway/bot", self.gateway_url)
        route("PUT", f"{api}/applications/{{app}}/commands", self.sync_commands)
        route("GET", f"{api}/applications/{{app}}/commands", self.synced_commands)
        route("PUT", f"{api}/applications/{{app}}/guilds/{{guild}}/commands", self.sync_commands)
        route("GET", f"{api}/applications/{{app}}/guilds/{{guild}}/commands", self.synced_commands)
        route("POST", f"{api}/interactions/{{id}}/{{token}}/callback", self.callback)
        route("GET", f"{api}/webhooks/{{app}}/{{token}}/messages/{{message}}", self.webhook_get)
        route("PATCH", f"{api}/webhooks/{{app}}/{{token}}/messages/{{message}}", self.webhook_edit)
        route("DELETE", f"{api}/webhooks/{{app}}/{{token}}/messages/{{message}}", self.webhook_delete)
        route("POST", f"{api}/webhooks/{{app}}/{{token}}", self.followup)
        route("GET", f"{api}/channels/{{channel}}", self.channel)
        route("POST", f"{api}/channels/{{channel}}/messages", self.channel_send)
        route("GET", f"{api}/channels/{{channel}}/messages/{{message}}", self.channel_message)
        route("PATCH", f"{api}/channels/{{channel}}/messages/{{message}}", self.channel_edit)
        route("*", "/{tail:.*}", self.unknown)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0, backlog=1024)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self.port

    async def close(self) -> None:
        for socket in list(self.sockets):
            await socket.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway/ws"

    @staticmethod
    def json(data: Any, status: int = 200) -> web.Response:
        # Exactly "application/json", no charset: discord.py decodes a body as JSON only then, as Discord sends it.
        return web.Response(body=dumps(data), status=status,
                            headers={"Content-Type": "application/json"})

    def authorised(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {self.token}"

    @staticmethod
    def error(status: int, message: str, code: int = 0) -> web.Response:
        return FakeDiscord.json({"message": message, "code": code}, status)

    async def unknown(self, request: web.Request) -> web.Response:
        key = f"{request.method} {request.path}"
        self.unknown_routes[key] += 1
        log.error("loopback Discord: no such route %s (answered 404)", key)
        return self.error(404, "404: Not Found")

    async def me(self, request: web.Request) -> web.Response:
        if not self.authorised(request):
            return self.error(401, "401: Unauthorized")
        return self.json(self.bot_user)

    async def gateway_url(self, request: web.Request) -> web.Response:
        if request.path.endswith("/bot"):
            return self.json({"url": self.ws_url, "shards": 1, "session_start_limit": {
                "total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1}})
        return self.json({"url": self.ws_url})

    async def synced_commands(self, request: web.Request) -> web.Response:
        guild = request.match_info.get("guild")
        return self.json(self.guild_commands.get(guild, []) if guild else self.commands)

    async def application(self, request: web.Request) -> web.Response:
        if not self.authorised(request):
            return self.error(401, "401: Unauthorized")
        return self.json({
            "id": self.app_id, "name": "Scoundrel", "icon": None, "description": "", "summary": "", "type": None,
            "hook": True, "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
            "owner": self.owner, "team": None, "flags": 0, "guild_id": None, "primary_sku_id": None, "slug": None,
            "cover_image": None, "rpc_origins": [], "terms_of_service_url": None, "privacy_policy_url": None,
            "custom_install_url": None, "install_params": None, "integration_types_config": {"0": {}, "1": {}},
            "role_connections_verification_url": None, "interactions_endpoint_url": None, "tags": [],
            "approximate_guild_count": len(self.guilds), "approximate_user_install_count": 0,
            "redirect_uris": [], "is_monetized": False, "bot": self.bot_user,
            "event_webhooks_url": None, "event_webhooks_status": 1, "event_webhooks_types": []})

    async def sync_commands(self, request: web.Request) -> web.Response:
        if not self.authorised(request):
            return self.error(401, "401: Unauthorized")
        body = loads(await request.read())
        guild = request.match_info.get("guild")
        synced = []
        for command in body:
            synced.append({"id": self.snowflake(), "application_id": self.app_id, "version": self.snowflake(),
                           "type": 1, "default_member_permissions": None, "nsfw": False, "description": "",
                           "dm_permission": True, "contexts": None, "integration_types": [0], "options": [],
                           **command, **({"guild_id": guild} if guild else {})})
        if guild:
            self.guild_commands[guild] = synced
        else:
            self.commands = synced
        self.counts["command sync"] += 1
        return self.json(synced)

    async def channel(self, request: web.Request) -> web.Response:
        wanted = request.match_info["channel"]
        for guild in self.guilds:
            for channel in guild["channels"]:
                if channel["id"] == wanted:
                    return self.json(channel)
        return self.error(404, "Unknown Channel", 10003)

    # --- the gateway -------------------------------------------------------------------------------------------

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        compress = request.query.get("compress")
        if compress not in (None, "zlib-stream"):
            log.error("loopback Discord: gateway compression %r is not served", compress)
            await ws.close(code=4000)
            return ws
        socket = Gateway(self, ws, zlib_stream=compress == "zlib-stream")
        self.sockets.append(socket)
        try:
            await socket.run()
        finally:
            self.sockets.remove(socket)
        return ws

    def ready_payload(self, session: str) -> dict:
        return {"v": 10, "user": self.bot_user, "guilds": [{"id": g["id"], "unavailable": True} for g in self.guilds],
                "session_id": session, "resume_gateway_url": self.ws_url.rsplit("/", 1)[0] + "/ws",
                "session_type": "normal", "shard": None, "application": {"id": self.app_id, "flags": 0},
                "private_channels": [], "relationships": [], "presences": [], "guild_join_requests": [],
                "geo_ordered_rtc_regions": ["rotterdam"], "auth_session_id_hash": "", "user_settings": {},
                "_trace": ['["gateway-prd-loopback",{"micros":0}]']}

    async def dispatch(self, event: str, data: dict, on_write: Callable[[], None] | None = None) -> None:
        """An event to every identified connection (one: the bot is not sharded here) whose IDENTIFY asked for the
        intent the event needs, as Discord sends it."""
        needed = event_intent(event, data)
        for socket in self.sockets:
            if socket.identified and (needed is None or socket.intents & needed):
                await socket.dispatch(event, data, on_write)
            elif socket.identified:
                self.counts[f"{event} not sent (intent not asked for)"] += 1

    # --- interactions ------------------------------------------------------------------------------------------

    def command_data(self, path: str, options: dict[str, Any]) -> dict:
        """``data`` of an application command interaction for ``scoundrel play``-like paths, from the synced tree."""
        names = path.split()
        command = next((c for c in self.commands if c["name"] == names[0]), None)
        if command is None:
            raise LookupError(f"the bot did not sync a command named {names[0]!r}")
        leaf_options = [{"name": k, "type": _option_type(command, names[1:], k), "value": v}
                        for k, v in options.items()]
        nested: list[dict] = leaf_options
        for name in reversed(names[1:]):
            nested = [{"name": name, "type": 1, "options": nested}]
        return {"id": command["id"], "name": names[0], "type": 1, "options": nested,
                **({"guild_id": command["guild_id"]} if "guild_id" in command else {})}

    def interaction_payload(self, player: Player, kind: str, data: dict, message: dict | None) -> Pending:
        interaction_id = self.snowflake()
        token = "aW50ZXJhY3Rpb246" + interaction_id + ":" + secrets.token_urlsafe(132)
        member = {"user": player.user, "roles": [], "joined_at": "2025-01-01T00:00:00.000000+00:00", "nick": None,
                  "avatar": None, "banner": None, "premium_since": None, "pending": False, "flags": 0,
                  "permissions": "2248473465835073", "communication_disabled_until": None, "mute": False,
                  "deaf": False, "unusual_dm_activity_until": None, "avatar_decoration_data": None,
                  "collectibles": None, "display_name_styles": None}
        payload: dict[str, Any] = {
            "id": interaction_id, "application_id": self.app_id, "type": 2 if kind == "command" else 3,
            "data": data, "guild": {"id": player.guild_id, "locale": "en-US", "features": ["COMMUNITY", "NEWS"]},
            "guild_id": player.guild_id, "channel": {**player.channel, "permissions": CHANNEL_PERMISSIONS},
            "channel_id": player.channel["id"], "member": member, "token": token, "version": 1,
            "app_permissions": CHANNEL_PERMISSIONS, "locale": player.locale, "guild_locale": "en-US",
            "entitlements": [], "entitlement_sku_ids": [], "authorizing_integration_owners": {"0": player.guild_id},
            "context": 0, "attachment_size_limit": LIMIT}
        if message is not None:
            payload["message"] = message
        return Pending(interaction_id, token, player, kind, message, payload=payload)

    async def send_interaction(self, pending: Pending) -> None:
        """Write the INTERACTION_CREATE; ``pending.sent`` is stamped as its frame goes to the socket."""
        self.pending[pending.token] = pending

        def stamp() -> None:
            pending.sent = time.perf_counter()

        await self.dispatch("INTERACTION_CREATE", pending.payload, on_write=stamp)
        pending.payload = {}  # sent: not kept while the token lives

    def _find(self, request: web.Request) -> Pending | None:
        return self.pending.get(request.match_info["token"])

    async def callback(self, request: web.Request) -> web.Response:
        arrived = time.perf_counter()
        pending = self._find(request)
        if pending is None or pending.id != request.match_info["id"]:
            self.counts["callback for an unknown interaction"] += 1
            return self.error(404, "Unknown interaction", 10062)
        body, files = await read_body(request)
        if pending.first is not None:
            self.counts["second callback"] += 1
            return self.error(400, "Interaction has already been acknowledged.", 40060)
        if arrived - pending.sent > ANSWER_WITHIN:  # too late: the player saw "This interaction failed"
            self.counts["callback after 3 s (refused: Unknown interaction)"] += 1
            pending.answer("failed")
            return self.error(404, "Unknown interaction", 10062)
        pending.first, pending.first_type = arrived, body.get("type")
        kind, data = body.get("type"), body.get("data") or {}
        resource: dict[str, Any] = {"type": kind}
        if kind == MESSAGE:
            message = self.new_message(pending.player, data, files, interaction=pending)
            pending.original = message
            if data.get("flags", 0) & EPHEMERAL:
                self.refused(pending, data)
            else:
                self.counts["callback 4 (message)"] += 1
                pending.answer("message", message)
                await self.echo("MESSAGE_CREATE", message, pending.player)
            resource["message"] = message
        elif kind == UPDATE:
            if pending.message is None:
                self.counts["UPDATE_MESSAGE without a message"] += 1
                return self.error(400, "Invalid interaction application command", 50035)
            message = self.edit(pending.message["id"], data, files)
            pending.original = message
            self.counts["callback 7 (update, picture)" if files else "callback 7 (update)"] += 1
            pending.answer("update", message)
            await self.echo("MESSAGE_UPDATE", message, pending.player)
            resource["message"] = message
        elif kind in (DEFER_MESSAGE, DEFER_UPDATE):
            self.counts[f"callback {kind} (defer)"] += 1
            if kind == DEFER_UPDATE:
                pending.original = pending.message
            else:
                pending.original = self.new_message(pending.player, {"content": "", "flags": data.get("flags", 0)},
                                                    [], interaction=pending, loading=True)
        else:
            self.counts[f"callback {kind} (unexpected)"] += 1
        self.counts["interactions answered"] += 1
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        original = pending.original or {}
        return self.json({"interaction": {
            "id": pending.id, "type": 2 if pending.kind == "command" else 3, "activity_instance_id": None,
            "response_message_id": original.get("id"), "response_message_loading": kind == DEFER_MESSAGE,
            "response_message_ephemeral": bool(original.get("flags", 0) & EPHEMERAL)}, "resource": resource})

    def refused(self, pending: Pending, data: dict) -> None:
        text = data.get("content") or " ".join(
            e.get("description") or e.get("title") or "" for e in data.get("embeds") or [])
        self.refusals[text[:160]] += 1
        self.counts["refusal (ephemeral)"] += 1
        pending.answer("refused", None, text)

    async def webhook_get(self, request: web.Request) -> web.Response:
        pending, wanted = self._find(request), request.match_info["message"]
        self.counts["GET original"] += 1
        if pending is None:
            return self.error(401, "Invalid Webhook Token", 50027)
        message = pending.original if wanted == "@original" else self.messages.get(wanted)
        if message is None:
            return self.error(404, "Unknown Message", 10008)
        return self.json(message)

    async def webhook_edit(self, request: web.Request) -> web.Response:
        pending, wanted = self._find(request), request.match_info["message"]
        if pending is None:
            return self.error(401, "Invalid Webhook Token", 50027)
        body, files = await read_body(request)
        target = pending.original if wanted == "@original" else self.messages.get(wanted)
        if target is None:
            return self.error(404, "Unknown Message", 10008)
        message = self.edit(target["id"], body, files)
        if wanted == "@original":
            pending.original = message
        self.counts["PATCH original (after defer)" if pending.first_type in (5, 6) else "PATCH webhook message"] += 1
        if message.get("flags", 0) & EPHEMERAL:
            self.refused(pending, body)
        else:
            pending.answer("edit", message)
            await self.echo("MESSAGE_UPDATE", message, pending.player)
        return self.json(message)

    async def webhook_delete(self, request: web.Request) -> web.Response:
        self.counts["DELETE webhook message"] += 1
        return web.Response(status=204)

    async def followup(self, request: web.Request) -> web.Response:
        pending = self._find(request)
        if pending is None:
            return self.error(401, "Invalid Webhook Token", 50027)
        body, files = await read_body(request)
        if pending.first_type == DEFER_MESSAGE and pending.original is not None and not pending.answered.done():
            message = self.edit(pending.original["id"], body, files)  # the first follow-up replaces "thinking…"
        else:
            message = self.new_message(pending.player, body, files, interaction=pending)
        if body.get("flags", 0) & EPHEMERAL or message.get("flags", 0) & EPHEMERAL:
            self.refused(pending, body)
        else:
            self.counts["follow-up message"] += 1
            pending.answer("followup", message)
            await self.echo("MESSAGE_CREATE", message, pending.player)
        if request.query.get("wait") in ("1", "true", "True"):
            return self.json(message)
        return web.Response(status=204)

    async def channel_send(self, request: web.Request) -> web.Response:
        if not self.authorised(request):
            return self.error(401, "401: Unauthorized")
        body, files = await read_body(request)
        channel = {"id": request.match_info["channel"]}
        player = Player(self.bot_user, self.guilds[0]["id"], channel)
        message = self.new_message(player, body, files, interaction=None)
        self.counts["channel message"] += 1
        await self.echo("MESSAGE_CREATE", message, player)
        return self.json(message)

    async def channel_message(self, request: web.Request) -> web.Response:
        message = self.messages.get(request.match_info["message"])
        return self.json(message) if message is not None else self.error(404, "Unknown Message", 10008)

    async def channel_edit(self, request: web.Request) -> web.Response:
        if not self.authorised(request):
            return self.error(401, "401: Unauthorized")
        if request.match_info["message"] not in self.messages:
            return self.error(404, "Unknown Message", 10008)
        body, files = await read_body(request)
        message = self.edit(request.match_info["message"], body, files)
        self.counts["channel message edit"] += 1
        return self.json(message)

    # --- messages ----------------------------------------------------------------------------------------------

    def new_message(self, player: Player, data: dict, files: list[tuple[str, bytes]], *,
                    interaction: Pending | None, loading: bool = False) -> dict:
        message_id = self.snowflake()
        message: dict[str, Any] = {
            "id": message_id, "channel_id": player.channel["id"], "author": self.bot_user,
            "type": 0 if interaction is None else (20 if interaction.kind == "command" else 19),
            "content": "", "embeds": [], "components": [], "attachments": [], "mentions": [], "mention_roles": [],
            "mention_everyone": False, "pinned": False, "tts": False, "timestamp": now_iso(),
            "edited_timestamp": None, "flags": (data.get("flags") or 0) | (128 if loading else 0), "position": 0}
        if interaction is not None:
            message["webhook_id"] = self.app_id
            message["application_id"] = self.app_id
            message["interaction_metadata"] = {
                "id": interaction.id, "type": 2 if interaction.kind == "command" else 3,
                "user": interaction.player.user, "authorizing_integration_owners": {"0": interaction.player.guild_id},
                **({"name": "scoundrel play", "command_type": 1} if interaction.kind == "command" else {})}
            message["interaction"] = {"id": interaction.id, "type": message["interaction_metadata"]["type"],
                                      "name": "scoundrel play", "user": interaction.player.user}
        self._apply(message, data, files)
        message["edited_timestamp"] = None
        self.messages[message_id] = message
        return message

    def edit(self, message_id: str, data: dict, files: list[tuple[str, bytes]]) -> dict:
        message = dict(self.messages[message_id])
        self._apply(message, data, files)
        message["flags"] = message.get("flags", 0) & ~128  # no longer "thinking…"
        self.messages[message_id] = message
        return message

    def _apply(self, message: dict, data: dict, files: list[tuple[str, bytes]]) -> None:
        """What Discord does to a message given ``data``: fields replaced, attachments kept or added, components
        given ids, an embed's ``attachment://`` image resolved to the attachment's URL."""
        if "content" in data:
            message["content"] = data["content"] or ""
        if "components" in data:
            numbers = itertools.count(1)
            message["components"] = [_numbered(c, numbers) for c in data["components"] or []]
        if "attachments" in data or files:
            kept = {a["id"]: a for a in message.get("attachments", [])}
            attachments = []
            for given in data.get("attachments", [{"id": n} for n in range(len(files))]):
                wanted = str(given.get("id"))
                if wanted in kept:
                    attachments.append(kept[wanted])
                elif wanted.isdigit() and int(wanted) < len(files):
                    attachments.append(self._attachment(message["channel_id"], given, files[int(wanted)]))
            message["attachments"] = attachments
        if "embeds" in data:
            by_name = {a["filename"]: a for a in message.get("attachments", [])}
            message["embeds"] = [_resolved(e, by_name) for e in data["embeds"] or []]
        if "flags" in data and data["flags"] is not None:
            message["flags"] = data["flags"]
        message["edited_timestamp"] = now_iso()

    def _attachment(self, channel_id: str, given: dict, file: tuple[str, bytes]) -> dict:
        filename, content = file
        attachment_id = self.snowflake()
        url = f"https://cdn.discordapp.com/attachments/{channel_id}/{attachment_id}/{given.get('filename') or filename}"
        found = {"id": attachment_id, "filename": given.get("filename") or filename, "size": len(content),
                 "url": url + "?ex=0&is=0&hm=0&", "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net")
                 + "?ex=0&is=0&hm=0&", "content_type": "image/png" if content[:4] == b"\x89PNG" else None,
                 "content_scan_version": 2, "placeholder": "1ggGBwBpeHdneIiHeHh4dwh4+/H6", "placeholder_version": 1}
        if given.get("description"):
            found["description"] = given["description"]
        if content[:8] == b"\x89PNG\r\n\x1a\n":
            found["width"], found["height"] = struct.unpack(">II", content[16:24])
        return found

    async def echo(self, event: str, message: dict, player: Player) -> None:
        """The gateway's copy of a message the bot made or edited (an ephemeral one is not echoed)."""
        if message.get("flags", 0) & EPHEMERAL:
            return
        guild = next((g for g in self.guilds if g["id"] == player.guild_id), None)
        data = {**message, "guild_id": player.guild_id}
        if guild is not None:
            data["member"] = {k: v for k, v in guild["members"][0].items() if k != "user"}
        # Sent after the request that caused it is answered, as Discord's own fan-out is: the bot's request does
        # not wait for its echo.
        task = asyncio.get_running_loop().create_task(self.dispatch(event, data))
        self._echoes.add(task)
        task.add_done_callback(self._echoes.discard)


class Gateway:
    """One websocket connection: the handshake, heartbeats, and events as frames of one zlib stream."""

    def __init__(self, discord: FakeDiscord, ws: web.WebSocketResponse, *, zlib_stream: bool) -> None:
        self.discord, self.ws = discord, ws
        self.compressor = zlib.compressobj() if zlib_stream else None
        self.sequence = 0
        self.identified = False
        self.intents = 0  # from IDENTIFY
        self.session = secrets.token_hex(16)
        self.lock = asyncio.Lock()  # one frame at a time: the zlib stream's order is the socket's order

    async def send(self, payload: dict, on_write: Callable[[], None] | None = None) -> None:
        async with self.lock:
            if payload.get("op") == 0:  # numbered in the order the frames go out
                self.sequence += 1
                payload["s"] = self.sequence
            raw = dumps(payload)
            if self.compressor is None:
                if on_write is not None:
                    on_write()
                await self.ws.send_str(raw.decode())
            else:
                frame = self.compressor.compress(raw) + self.compressor.flush(zlib.Z_SYNC_FLUSH)
                if on_write is not None:
                    on_write()
                await self.ws.send_bytes(frame)

    async def dispatch(self, event: str, data: dict, on_write: Callable[[], None] | None = None) -> None:
        if event.startswith("MESSAGE_"):
            self.discord.counts[f"echo {event}"] += 1
        await self.send({"op": 0, "t": event, "s": None, "d": data}, on_write)

    async def run(self) -> None:
        await self.send({"op": 10, "d": {"heartbeat_interval": 41250, "_trace": ['["gateway-prd-loopback"]']},
                         "s": None, "t": None})
        async for frame in self.ws:
            if frame.type != WSMsgType.TEXT:
                if frame.type == WSMsgType.BINARY:
                    log.error("loopback Discord: binary frame from the bot (not expected)")
                continue
            message = loads(frame.data)
            op, data = message.get("op"), message.get("d")
            if op == 1:  # heartbeat
                await self.send({"op": 11, "d": None, "s": None, "t": None})
            elif op == 2:  # identify
                if data.get("token") != self.discord.token:
                    await self.ws.close(code=4004, message=b"Authentication failed.")
                    return
                self.identified = True
                self.intents = int(data.get("intents", 0))
                await self.dispatch("READY", self.discord.ready_payload(self.session))
                if self.intents & GUILDS:
                    for guild in self.discord.guilds:
                        await self.dispatch("GUILD_CREATE", guild)
                self.discord.ready.set()
            elif op == 6:  # resume
                self.identified = True
                await self.dispatch("RESUMED", {"_trace": []})
            elif op in (3, 4, 8):  # presence, voice state, request members: nothing to do here
                continue
            else:
                log.error("loopback Discord: gateway op %s not served", op)


async def read_body(request: web.Request) -> tuple[dict, list[tuple[str, bytes]]]:
    """The JSON of a request and its files, from a JSON body or multipart/form-data (payload_json, files[n]).

    Parsed by hand: aiohttp's multipart reader (and ``request.content_type``) read every part's headers through
    the standard library's email parser, which cost this process more than the rest of a click together."""
    kind = request.headers.get("Content-Type", "")
    body = await request.read()
    if not kind.startswith("multipart/form-data"):
        return (loads(body) if body else {}), []
    found = _BOUNDARY.search(kind)
    if found is None:
        raise web.HTTPBadRequest(text="multipart without a boundary")
    payload: dict = {}
    files: dict[int, tuple[str, bytes]] = {}
    for part in body.split(b"--" + found.group(1).strip('"').encode())[1:-1]:
        head, _, content = part.partition(b"\r\n\r\n")
        content = content[:-2]  # the CRLF before the next boundary
        name = _NAME.search(head)
        if name is None:
            continue
        if name.group(1) == b"payload_json":
            payload = loads(content)
        elif name.group(1).startswith(b"files["):
            filename = _FILENAME.search(head)
            files[int(name.group(1)[6:-1])] = ((filename.group(1) if filename else name.group(1)).decode(), content)
    return payload, [files[n] for n in sorted(files)]


_BOUNDARY = re.compile(r"boundary=([^;]+)")
_NAME = re.compile(rb'[;\s]name="([^"]*)"')
_FILENAME = re.compile(rb'filename="([^"]*)"')


def _option_type(command: dict, path: list[str], name: str) -> int:
    options = command.get("options") or []
    for step in path:
        options = next((o.get("options") or [] for o in options if o["name"] == step), [])
    return next((o["type"] for o in options if o["name"] == name), 3)


def _numbered(component: dict, numbers: itertools.count) -> dict:
    found = {**component, "id": component.get("id") or next(numbers)}
    if "components" in component:
        found["components"] = [_numbered(c, numbers) for c in component["components"]]
    return found


def _resolved(embed: dict, attachments: dict[str, dict]) -> dict:
    found = {"type": "rich", "content_scan_version": 2, **embed}
    for key in ("image", "thumbnail"):
        url = (embed.get(key) or {}).get("url", "")
        if url.startswith("attachment://") and url[13:] in attachments:
            attachment = attachments[url[13:]]
            found[key] = {"url": attachment["url"], "proxy_url": attachment["proxy_url"],
                          "width": attachment.get("width", 0), "height": attachment.get("height", 0),
                          "content_type": attachment.get("content_type"), "placeholder": attachment["placeholder"],
                          "placeholder_version": 1, "flags": 0}
    return found
