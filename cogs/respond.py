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

from cogs.interaction import Interaction

T = TypeVar("T")
DEFER_AFTER = 2.0  # seconds; leaves a second of Discord's three for the deferral itself


async def in_time(interaction: Interaction, work: Awaitable[T], *, thinking: bool = False,
                  ephemeral: bool = False) -> T:
    """The result of ``work``; defers the interaction if the answer is not ready ``DEFER_AFTER`` seconds after the
    first ``in_time`` of this interaction.

    ``work`` is never cancelled by the deadline: a move being committed finishes whatever Discord does.
    """
    loop = asyncio.get_running_loop()
    # One deadline per interaction, however many steps its answer takes (load, move, picture).
    answer_by = interaction.extras.setdefault("answer_by", loop.time() + DEFER_AFTER)
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=max(0.0, answer_by - loop.time()))
    if not done and not interaction.response.is_done():
        await interaction.response.defer(thinking=thinking, ephemeral=ephemeral)
    return await task


async def edit_message(interaction: Interaction, **fields) -> None:
    """Edit the message the component is on: as the interaction's response, or after a deferral."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)
