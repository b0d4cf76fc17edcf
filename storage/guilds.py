"""Guild settings: where and when a server's daily is posted, whom it pings, its default rule preset."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, time

from games.engine import PRESETS
from storage.backends.base import Db, Row, Tx
from storage.models import GuildSettings, hhmm_to_time, time_to_hhmm, to_micros

log = logging.getLogger(__name__)

_COLUMNS = "guild_id, daily_channel_id, daily_time, preset, daily_role_id"
SETTINGS = f"SELECT {_COLUMNS} FROM guild_settings WHERE guild_id = $1"
WITH_DAILY = (f"SELECT {_COLUMNS} FROM guild_settings WHERE daily_channel_id IS NOT NULL AND daily_time IS NOT NULL "
              "ORDER BY guild_id")
SET_SCHEDULE = (
    "INSERT INTO guild_settings (guild_id, daily_channel_id, daily_time, daily_role_id, updated_at) "
    "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (guild_id) DO UPDATE SET daily_channel_id = excluded.daily_channel_id, "
    "daily_time = excluded.daily_time, daily_role_id = excluded.daily_role_id, updated_at = excluded.updated_at")
SET_PRESET = ("INSERT INTO guild_settings (guild_id, preset, updated_at) VALUES ($1, $2, $3) "
              "ON CONFLICT (guild_id) DO UPDATE SET preset = excluded.preset, updated_at = excluded.updated_at")


class Guilds:
    def __init__(self, db: Db, now: Callable[[], datetime]) -> None:
        self.db = db
        self.now = now

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        rows = await self.db.read(SETTINGS, (guild_id,))
        return _guild(rows[0]) if rows else GuildSettings(guild_id)

    async def set_daily_schedule(self, guild_id: int, channel_id: int | None, post_time: time | str | None,
                                 role_id: int | None = None) -> GuildSettings:
        text = time_to_hhmm(post_time)
        now_us = to_micros(self.now())

        async def body(tx: Tx) -> None:
            await tx.execute(SET_SCHEDULE, (guild_id, channel_id, text, role_id, now_us))

        await self.db.write(body)
        return await self.get_guild_settings(guild_id)

    async def set_guild_preset(self, guild_id: int, preset: str | None) -> GuildSettings:
        name = None if preset is None else preset.strip().lower()
        if name is not None and name not in PRESETS:
            raise ValueError(f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
        now_us = to_micros(self.now())

        async def body(tx: Tx) -> None:
            await tx.execute(SET_PRESET, (guild_id, name, now_us))

        await self.db.write(body)
        return await self.get_guild_settings(guild_id)

    async def guilds_with_daily(self) -> list[GuildSettings]:
        return [_guild(row) for row in await self.db.read(WITH_DAILY)]


def _guild(row: Row) -> GuildSettings:
    guild_id, channel_id, daily_time, preset, role_id = row
    try:
        post_time = hhmm_to_time(daily_time)
    except ValueError:
        log.error("guild %s: unreadable daily time %r ignored", guild_id, daily_time)
        post_time = None
    return GuildSettings(guild_id, channel_id, post_time, preset, role_id)


__all__ = ["Guilds"]
