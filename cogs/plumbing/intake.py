"""Every interaction as it arrives from the gateway, before discord.py dispatches it.

Two things no command or button can do for itself:

* A payload discord.py cannot read (a component whose custom_id is not text, say) makes its parser raise inside
  the gateway reader, which ends the connection and, with it, the process. Here the parser's error is caught and
  logged, and the player gets a short refusal: one bad payload never stops the bot.
* A clean stop (``ScoundrelBot.shutdown``) needs to know what is in flight: the tasks discord.py starts for each
  interaction are kept in ``bot.in_flight`` until they end. While the bot stops, a new interaction is refused
  plainly (nothing is started that could be cut off).

discord.py offers no hook for this, so its parser for ``INTERACTION_CREATE`` is wrapped in place
(``ConnectionState.parsers``, the table its gateway and SimCord both read).
"""

from __future__ import annotations

import asyncio
import logging

import discord

from cogs.plumbing.errors import send_private
from cogs.plumbing.interaction import Interaction
from cogs.plumbing.respond import release
from cogs.text.locale import for_reader
from games.i18n import N_

log = logging.getLogger(__name__)

EVENT = "INTERACTION_CREATE"
RESTARTING = N_("I'm restarting right now, so nothing was changed. Please try again in a few seconds.")
UNREADABLE = N_("I couldn't read that, so nothing happened.")


def guard_parser(bot, original):
    def parse_interaction(data) -> None:
        loop = asyncio.get_running_loop()
        # The tasks discord.py starts for this interaction are recorded as they are created (a task factory, for
        # the length of the parse): listing every task of the loop before and after cost each interaction a few
        # hundred µs with 200 clicks in flight.
        started = _Recorder(loop.get_task_factory())
        loop.set_task_factory(started)
        bot.arrived = None
        try:
            if getattr(bot, "stopping", False):
                loop.create_task(refuse(bot, data, RESTARTING))
            else:
                original(data)
        except Exception:  # noqa: BLE001 - a payload discord.py cannot read must not end the gateway connection
            log.exception("an interaction discord.py could not read was refused")
            loop.create_task(refuse(bot, data, UNREADABLE))
        finally:
            loop.set_task_factory(started.previous)
        interaction, bot.arrived = bot.arrived, None
        bot.in_flight.update(started.tasks)
        for task in started.tasks:
            task.add_done_callback(bot.in_flight.discard)
        if interaction is not None and started.tasks:
            _release_when_done(interaction, started.tasks)

    setattr(parse_interaction, "original", original)  # noqa: B010 - for teardown; a function has no such field
    return parse_interaction


def _release_when_done(interaction: Interaction, tasks: list[asyncio.Future]) -> None:
    """Once every task the interaction started has ended, let go of it at once (``cogs.plumbing.respond.release``). The
    callbacks hold the interaction only until then: whatever still holds a callback does not keep it."""
    held = [interaction]
    left = len(tasks)

    def one_done(_: asyncio.Future) -> None:
        nonlocal left
        left -= 1
        if left == 0 and held:
            release(held.pop())

    for task in tasks:
        task.add_done_callback(one_done)


class _Recorder:
    """A task factory that keeps the tasks it makes, through the loop's own factory (``previous``) if it had one."""

    def __init__(self, previous) -> None:
        self.previous = previous
        self.tasks: list[asyncio.Future] = []

    def __call__(self, loop: asyncio.AbstractEventLoop, coro, **options) -> asyncio.Future:
        if self.previous is not None:
            task = self.previous(loop, coro, **options)
        else:
            task = asyncio.Task(coro, loop=loop, **options)
        self.tasks.append(task)
        return task


async def refuse(bot, data, text: str) -> None:
    try:
        interaction = discord.Interaction(data=data, state=bot._connection)
        await send_private(interaction, for_reader(interaction)(text))
    except Exception:  # noqa: BLE001 - a payload too broken to answer is only logged
        log.warning("could not answer interaction %s", data.get("id") if isinstance(data, dict) else "?",
                    exc_info=True)


async def setup(bot) -> None:
    parsers = bot._connection.parsers
    if not hasattr(parsers[EVENT], "original"):
        parsers[EVENT] = guard_parser(bot, parsers[EVENT])


async def teardown(bot) -> None:
    parsers = bot._connection.parsers
    original = getattr(parsers[EVENT], "original", None)
    if original is not None:
        parsers[EVENT] = original
