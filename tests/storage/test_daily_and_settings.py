"""Daily challenges, counted attempts, the daily secret, guild settings, daily posts and the par cache."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, time, timedelta

import pytest

from app.daily.days import DAILY_RULES, daily_seed, day_end, parse_post_time
from games.engine import Rules, deal, deck_codes, forfeit_score, legal_actions, preset
from storage import AttemptAlreadyUsed, GuildSettings, MoveRefused, open_store
from tests.storage.helpers import dying_line, play_line, raw

USER, OTHER, GUILD, CHANNEL, DAY = 1001, 1002, 501, 601, 80


async def start_daily(store, user, day=DAY, kind="daily", guild=GUILD):
    secret = await store.daily_secret()
    return await store.create_game(user, guild, CHANNEL, DAILY_RULES, seed=daily_seed(secret, day), kind=kind,
                                   day=day)


async def test_one_counted_attempt_per_user_and_day(store):
    first = await start_daily(store, USER)
    assert (first.kind, first.day) == ("daily", DAY)
    await store.abandon(first.id, USER)  # abandoning does not give the attempt back
    with pytest.raises(AttemptAlreadyUsed) as caught:
        await start_daily(store, USER)
    assert (caught.value.day, caught.value.game_id) == (DAY, first.id)
    # Practice games of the same day are never counted and may be replayed freely.
    for _ in range(2):
        practice = await start_daily(store, USER, kind="practice")
        await store.abandon(practice.id, USER)
    # Other days and other users are free.
    await start_daily(store, USER, day=DAY + 1)
    await start_daily(store, OTHER)
    assert (await store.daily_attempt(USER, DAY)).id == first.id
    assert await store.daily_attempt(USER, DAY + 2) is None


async def test_the_attempt_row_is_unique_in_the_database_itself(store, db_path):
    await start_daily(store, USER)
    with raw(db_path) as conn, pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO daily_attempts (user_id, day, game_id, created_at) VALUES (?, ?, 1, 0)",
                     (USER, DAY))


async def test_attempt_and_game_are_created_together(store, db_path):
    # The daily slot is busy with a practice game: the counted attempt is not created (nor used up).
    practice = await start_daily(store, USER, kind="practice")
    with pytest.raises(Exception, match="active"):
        await start_daily(store, USER)
    with raw(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM daily_attempts").fetchone()[0] == 0
    await store.abandon(practice.id, USER)
    await start_daily(store, USER)


async def test_daily_results_list_everyone_with_unfinished_last(store, clock):
    dead = await start_daily(store, USER)
    dead = await play_line(store, dead, dying_line(dead.state))
    playing = await start_daily(store, OTHER, guild=GUILD + 1)
    results = await store.daily_results(DAY)
    assert [(r.user_id, r.status, r.score) for r in results] == [(USER, "dead", dead.score),
                                                                 (OTHER, "playing", None)]
    assert [r.game_id for r in await store.daily_results(DAY, GUILD + 1)] == [playing.id]


async def test_the_daily_secret_is_made_once_and_kept(db_path, clock):
    store = await open_store(db_path, clock=clock)
    secret = await store.daily_secret()
    assert len(secret) == 32 and await store.daily_secret() == secret
    await store.close()
    other = await open_store(db_path, clock=clock)
    try:
        assert await other.daily_secret() == secret
    finally:
        await other.close()


async def test_put_daily_first_writer_wins_and_par_fills_in(store, clock):
    assert await store.get_daily(DAY) is None
    stored = await store.put_daily(DAY, 1234, DAILY_RULES)
    assert (stored.day, stored.seed, stored.rules, stored.par, stored.created_at) == (DAY, 1234, DAILY_RULES, None,
                                                                                      clock.now)
    again = await store.put_daily(DAY, 9999, preset("lenient"), par=12, par_line="T0 T1")
    assert (again.seed, again.rules, again.par, again.par_line) == (1234, DAILY_RULES, 12, "T0 T1")
    await store.put_daily(DAY, 1234, DAILY_RULES, par=5, par_line="A")  # a known par is not replaced ...
    assert (await store.get_daily(DAY)).par == 12
    await store.set_daily_par(DAY, 14, "T2")  # ... except on purpose
    assert ((await store.get_daily(DAY)).par, (await store.get_daily(DAY)).par_line) == (14, "T2")
    with pytest.raises(KeyError):
        await store.set_daily_par(DAY + 1, 1)


async def test_the_coach_score_is_stored_beside_par_in_the_same_write_that_ends_the_lease(store, clock):
    await store.put_daily(DAY, 1234, DAILY_RULES)
    assert (await store.get_daily(DAY)).coach_score is None  # not solved yet
    assert await store.claim_daily_par(DAY, "night", LEASE)
    await store.set_daily_par(DAY, 30, "T0", coach_score=-14)
    stored = await store.get_daily(DAY)
    assert (stored.par, stored.par_line, stored.coach_score) == (30, "T0", -14)
    assert await store.claim_daily_par(DAY, "other", LEASE) is False  # par and coach are in: nothing to solve
    await store.set_daily_par(DAY, 30, "T0")  # a par stored without the coach (it ran out of time) says so
    assert (await store.get_daily(DAY)).coach_score is None


async def test_guild_settings_default_then_set(store):
    assert await store.get_guild_settings(GUILD) == GuildSettings(GUILD, None, None, None)
    settings = await store.set_daily_schedule(GUILD, CHANNEL, parse_post_time("9:05"))
    assert (settings.daily_channel_id, settings.daily_time, settings.daily_time_text) == (
        CHANNEL, time(9, 5, tzinfo=UTC), "09:05")
    assert settings.daily_scheduled
    settings = await store.set_guild_preset(GUILD, "Lenient")
    assert settings.preset == "lenient" and settings.daily_time_text == "09:05"  # other settings kept
    await store.set_daily_schedule(GUILD + 1, CHANNEL + 1, "23:59")
    await store.set_guild_preset(GUILD + 2, "full-deck")  # no schedule
    assert [g.guild_id for g in await store.guilds_with_daily()] == [GUILD, GUILD + 1]
    await store.set_daily_schedule(GUILD, None, None)
    assert [g.guild_id for g in await store.guilds_with_daily()] == [GUILD + 1]
    assert (await store.get_guild_settings(GUILD)).preset == "lenient"
    with pytest.raises(ValueError):
        await store.set_guild_preset(GUILD, "chess")
    assert (await store.get_guild_settings(GUILD)).preset == "lenient"  # a refused preset changes nothing
    assert (await store.set_guild_preset(GUILD, None)).preset is None  # back to the bot's default
    with pytest.raises(ValueError):
        await store.set_daily_schedule(GUILD, CHANNEL, "25:00")


LEASE = timedelta(minutes=2)


async def test_a_daily_post_is_claimed_by_one_owner_and_never_after_it_is_delivered(db_path, clock):
    store = await open_store(db_path, clock=clock)
    assert await store.claim_daily_post(GUILD, DAY, "a", LEASE) is True
    assert await store.claim_daily_post(GUILD, DAY, "b", LEASE) is False  # a's lease runs
    assert await store.claim_daily_post(GUILD, DAY, "a", LEASE) is True  # a renews its own
    assert await store.claim_daily_post(GUILD + 1, DAY, "b", LEASE) is True
    await store.confirm_daily_post(GUILD, DAY, CHANNEL, 4242)
    await store.close()
    store = await open_store(db_path, clock=clock)  # a restart
    try:
        assert await store.claim_daily_post(GUILD, DAY, "a", LEASE) is False
        assert await store.claim_daily_post(GUILD, DAY, "c", LEASE) is False
        assert await store.claim_daily_post(GUILD, DAY + 1, "c", LEASE) is True
        assert await store.daily_post_message(GUILD, DAY) == (CHANNEL, 4242)
        assert await store.daily_post_message(GUILD + 1, DAY) is None
        assert [g for g, *_ in await store.undelivered_daily_posts(DAY)] == [GUILD + 1]
    finally:
        await store.close()


async def test_a_failed_post_is_retried_after_its_back_off_and_a_dead_owners_lease_expires(store, clock):
    assert await store.claim_daily_post(GUILD, DAY, "a", LEASE)
    delays = []
    backoff = lambda failures: delays.append(failures) or timedelta(seconds=30 * failures)  # noqa: E731
    assert await store.release_daily_post(GUILD, DAY, "a", "HTTP 500", backoff) == timedelta(seconds=30)
    assert await store.claim_daily_post(GUILD, DAY, "a", LEASE) is False  # backing off
    clock.advance(31)
    assert await store.claim_daily_post(GUILD, DAY, "b", LEASE) is True  # anyone may try again
    [(guild, attempts, _)] = await store.undelivered_daily_posts(DAY)
    assert (guild, attempts) == (GUILD, 1)
    # b dies holding the lease: nobody else may post until it expires, then someone does.
    assert await store.claim_daily_post(GUILD, DAY, "c", LEASE) is False
    clock.advance(LEASE.total_seconds() + 1)
    assert await store.claim_daily_post(GUILD, DAY, "c", LEASE) is True
    # A late release by b (it came back) does not free c's lease.
    assert await store.release_daily_post(GUILD, DAY, "b", "late", backoff) is None
    assert await store.claim_daily_post(GUILD, DAY, "d", LEASE) is False
    assert await store.release_daily_post(GUILD, DAY, "c", "HTTP 503", backoff) == timedelta(seconds=60)
    assert delays == [1, 2]  # the back-off sees how many attempts have failed
    await store.confirm_daily_post(GUILD, DAY, CHANNEL, 77)
    assert await store.settled_daily_posts(DAY) == {GUILD} and await store.undelivered_daily_posts(DAY) == []


async def test_racing_owners_get_one_claim(db_path, clock):
    stores = [await open_store(db_path, clock=clock) for _ in range(3)]
    try:
        results = await asyncio.gather(*(s.claim_daily_post(GUILD, DAY, f"p{i}", LEASE)
                                         for i, s in enumerate(stores) for _ in range(5)))
        assert results.count(True) == 5  # one owner, renewing its own lease five times
        winners = {i for i, s in enumerate(stores) for r in results[i * 5:(i + 1) * 5] if r}
        assert len(winners) == 1
    finally:
        for s in stores:
            await s.close()


async def test_the_daily_par_is_leased_to_one_solver_and_a_dead_solvers_lease_expires(store, clock):
    await store.put_daily(DAY, 1234)
    assert await store.claim_daily_par(DAY, "a", LEASE) is True
    assert await store.claim_daily_par(DAY, "b", LEASE) is False  # a is solving
    assert await store.claim_daily_par(DAY, "a", LEASE) is True  # a renews its own
    clock.advance(LEASE.total_seconds() + 1)  # a died mid-solve
    assert await store.claim_daily_par(DAY, "b", LEASE) is True
    await store.release_daily_par(DAY, "a")  # a late release by a does not free b's lease
    assert await store.claim_daily_par(DAY, "c", LEASE) is False
    await store.release_daily_par(DAY, "b")  # b's solve failed: anyone may try at once
    assert await store.claim_daily_par(DAY, "c", LEASE) is True
    await store.set_daily_par(DAY, 7, "T0")
    assert (await store.get_daily(DAY)).par == 7
    assert await store.claim_daily_par(DAY, "c", LEASE) is False  # solved: never again
    clock.advance(LEASE.total_seconds() + 1)
    assert await store.claim_daily_par(DAY, "d", LEASE) is False
    with pytest.raises(KeyError):
        await store.claim_daily_par(DAY + 1, "a", LEASE)  # a day not recorded yet


async def test_racing_processes_get_one_par_lease(db_path, clock):
    stores = [await open_store(db_path, clock=clock) for _ in range(3)]
    try:
        await stores[0].put_daily(DAY, 99)
        results = await asyncio.gather(*(s.claim_daily_par(DAY, f"p{i}", LEASE)
                                         for i, s in enumerate(stores) for _ in range(4)))
        winners = {i for i in range(3) if any(results[i * 4:(i + 1) * 4])}
        assert len(winners) == 1 and results.count(True) == 4
    finally:
        for s in stores:
            await s.close()


async def test_par_cache(store):
    rules = Rules()
    deck = deal(rules, 77)
    assert await store.get_par(rules.key, deck) is None
    await store.put_par(rules.key, deck, -12, "T0 T1 A")
    assert await store.get_par(rules.key, deck_codes(deck)) == (-12, "T0 T1 A")
    assert await store.get_par(preset("lenient").key, deck) is None


async def test_practice_games_are_never_counted(store):
    practice = await start_daily(store, USER, kind="practice")
    practice = await play_line(store, practice, dying_line(practice.state))
    assert practice.status == "dead"
    assert await store.leaderboard_daily(DAY) == []
    assert await store.daily_days(USER) == []
    assert (await store.user_stats(USER)).games == 0
    assert await store.daily_attempt(USER, DAY) is None
    counted = await start_daily(store, USER)
    await store.play(counted.id, USER, 0, legal_actions(counted.state)[0])


async def test_a_move_after_the_day_ended_closes_the_daily_instead(store, clock):
    record = await start_daily(store, USER)
    first = legal_actions(record.state)[0]
    record = await store.play(record.id, USER, 0, first)
    clock.now = day_end(DAY)  # 00:00 UTC: Daily #80 is over
    with pytest.raises(MoveRefused) as over:
        await store.play(record.id, USER, 1, legal_actions(record.state)[0])
    assert over.value.why == MoveRefused.DAY_OVER and over.value.day == DAY
    closed = await store.get_game(record.id)
    assert (closed.status, closed.ended_by, closed.version) == ("abandoned", "expired", 1)
    assert closed.score == forfeit_score(record.state) and closed.ended_at == day_end(DAY)
    stats = await store.user_stats(USER)
    assert (stats.dailies.games, stats.dailies.wins, stats.dailies.best) == (1, 0, closed.score)
    assert [(e.user_id, e.ended_by) for e in await store.leaderboard_daily(DAY)] == [(USER, "expired")]
    assert await store.daily_days(USER) == []  # a forfeit is no finished daily: no streak
    with pytest.raises(MoveRefused) as over:  # and it stays closed
        await store.play(record.id, USER, 1, legal_actions(record.state)[0])
    assert over.value.why == MoveRefused.OVER


async def test_the_midnight_sweep_closes_past_days_only(store, clock):
    counted = await start_daily(store, USER, day=DAY - 1)
    practice_owner = await start_daily(store, OTHER, day=DAY - 1)
    await play_line(store, practice_owner, dying_line(practice_owner.state))
    practice = await start_daily(store, OTHER, day=DAY - 1, kind="practice")
    today = await start_daily(store, USER + 7, day=DAY)
    normal = await store.create_game(USER + 8, GUILD, CHANNEL, preset("classic"), seed=5)
    clock.now = day_end(DAY - 1)
    closed = {r.id: r for r in await store.expire_dailies(DAY)}
    assert set(closed) == {counted.id, practice.id}
    assert closed[counted.id].score == forfeit_score(counted.state) and closed[counted.id].ended_by == "expired"
    assert closed[practice.id].score is None and closed[practice.id].ended_by == "expired"  # practice never counts
    assert (await store.get_game(today.id)).playing and (await store.get_game(normal.id)).playing
    assert await store.expire_dailies(DAY) == []  # nothing twice
    assert (await store.user_stats(OTHER)).games == 1  # the practice replay added nothing


async def test_abandoning_a_counted_daily_scores_it_no_better_than_dying(store):
    record = await start_daily(store, USER)
    closed = await store.abandon(record.id, USER)
    assert (closed.status, closed.ended_by, closed.score) == ("abandoned", "abandoned", forfeit_score(record.state))
    normal = await store.create_game(USER, GUILD, CHANNEL, preset("classic"), seed=5)
    assert (await store.abandon(normal.id, USER)).score is None  # a normal game given up stays unscored
