"""Bounds on everything a player can send: custom_id parts and command options.

A custom_id part outside its bound matches no button template, so ``cogs.plumbing.clicks`` answers it as an unknown
button; a number inside it always fits SQLite's 64-bit integers. Text options are declared with Discord's
``max_length`` (the client refuses longer text) and checked again here, and nothing a player typed is echoed
back longer than ``ECHO``.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from discord import app_commands

from games.i18n import ENGLISH, Messages

ID = r"[0-9]{1,18}"  # a row id (game, duel): far below 2**63
VERSION = r"[0-9]{1,5}"  # moves made in one game or duel
DAY = r"[0-9]{1,6}"  # a daily number
PAGE = r"-?[0-9]{1,2}"  # a rules page
MAX_DUEL = 2**53 - 1  # a duel's number as an option: the largest whole number a Discord option carries

SEED_LENGTH = 16  # "K7Q2-M9XD" with room for spaces and dashes
TIME_LENGTH = 8  # "09:30"
ECHO = 20  # characters of a player's text quoted back in a refusal


def shown(text: str, limit: int = ECHO) -> str:
    """A player's text as it may be quoted back: short, on one line, without markdown that could escape."""
    text = " ".join(str(text).split()).replace("`", "'")
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- options -----------------------------------------------------------------------------------

def read_seed(text: str, tr: Messages = ENGLISH) -> int:
    """A seed option's value, or ``SeedError`` with a short message (in ``tr``'s language, the player's) that
    quotes at most ``ECHO`` characters."""
    from games.engine import SeedError, seed_from_text

    if len(text) <= SEED_LENGTH:
        try:
            return seed_from_text(text)
        except SeedError:
            pass
    raise SeedError(tr("`{text}` is not a seed: a seed is 8 letters and digits like K7Q2-M9XD", text=shown(text)))


# --- how often ---------------------------------------------------------------------------------

def per_member(interaction) -> tuple[int | None, int]:
    """Cooldown key: one member in one server (or in DMs)."""
    return interaction.guild_id, interaction.user.id


# Commands that post publicly: a few in a row are fine, a flood is not.
PUBLIC_POSTS: dict[str, Any] = dict(rate=3, per=60.0, key=per_member)


def shared_cooldown(rate: int, per: float):
    """A cooldown check that several commands share (one bucket per member across all of them), unlike
    ``app_commands.checks.cooldown``, whose bucket belongs to one command. Buckets live with the bot (a new
    bot, like a restarted process, starts with none)."""
    per_bot: WeakKeyDictionary = WeakKeyDictionary()

    def predicate(interaction) -> bool:
        buckets: dict[tuple, app_commands.Cooldown] = per_bot.setdefault(interaction.client, {})
        if len(buckets) > 10_000:  # forget members whose window has passed
            for key in [k for k, b in buckets.items() if b.get_tokens() == b.rate]:
                del buckets[key]
        bucket = buckets.setdefault(per_member(interaction), app_commands.Cooldown(rate, per))
        retry_after = bucket.update_rate_limit()
        if retry_after:
            raise app_commands.CommandOnCooldown(bucket, retry_after)
        return True

    return app_commands.check(predicate)


# A duel challenge pings the opponent: twice in five minutes at most, by command or member menu alike.
CHALLENGES = shared_cooldown(rate=2, per=300.0)
