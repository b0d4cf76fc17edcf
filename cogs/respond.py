"""Answering an interaction in one request when the work is quick, and still in time when it is not.

Discord wants the first answer to an interaction within 3 seconds. A click normally answers with the edited
message itself (``response.edit_message``: one request, no flicker). If the work behind it is still running
after ``DEFER_AFTER`` seconds (a slow disk, a busy database), the interaction is deferred first and the answer
becomes an edit of the original response.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

import discord

T = TypeVar("T")
DEFER_AFTER = 2.0  # seconds; leaves a second of Discord's three for the deferral itself


async def in_time(interaction: discord.Interaction, work: Awaitable[T], *, thinking: bool = False,
                  ephemeral: bool = False) -> T:
    """The result of ``work``; defers the interaction if ``work`` takes longer than ``DEFER_AFTER``.

    ``work`` is never cancelled by the deadline: a move being committed finishes whatever Discord does.
    """
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done and not interaction.response.is_done():
        await interaction.response.defer(thinking=thinking, ephemeral=ephemeral)
    return await task


async def edit_message(interaction: discord.Interaction, **fields) -> None:
    """Edit the message the component is on: as the interaction's response, or after a deferral."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)
