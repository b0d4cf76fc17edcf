"""A click's objects are freed as the click ends, not left for the garbage collector: discord.py's interaction and
its response refer to each other, and under load those cycles made the collector run often and long."""

from __future__ import annotations

import gc
import weakref

from tests.discord.harness import button_by_code
from tests.discord.test_game import SEED, active, shows_table, start


class Probe:
    """Something weakly referable, put in the interaction's extras: it dies when the interaction does."""


async def tagged(world, act):
    """Run ``act()`` with reference counting alone (the collector off); return its result and a weak reference
    to a probe that lived in the extras of the one interaction it made."""
    probes: list[weakref.ref] = []

    def tag(interaction) -> None:
        probe = Probe()
        interaction.extras["probe"] = probe
        probes.append(weakref.ref(probe))

    gc.collect()
    gc.disable()
    world.bot.arrival_checks.append(tag)
    try:
        result = await act()
    finally:
        world.bot.arrival_checks.remove(tag)
    assert len(probes) == 1
    return result, probes[0]


async def test_a_click_frees_its_interaction_without_the_garbage_collector(world):
    await start(world)
    message = world.channel.last_message
    try:
        result, probe = await tagged(world, lambda: world.alice.click(
            message, custom_id=button_by_code(message, "T0").custom_id))  # equip ♦7
        assert result.response is not None
        assert await shows_table(world.channel.last_message, await active(world, world.alice))
        assert probe() is None, "the interaction outlived its click"
    finally:
        gc.enable()


async def test_a_command_frees_its_interaction_too(world):
    try:
        result, probe = await tagged(world, lambda: world.alice.slash(world.channel, "scoundrel play", seed=SEED))
        assert result.acknowledged and (await active(world, world.alice)).message_id == result.response.message.id
        assert probe() is None, "the interaction outlived its command"
    finally:
        gc.enable()
