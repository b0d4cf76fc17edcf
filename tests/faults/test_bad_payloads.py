"""Payloads discord.py cannot convert, or that the command never offered, each get a short specific refusal;
none ends the process, and "Something went wrong" stays for real bugs.

Discord's own client keeps to what a command declared, and SimCord's helpers do too; these payloads are sent
through SimCord's interaction dispatcher as the gateway would deliver a stale or forged one (tests/faults/raw.py).
"""

from __future__ import annotations

import sqlite3

import pytest

from tests.discord.harness import private_notes
from tests.faults.raw import raw_click, raw_slash


def refused(world) -> list[BaseException]:
    """The refusals that went through the tree's error handler (SimCord records each): acknowledged here."""
    with pytest.raises(ExceptionGroup) as caught:
        world.env.raise_errors()
    return list(caught.value.exceptions)


@pytest.mark.parametrize(("options", "said"), [
    ({"day": -1_000_000}, "`day` can't be `-1000000` here, so nothing happened."),  # OverflowError before
    ({"board": "nope"}, "`board` can't be `nope` here, so nothing happened."),  # ValueError before
    ({"day": "7"}, "`day` can't be `7` here, so nothing happened."),  # text where a number belongs
])
async def test_an_option_outside_what_the_command_declared_is_refused_by_name(world, options, said):
    result = await raw_slash(world.alice, world.channel, "scoundrel leaderboard", **options)
    assert private_notes(result) == [said]
    assert [type(e).__name__ for e in refused(world)] == ["BadOption"]
    assert world.channel.history() == []  # no board was posted


async def test_an_admin_command_from_a_dm_is_refused_as_server_only(world):
    user = world.env.create_user("dave")
    result = await raw_slash(user, user.dm_channel, "scoundrel-admin daily-off")
    assert private_notes(result) == ["That command only works in a server."]
    assert [type(e).__name__ for e in refused(world)] == ["NoPrivateMessage"]


async def test_a_click_on_a_duel_that_no_longer_exists_says_so(world):
    challenge = (await world.alice.slash(world.channel, "scoundrel duel", opponent=world.bob, seed="0000-0004"))
    with sqlite3.connect(world.database) as db:  # gone, as after restoring a backup older than the duel
        db.execute("DELETE FROM duels")
    result = await world.bob.click(challenge.response, label="Accept")
    assert private_notes(result) == ["You can't do that: that duel no longer exists."]  # not "Something went wrong"


@pytest.mark.parametrize("custom_id", [12345, None, ["sc:g:1:0:T0"]])
async def test_a_component_whose_custom_id_is_not_text_is_refused_and_the_bot_lives_on(world, custom_id):
    await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")
    message = world.channel.last_message
    result = await raw_click(world.alice, message, custom_id)
    assert private_notes(result) == ["I couldn't read that, so nothing happened."]
    assert not world.bot.is_closed()
    again = await world.alice.slash(world.channel, "scoundrel resume")  # still answering
    assert again.acknowledged
