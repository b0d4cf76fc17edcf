"""A server's settings as its admins set them and its commands read them: the default rule preset, and the
daily post's channel, time and role. Checked by the surface before they are set (a channel the bot can post in,
a role it may ping); stored as given."""

from __future__ import annotations

from datetime import time

from storage.models import GuildSettings
from storage.store import Store


async def settings(store: Store, guild_id: int) -> GuildSettings:
    """The server's settings (the defaults for a server never configured)."""
    return await store.get_guild_settings(guild_id)


async def preset_here(store: Store, guild_id: int | None) -> str | None:
    """The preset a game started in this server gets when the player names none; None: the bot's default."""
    return None if guild_id is None else (await settings(store, guild_id)).preset


async def choose_preset(store: Store, guild_id: int, preset: str | None) -> GuildSettings:
    """New games here use ``preset`` unless the player picks one; None goes back to the bot's default."""
    return await store.set_guild_preset(guild_id, preset)


async def schedule_daily(store: Store, guild_id: int, channel_id: int | None, post_time: time | None,
                         role_id: int | None = None) -> GuildSettings:
    """Post the daily in ``channel_id`` at ``post_time`` (UTC), pinging ``role_id``; no channel stops it."""
    return await store.set_daily_schedule(guild_id, channel_id, post_time, role_id)


async def todays_post(store: Store, guild_id: int, day: int) -> tuple[int, int] | None:
    """Where daily ``day`` was posted in this server (channel id, message id), if it was."""
    return await store.daily_post_message(guild_id, day)


__all__ = ["choose_preset", "preset_here", "schedule_daily", "settings", "todays_post"]
