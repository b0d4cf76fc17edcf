"""The night's par job plays the coach too: the real solver and the real coach in the solver's worker process,
stored beside par in one write under the par's lease, and shown in the next day's post (SimCord, virtual time)."""

from __future__ import annotations

import pytest

from app.solver.worker import coach_score, solve_par
from games.engine import deal, seed_to_text
from games.solver import solve
from games.solver.fair import coach_play
from tests.daily.helpers import admin_of
from tests.discord.harness import make_bot

QUICK_DEAL = 2  # seed number #2: the coach meets a room it cannot survive early, so its game is short


@pytest.fixture
async def simcord_bot(db_path):
    bot = make_bot(db_path, par_solver=solve_par, coach_player=coach_score)  # the real par and the real coach
    yield bot
    await bot.close()


async def record_day_one(world):
    """Day 1 on a known deal (the bot's secret would pick one at random), recorded before anything asks for it."""
    challenge = await world.store.put_daily(1, QUICK_DEAL)
    assert challenge.par is None and challenge.coach_score is None
    return challenge


@pytest.mark.simcord(settle_timeout=240)
async def test_the_nights_job_stores_the_coachs_own_game_beside_par_and_the_next_post_shows_both(world):
    challenge = await record_day_one(world)
    admin = admin_of(world)
    daily = world.guild.create_text_channel("daily")
    await admin.slash(world.channel, "scoundrel-admin daily", channel=daily, time="00:00")
    stored = await world.store.get_daily(1)
    deck = deal(challenge.rules, QUICK_DEAL)
    assert stored.par == solve(challenge.rules, deck).best_score
    # The coach's own game of the day's deal, played seeing only what a player sees: the same, played here.
    assert stored.coach_score == coach_play(challenge.rules, deck).score
    assert stored.coach_score < stored.par
    assert not await world.store.claim_daily_par(1, "another process", world.bot.get_cog("DailyPoster").par.lease)

    await world.env.advance_time(25 * 3600)  # day 2's post reveals day 1's par and the coach's score
    fields = {f.name: f.value for f in daily.last_message.embeds[0].fields}
    assert fields["Daily #1's seed, now revealed"] == (
        f"Par {stored.par} seeing every card · coach {stored.coach_score} — replay it with "
        f"`/scoundrel play seed:{seed_to_text(QUICK_DEAL)}`")


@pytest.mark.simcord(settle_timeout=120)
async def test_a_coach_that_runs_out_of_time_leaves_par_stored_without_its_score(world):
    await record_day_one(world)
    keeper = world.bot.get_cog("DailyPoster").par

    async def hurried(rules, deck, time_left, *, urgent=False):  # the real coach, given far too little time
        return await coach_score(rules, deck, 0.05, urgent=urgent)

    keeper.coach = hurried
    assert await keeper.ensure(1) is not None
    stored = await world.store.get_daily(1)
    assert stored.par is not None and stored.coach_score is None  # par is kept; the worker was stopped
    assert not await world.store.claim_daily_par(1, "another process", keeper.lease)  # and nobody solves it again
