"""Share posts made while their day ran, finished once it is over: par and the player's streak added.

Par is public only after the day ends (while it runs it would tell everyone still playing what to aim for), so a
Share post made during the day leaves it out and is kept in the database (storage/shares.py). After each
scheduled run of the daily poster (midnight first), the kept posts of past days are taken in bounded batches and
each is edited in the language it was written in. A post that can no longer be edited (deleted, or in a channel
the bot cannot reach) keeps what it said; the rest of the batch goes on. The edits draw on the process's share of
Discord's global limit after the daily posts (``bot.send_budget``).
"""

from __future__ import annotations

import logging

import discord

from app.daily.days import day_of
from app.daily.share import share_posts_to_finish
from app.records import GameRecord, SharePost
from cogs.daily.play import share_post_text
from cogs.plumbing import clock
from games.i18n import messages_for

log = logging.getLogger(__name__)

SHARE_BATCH = 25  # posts taken (and edited) per round trip to the database


async def finish_share_posts(bot) -> int:
    """Add par and the streak to every kept Share post of a past day; returns how many were edited."""
    store, today, edited = bot.store, day_of(clock.now()), 0
    while posts := await share_posts_to_finish(store, today, SHARE_BATCH):
        for post, record in posts:
            try:
                await finish_one(bot, post, record, today)
                edited += 1
            except discord.HTTPException as error:  # gone, or out of reach: the post stays as it was shared
                log.info("share post %s (game %s) not finished: %s", post.message_id, post.game_id, error)
            except Exception:  # noqa: BLE001 - one post (a damaged game, say) never stops the rest of the batch
                log.exception("share post %s (game %s) not finished", post.message_id, post.game_id)
    return edited


async def finish_one(bot, post: SharePost, record: GameRecord, today: int) -> None:
    text = await share_post_text(bot.store, record, messages_for(post.locale), today)
    message = bot.get_partial_messageable(post.channel_id).get_partial_message(post.message_id)
    await bot.send_budget.take(urgent=False)  # after any daily post waiting for its turn
    await message.edit(content=text, allowed_mentions=discord.AllowedMentions.none())  # its button stays
