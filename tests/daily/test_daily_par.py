"""Par of the daily, solved for real in the solver's worker process ahead of the post."""

from __future__ import annotations

import pytest

from app.solver.worker import solve_par
from games.engine import deal, decode, replay, seed_to_text
from tests.daily.helpers import admin_of, play_to_end
from tests.discord.harness import buttons, make_bot


@pytest.fixture
async def simcord_bot(db_path):
    bot = make_bot(db_path, par_solver=solve_par)  # with par: the real solver in its worker process
    yield bot
    await bot.close()


@pytest.mark.simcord(settle_timeout=60)
async def test_the_post_and_the_end_of_a_daily_show_par(world):
    admin = admin_of(world)
    daily = world.guild.create_text_channel("daily")
    await admin.slash(world.channel, "scoundrel-admin daily", channel=daily, time="00:00")
    post = daily.last_message
    challenge = await world.store.get_daily(1)
    assert challenge.par is not None
    # The stored line is an optimal play: replayed by the engine it reaches exactly par.
    line = replay(challenge.rules, deal(challenge.rules, challenge.seed), decode(challenge.par_line))
    assert line.score == challenge.par
    verdict = "winnable" if challenge.par > 0 else "not winnable"
    # Today's par stays out of today's post: it would help everyone still playing the deal.
    assert "Par" not in {f.name for f in post.embeds[0].fields} and "Par " not in str(post.embeds[0].to_dict())

    game = await world.alice.slash(world.channel, "scoundrel daily")
    await play_to_end(world.alice, game.response)
    labels = [b.label for b in buttons(game.response)]
    # par is in the text, never repeated on a button
    assert sorted(labels) == ["New game", "Replay", "Review", "Share result"]
    assert f" · par {challenge.par}" in game.response.message.embeds[0].description
    record = await world.store.daily_attempt(world.alice.id, 1)
    assert record.score <= challenge.par
    # Tomorrow's post reveals the seed of Daily #1 and its par together.
    assert (await world.store.get_daily(2)).par is not None  # tomorrow's par, solved the day before
    await world.env.advance_time(25 * 3600)  # 01:00: day 2's post is made
    fields = {f.name: f.value for f in daily.last_message.embeds[0].fields}
    assert fields["Daily #1's seed, now revealed"] == \
        f"Par {challenge.par} ({verdict}) — replay it with `/scoundrel play seed:{seed_to_text(challenge.seed)}`"


@pytest.mark.simcord(settle_timeout=60)
async def test_a_par_left_half_solved_by_a_process_that_died_is_solved_here_once_its_lease_runs_out(world):
    from app.daily.deal import todays_challenge
    from app.daily.par import ParKeeper

    keeper = world.bot.get_cog("DailyPoster").par
    await todays_challenge(world.store, 1)
    # Another process sharing the database took the par of day 1 and died before storing it.
    assert await world.store.claim_daily_par(1, "dead-process", ParKeeper.lease)
    await world.alice.slash(world.channel, "scoundrel daily")  # asks for the par in the background
    await world.env.advance_time(60)
    assert (await world.store.get_daily(1)).par is None and keeper.solves == 0  # not while that lease runs
    await world.env.advance_time(ParKeeper.lease.total_seconds())
    challenge = await world.store.get_daily(1)
    assert challenge.par is not None
    # Each par stored here was solved once: day 1's, and day 2's when the poster went on to tomorrow's.
    tomorrow = await world.store.get_daily(2)
    assert keeper.solves == 1 + (tomorrow is not None and tomorrow.par is not None)
    assert not await world.store.claim_daily_par(1, "another", ParKeeper.lease)  # solved: nobody solves it again
