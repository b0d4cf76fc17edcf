"""A stand-in for Discord's OAuth2 token exchange and ``/users/@me`` on loopback (Discord is out of reach): it
answers as Discord does, and counts what it was asked."""

from __future__ import annotations

from aiohttp import web
from aiohttp.test_utils import TestServer

CLIENT_ID, CLIENT_SECRET = 4242, "s3cret-never-shown"


class FakeDiscord:
    def __init__(self) -> None:
        self.codes: dict[str, str] = {}  # authorization code -> the access token it gives
        self.users: dict[str, dict] = {}  # access token -> the user it belongs to
        self.me_calls = 0
        self.exchanges: list[dict] = []
        self.instances: dict[str, dict] = {}  # Activity instance id -> its location and players
        self.bot_token = "bot-token-for-tests"
        self.down = False  # True: /users/@me answers 503, as Discord does in an outage
        app = web.Application()
        app.router.add_post("/api/v10/oauth2/token", self.token)
        app.router.add_get("/api/v10/users/@me", self.me)
        app.router.add_get("/api/v10/applications/{app}/activity-instances/{instance}", self.instance)
        self.server = TestServer(app)

    def player(self, user_id: int, name: str, code: str | None = None) -> str:
        """A player Discord knows: their access token (and the code that gives it, when ``code``)."""
        token = f"token-{user_id}"
        self.users[token] = {"id": str(user_id), "username": name.lower(), "global_name": name}
        if code:
            self.codes[code] = token
        return token

    def revoke(self, token: str) -> None:
        """The player revoked the app's access (or Discord did): the token is refused from now on."""
        self.users.pop(token, None)

    @property
    def api_base(self) -> str:
        return str(self.server.make_url("/api/v10"))

    async def token(self, request: web.Request) -> web.Response:
        form = dict(await request.post())
        self.exchanges.append(form)
        if form.get("client_id") != str(CLIENT_ID) or form.get("client_secret") != CLIENT_SECRET:
            return web.json_response({"error": "invalid_client"}, status=401)
        token = self.codes.pop(str(form.get("code")), None)  # a code is good once
        if form.get("grant_type") != "authorization_code" or token is None:
            return web.json_response({"error": "invalid_grant"}, status=400)
        return web.json_response({"access_token": token, "token_type": "Bearer", "expires_in": 604800,
                                  "refresh_token": "refresh-never-passed-on", "scope": "identify"})

    def instance_in(self, instance_id: str, guild_id: int, channel_id: int, *players: int) -> None:
        self.instances[instance_id] = {"application_id": str(CLIENT_ID), "instance_id": instance_id,
                                       "launch_id": "1", "users": [str(p) for p in players],
                                       "location": {"id": f"gc-{guild_id}-{channel_id}", "kind": "gc",
                                                    "guild_id": str(guild_id), "channel_id": str(channel_id)}}

    async def instance(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {self.bot_token}" or \
                request.match_info["app"] != str(CLIENT_ID):
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        found = self.instances.get(request.match_info["instance"])
        if found is None:
            return web.json_response({"message": "Unknown Activity Instance", "code": 10000}, status=404)
        return web.json_response(found)

    async def me(self, request: web.Request) -> web.Response:
        self.me_calls += 1
        if self.down:
            return web.json_response({"message": "Service Unavailable", "code": 0}, status=503)
        header = request.headers.get("Authorization", "")
        user = self.users.get(header.removeprefix("Bearer "))
        if user is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(user)
