"""Who is asking: the Activity's player, proved by their Discord access token, or the one local player.

``DiscordIdentity`` exchanges the Activity's OAuth2 code for an access token (``POST {api}/oauth2/token`` with the
app's client secret, which never leaves the server and is never logged) and reads the player from Discord's
``/users/@me``, kept for a few minutes (``RECHECK``) so a move costs no call to Discord, then asked again: a token
revoked at Discord stops working within those minutes, not at the end of its lifetime. ``LocalIdentity`` is
``scoundrel-bot web``'s: one player on this machine, whose token is made when the server starts.
Tokens are kept only as their SHA-256, never in clear.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections import OrderedDict
from typing import NamedTuple

import aiohttp

log = logging.getLogger(__name__)

RECHECK = 180.0  # seconds a player's token is trusted before Discord is asked again (a revoked one stops by then)
OUTAGE_GRACE = 3600.0  # Discord out of reach: a player it vouched for within this keeps playing (in the token's life)
OUTAGE_RETRY = 30.0  # and Discord is asked again after this
KEPT = 10_000  # players remembered at most (the oldest are checked again when needed)
LOCAL_PLAYER = 1  # the local player's user id under `scoundrel-bot web`
LOCAL_NAME = "Local player"
DISCORD_WAIT = 10.0  # seconds Discord is given to answer


class Player(NamedTuple):
    id: int
    name: str


class Refused(Exception):
    """Discord (or the local server) refused a code or a token; ``str()`` says why, without the secret."""


class Unavailable(Exception):
    """Discord could not be asked (unreachable, timed out, or answered with a server error)."""


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class DiscordIdentity:
    def __init__(self, client_id: int, client_secret: str, api_base: str, bot_token: str | None = None,
                 clock=time.monotonic) -> None:
        self.client_id, self._secret, self.api_base = client_id, client_secret, api_base.rstrip("/")
        self._bot_token = bot_token  # asks Discord where an Activity instance runs (its server and channel)
        self._places: OrderedDict[str, tuple[tuple[int | None, int | None, frozenset[int]], float]] = OrderedDict()
        # token digest -> (the player, when to ask Discord again, until when they stand while Discord cannot be asked)
        self._players: OrderedDict[str, tuple[Player, float, float]] = OrderedDict()
        self._lifetimes: OrderedDict[str, float] = OrderedDict()  # token digest -> when Discord said it expires
        self.clock = clock
        self._session: aiohttp.ClientSession | None = None

    def __repr__(self) -> str:  # never the secret
        return f"DiscordIdentity(client_id={self.client_id}, api_base={self.api_base!r})"

    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=DISCORD_WAIT))
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def exchange(self, code: str) -> str:
        """The access token for the Activity's authorization ``code``; ``Refused`` when Discord refuses it."""
        form = {"client_id": str(self.client_id), "client_secret": self._secret,
                "grant_type": "authorization_code", "code": code}
        try:
            async with self.session().post(f"{self.api_base}/oauth2/token", data=form) as answer:
                if answer.status >= 500:
                    raise Unavailable(f"Discord answered the token exchange with {answer.status}")
                body = await answer.json(content_type=None) if answer.status == 200 else {}
                if answer.status != 200 or not isinstance(body, dict) or not isinstance(
                        body.get("access_token"), str):
                    raise Refused(f"Discord refused the code ({answer.status})")
        except (aiohttp.ClientError, TimeoutError) as error:
            raise Unavailable(f"Discord could not be reached ({type(error).__name__})") from None
        token = body["access_token"]
        expires_in = body.get("expires_in")
        if isinstance(expires_in, int | float) and expires_in > 0:
            self._lifetimes[_digest(token)] = self.clock() + float(expires_in)
            while len(self._lifetimes) > KEPT:
                self._lifetimes.popitem(last=False)
        return token

    async def player(self, token: str) -> Player:
        """The player whose access token this is: from ``/users/@me``, kept for ``RECHECK`` seconds and then asked
        again, so a token revoked at Discord is ``Refused`` within minutes. While Discord cannot be asked, a player
        it vouched for within ``OUTAGE_GRACE`` stands; any other token is ``Unavailable``."""
        key = _digest(token)
        now = self.clock()
        kept = self._players.get(key)
        if kept is not None and kept[1] > now:
            return kept[0]
        try:
            player = await self._ask(token)
        except Refused:
            self._players.pop(key, None)
            raise
        except Unavailable:
            if kept is None or kept[2] <= now:
                raise
            log.warning("Discord could not be asked about a player's token again; it stands for now")
            self._keep(key, kept[0], now + OUTAGE_RETRY, kept[2])
            return kept[0]
        expires = self._lifetimes.get(key, now + OUTAGE_GRACE)
        self._keep(key, player, min(now + RECHECK, expires), min(now + OUTAGE_GRACE, expires))
        return player

    async def _ask(self, token: str) -> Player:
        """The player ``/users/@me`` names for ``token``."""
        try:
            async with self.session().get(f"{self.api_base}/users/@me",
                                          headers={"Authorization": f"Bearer {token}"}) as answer:
                if answer.status >= 500 or answer.status == 429:
                    raise Unavailable(f"Discord answered /users/@me with {answer.status}")
                if answer.status != 200:
                    raise Refused("Discord does not accept this access token")
                body = await answer.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise Unavailable(f"Discord could not be reached ({type(error).__name__})") from None
        user_id = body.get("id") if isinstance(body, dict) else None
        if not isinstance(user_id, str) or not user_id.isdigit():
            raise Refused("Discord's answer names no user")
        name = body.get("global_name") or body.get("username") or user_id
        return Player(int(user_id), str(name)[:64])

    def _keep(self, key: str, player: Player, check_at: float, stands_until: float) -> None:
        self._players[key] = (player, check_at, stands_until)
        self._players.move_to_end(key)
        while len(self._players) > KEPT:
            self._players.popitem(last=False)

    async def place(self, instance_id: str, player_id: int) -> tuple[int | None, int | None]:
        """(server id, channel id) of the Activity instance the player is in, as Discord tells it (never as the
        client says): a daily played there counts on that server's board, as in chat. (None, None) when Discord
        does not know the instance, the player is not in it, or it is not asked (no bot token)."""
        if self._bot_token is None:
            return None, None
        now = self.clock()
        kept = self._places.get(instance_id)
        if kept is None or kept[1] <= now or player_id not in kept[0][2]:
            url = f"{self.api_base}/applications/{self.client_id}/activity-instances/{instance_id}"
            try:
                async with self.session().get(url, headers={"Authorization": f"Bot {self._bot_token}"}) as answer:
                    body = await answer.json(content_type=None) if answer.status == 200 else None
            except (aiohttp.ClientError, TimeoutError, ValueError):
                return None, None
            if not isinstance(body, dict) or not isinstance(body.get("location"), dict):
                return None, None
            location = body["location"]
            users = frozenset(int(u) for u in body.get("users", []) if isinstance(u, str) and u.isdigit())
            guild, channel = (str(location.get(key) or "") for key in ("guild_id", "channel_id"))
            kept = ((int(guild) if guild.isdigit() else None, int(channel) if channel.isdigit() else None, users),
                    now + 60.0)  # an instance's players change: asked again after a minute
            self._places[instance_id] = kept
            while len(self._places) > KEPT:
                self._places.popitem(last=False)
        guild_id, channel_id, users = kept[0]
        return (guild_id, channel_id) if player_id in users else (None, None)

    async def in_instance(self, instance_id: str, player_id: int) -> bool:
        """Whether Discord lists the player in the Activity instance (who else is there is shown only to those
        in it). Without a bot token Discord cannot be asked, and the client's word is taken."""
        if self._bot_token is None:
            return True
        await self.place(instance_id, player_id)
        kept = self._places.get(instance_id)
        return kept is not None and player_id in kept[0][2]


class LocalIdentity:
    """The one player of ``scoundrel-bot web``: any code is exchanged for this server's token."""

    def __init__(self, player: Player | None = None) -> None:
        self.local_player = player or Player(LOCAL_PLAYER, LOCAL_NAME)
        self._token = secrets.token_urlsafe(32)

    def __repr__(self) -> str:
        return f"LocalIdentity(player={self.local_player.id})"

    async def exchange(self, code: str) -> str:
        return self._token

    async def player(self, token: str) -> Player:
        if not secrets.compare_digest(token.encode(), self._token.encode()):
            raise Refused("not this server's token")
        return self.local_player

    async def place(self, instance_id: str, player_id: int) -> tuple[int | None, int | None]:
        return None, None  # no server: the local player's dailies count on the global board

    async def in_instance(self, instance_id: str, player_id: int) -> bool:
        return True  # the one local player: nobody else to see

    async def close(self) -> None:
        return None
