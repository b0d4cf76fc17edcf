"""The chat follows the table: what the bot does after a move at the table (``web/``).

``web/`` and ``cogs/`` are sibling surfaces and never import each other; the process joins them here, handing the
table's routes this hook (``web.routes.Table.after_move``). It returns at once: the work runs in its own task,
after the table's answer has left, and a failure is logged, never the player's.

- A move: the game's chat message (``Store.set_message``) is redrawn as the game now stands, in the player's
  language (``cogs.game_message.private.show_on_chat``); moves made faster than Discord takes the edits are drawn once,
  the newest last. (A finished daily is counted by the move itself, ``app.play.solo.move``, and a daily started
  while its par is unknown asks for it itself, ``app.events.par_wanted``, wherever it is played.)
"""

from __future__ import annotations

import asyncio
import logging

log = logging.getLogger(__name__)


class ChatFollows:
    def __init__(self, bot) -> None:
        self.bot = bot
        self.latest: dict[int, tuple] = {}  # game id -> (its newest record, the Messages) not drawn yet
        self.drawing: dict[int, asyncio.Task] = {}  # game id -> the task drawing its message

    def after_move(self, record, tr) -> None:
        if record.message_id is None or record.channel_id is None:
            return  # played only at the table: no message in chat
        self.latest[record.id] = (record, tr)
        if record.id not in self.drawing:
            self.drawing[record.id] = asyncio.get_running_loop().create_task(self._draw(record.id))

    async def _draw(self, game_id: int) -> None:
        from cogs.game_message.private import show_on_chat

        try:
            while (newest := self.latest.pop(game_id, None)) is not None:
                try:
                    await show_on_chat(self.bot, *newest)
                except Exception:  # noqa: BLE001 - the next move draws it again
                    log.exception("could not redraw game %s in chat after a move at the table", game_id)
        finally:
            self.drawing.pop(game_id, None)

    async def close(self) -> None:
        tasks = list(self.drawing.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.latest.clear()
