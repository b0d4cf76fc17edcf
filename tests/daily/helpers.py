"""Driving the daily through SimCord: play an ephemeral daily to its end by clicking its buttons."""

from __future__ import annotations

import discord

from tests.discord.harness import buttons, make_bot

CARD_CODES = ("W0", "T0", "W1", "T1", "W2", "T2", "W3", "T3")


def codes(message) -> dict[str, discord.Button]:
    return {b.custom_id.split(":")[-1]: b for b in buttons(message) if (b.custom_id or "").startswith("sc:g:")}


async def click_code(actor, response, code: str) -> None:
    button = codes(response.message)[code]
    await actor.click(response.message, custom_id=button.custom_id)


async def play_to_end(actor, response, first: str | None = None) -> None:
    """Click through a game shown in ``response`` (live SimCord ResponseMessage) until it is over.

    Policy: optionally ``first`` (e.g. ``"A"`` to avoid room 1), then always the first playable card.
    """
    if first is not None:
        await click_code(actor, response, first)
    for _ in range(200):
        by_code = codes(response.message)
        playable = [c for c in CARD_CODES if c in by_code and not by_code[c].disabled]
        if not playable:
            return
        await actor.click(response.message, custom_id=by_code[playable[0]].custom_id)
    raise AssertionError("the game did not end in 200 clicks")


def admin_of(world, name: str = "admin"):
    role = world.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user(name), roles=[role])


async def restart(world, *, par: bool = False):
    """``world.restart()``, keeping the new bot like the fixture's: without par unless asked (see conftest)."""
    await world.env.bot.close()
    new = make_bot(world.database, par_solver=world.env.bot.par_solver if par else None,
                   coach_player=world.env.bot.coach_player if par else None)
    await world.env.restart_bot(new)
    return new
