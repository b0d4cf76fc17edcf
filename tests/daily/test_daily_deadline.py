"""The daily's deadline is enforced, not only shown: after 00:00 UTC no move changes a day's result.

The cheat this closes: open the counted daily, wait for the day to end (tomorrow's post reveals the seed, and
"Best possible" on a replay of it gives the perfect line), then click that line on the still-open message.
"""

from __future__ import annotations

from games.engine import forfeit_score
from tests.daily.helpers import click_code, codes, play_to_end
from tests.discord.harness import private_notes

HOUR = 3600


async def open_daily(world, actor):
    result = await actor.slash(world.channel, "scoundrel daily")
    assert result.ephemeral
    return result.response


async def test_a_move_after_the_day_ended_is_refused_and_the_attempt_closed(world):
    game = await open_daily(world, world.alice)
    await click_code(world.alice, game, "T0")
    record = await world.store.active_game(world.alice.id, "daily")
    assert record.version == 1
    before = record.state

    await world.env.advance_time(24 * HOUR + 60)  # Daily #1 is over
    playable = [c for c, b in codes(game.message).items() if c != "mode" and not b.disabled]
    click = await world.alice.click(game.message, custom_id=codes(game.message)[playable[0]].custom_id)
    notes = private_notes(click)
    assert any("Daily #1 ended" in n and "that move was not made" in n for n in notes)

    closed = await world.store.daily_attempt(world.alice.id, 1)
    assert closed.status == "abandoned" and closed.ended_by == "expired"
    assert closed.version == 1  # nothing after the deadline was applied
    assert closed.score == forfeit_score(before)
    assert game.message.embeds[0].title.startswith("⌛ Time ran out · Score ")
    assert codes(game.message) == {}  # the message no longer offers moves


async def test_the_midnight_sweep_closes_unfinished_attempts_and_the_board_marks_them(world):
    game = await open_daily(world, world.alice)
    await click_code(world.alice, game, "T0")
    bob = await open_daily(world, world.bob)
    await play_to_end(world.bob, bob)
    before = (await world.store.active_game(world.alice.id, "daily")).state

    await world.env.advance_time(24 * HOUR + 60)  # past 00:00: the poster's midnight fire sweeps
    closed = await world.store.daily_attempt(world.alice.id, 1)
    assert (closed.status, closed.ended_by, closed.score) == ("abandoned", "expired", forfeit_score(before))
    assert await world.store.active_game(world.alice.id, "daily") is None

    board = await world.alice.slash(world.channel, "scoundrel leaderboard", day=1)
    text = board.response.embeds[0].description
    alice_line = next(line for line in text.splitlines() if "**alice**" in line)
    assert f"**{closed.score}**" in alice_line and "time ran out" in alice_line
    bob_line = next(line for line in text.splitlines() if "**bob**" in line)
    assert "time ran out" not in bob_line


async def test_giving_up_never_beats_dying_on_the_board(world):
    # Alice gives up at once (waits out the clock); Bob plays and dies or clears. Giving up scores every monster
    # of the deal against her: the worst any death on this deal can score.
    await open_daily(world, world.alice)
    bob = await open_daily(world, world.bob)
    await play_to_end(world.bob, bob)
    await world.env.advance_time(24 * HOUR + 60)
    alice = await world.store.daily_attempt(world.alice.id, 1)
    bob_result = await world.store.daily_attempt(world.bob.id, 1)
    assert alice.score <= bob_result.score
    board = await world.store.leaderboard_daily(1, world.guild.id)
    assert [e.user_id for e in board] == [world.bob.id, world.alice.id]
    assert [e.ended_by for e in board] == [None, "expired"]


async def test_the_daily_command_after_midnight_starts_the_new_day_and_reports_the_old_one(world):
    await open_daily(world, world.alice)
    # The bot was down over midnight, so no sweep ran; the next /scoundrel daily closes the old attempt.
    await world.bot.close()
    await world.env.advance_time(24 * HOUR + 60)
    from tests.daily.helpers import restart

    await restart(world)
    result = await world.alice.slash(world.channel, "scoundrel daily")
    assert result.response.message.embeds[0].title == "Daily #2 — room 1"
    closed = await world.store.daily_attempt(world.alice.id, 1)
    assert closed.ended_by == "expired" and closed.score is not None
