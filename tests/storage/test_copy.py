"""``python -m bot copy-db``: SQLite → PostgreSQL and back, everything equal through the store's own API."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from app.daily.days import day_of
from bot.__main__ import main as cli
from games.engine import Rules, legal_actions
from storage import open_store
from storage.copy import CopyError, copy_database
from storage.duels import answer_challenge, create_challenge, load_duel, play_duel
from tests.storage.helpers import ROOMY, Clock, dying_line, play_line, winning_seed

GUILD, OTHER_GUILD, CHANNEL = 501, 502, 601
USERS = (1, 2, 3, 4, 5)


async def populate(target, clock: Clock) -> None:
    """A bit of everything a live installation holds."""
    store = await open_store(target, clock=clock)
    try:
        day = day_of(clock.now)
        await store.daily_secret()
        await store.put_daily(day, seed=4242, rules=Rules(), par=12, par_line="A T1")
        seed, line = winning_seed(ROOMY)
        won = await store.create_game(1, GUILD, CHANNEL, ROOMY, seed=seed)
        await play_line(store, won, line)
        dead = await store.create_game(2, OTHER_GUILD, CHANNEL, Rules(), seed=9)
        await play_line(store, dead, dying_line(dead.state))
        given_up = await store.create_game(3, None, None, Rules(), seed=10)
        await store.play(given_up.id, 3, 0, legal_actions(given_up.state)[0])
        await store.abandon(given_up.id, 3)
        await store.create_game(4, GUILD, CHANNEL, Rules(), seed=11)  # still playing
        for user in (1, 2, 5):  # counted dailies: finished, forfeited, running
            daily = await store.create_game(user, GUILD, CHANNEL, Rules(), seed=4242, kind="daily", day=day)
            clock.advance(3)
            if user == 1:
                await play_line(store, daily, dying_line(daily.state))
            elif user == 2:
                await store.abandon(daily.id, user)
        practice = await store.create_game(3, GUILD, CHANNEL, Rules(), seed=4242, kind="practice", day=day)
        await play_line(store, practice, dying_line(practice.state))
        await store.set_daily_schedule(GUILD, CHANNEL, "09:30")
        await store.set_guild_preset(OTHER_GUILD, "lenient")
        assert await store.claim_daily_post(GUILD, day, "proc-a", timedelta(minutes=5))
        await store.confirm_daily_post(GUILD, day, CHANNEL, 777)
        assert await store.claim_daily_post(OTHER_GUILD, day, "proc-a", timedelta(minutes=5))
        await store.release_daily_post(OTHER_GUILD, day, "proc-a", "Forbidden", lambda n: timedelta(minutes=n))
        await store.put_par(Rules().key, won.deck, 17, "A T1 T2")
        duel = await create_challenge(store, 1, 2, GUILD, CHANNEL, seed=5)
        duel = await answer_challenge(store, duel.id, 2, accept=True)
        await play_duel(store, duel.id, 1, 0, "P02")
        declined = await create_challenge(store, 3, 4, GUILD, CHANNEL, seed=6)
        await answer_challenge(store, declined.id, 4, accept=False)
    finally:
        await store.close()


async def view(target) -> dict:
    """Everything a player or admin can see, through the store's API."""
    store = await open_store(target, clock=Clock())
    try:
        day = day_of(Clock().now)
        out: dict = {"secret": await store.daily_secret(), "daily": await store.get_daily(day)}
        for user in USERS:
            games = await store.recent_games(user, 100)
            out[f"games {user}"] = [(g, g.state if not g.damaged else None) for g in games]
            out[f"logs {user}"] = [await store.game_actions(g.id) for g in games]
            out[f"stats {user}"] = [await store.user_stats(user, guild) for guild in (None, GUILD, OTHER_GUILD)]
            out[f"days {user}"] = await store.daily_days(user)
        for guild in (None, GUILD, OTHER_GUILD):
            out[f"boards {guild}"] = (await store.leaderboard_daily(day, guild),
                                      await store.leaderboard_week(day, guild),
                                      await store.leaderboard_all_time(guild),
                                      await store.leaderboard_all_time(guild, dailies_only=True),
                                      await store.daily_results(day, guild))
        out["settings"] = [await store.get_guild_settings(g) for g in (GUILD, OTHER_GUILD)]
        out["scheduled"] = await store.guilds_with_daily()
        out["posts"] = (await store.settled_daily_posts(day), await store.undelivered_daily_posts(day),
                        await store.daily_post_message(GUILD, day))
        won = out["games 1"][-1][0]
        out["par"] = await store.get_par(Rules().key, won.deck)
        out["duels"] = [await load_duel(store, duel_id) for duel_id in (1, 2)]
        return out
    finally:
        await store.close()


async def plays_on(target) -> None:
    """The copy is a working database: new ids follow the copied ones, moves land."""
    store = await open_store(target, clock=Clock())
    try:
        highest = max([g.id for user in USERS for g in await store.recent_games(user, 100)])
        record = await store.create_game(99, GUILD, CHANNEL, Rules(), seed=1)
        assert record.id > highest
        assert (await store.play(record.id, 99, 0, legal_actions(record.state)[0])).version == 1
        duel = await create_challenge(store, 98, 97, GUILD, CHANNEL, seed=1)
        assert duel.id == 3
    finally:
        await store.close()


def test_copy_db_sqlite_to_postgresql_and_back_keeps_everything(tmp_path, pg_url, capsys):
    source, back = tmp_path / "live.sqlite3", tmp_path / "back.sqlite3"
    asyncio.run(populate(source, Clock()))
    before = asyncio.run(view(source))

    assert cli(["copy-db", str(source), pg_url]) == 0
    out = capsys.readouterr().out
    assert out.startswith("copied ") and "checked every table equal" in out and "games 8," in out
    assert asyncio.run(view(pg_url)) == before

    assert cli(["copy-db", pg_url, f"sqlite:///{back}"]) == 0
    assert asyncio.run(view(back)) == before
    asyncio.run(plays_on(pg_url))
    asyncio.run(plays_on(back))


def test_copy_db_refuses_a_target_that_is_not_empty_and_changes_nothing(tmp_path, pg_url, capsys):
    source = tmp_path / "live.sqlite3"
    asyncio.run(populate(source, Clock()))
    asyncio.run(populate(pg_url, Clock()))
    before = asyncio.run(view(pg_url))
    assert cli(["copy-db", str(source), pg_url]) == 1
    err = capsys.readouterr().err
    assert err.startswith("copy-db failed: the target is not empty") and err.count("\n") == 1
    assert asyncio.run(view(pg_url)) == before
    assert cli(["copy-db", str(tmp_path / "missing.sqlite3"), pg_url]) == 1
    assert "no database at" in capsys.readouterr().err


async def test_a_copy_that_does_not_check_out_is_reported(tmp_path, pg_url, monkeypatch):
    """The check compares what was read with what the target holds: a row lost on the way is caught."""
    source = tmp_path / "live.sqlite3"
    await populate(source, Clock())
    from storage import copy as copy_module

    real = copy_module._loading

    def dropping(store):
        manager = real(store)

        class Dropping:
            async def __aenter__(self):
                write = await manager.__aenter__()

                async def lossy(table, columns, rows):
                    await write(table, columns, rows[:-1] if table == "game_actions" else rows)
                return lossy

            async def __aexit__(self, *exc):
                return await manager.__aexit__(*exc)

        return Dropping()

    monkeypatch.setattr(copy_module, "_loading", dropping)
    src, dst = await open_store(source), await open_store(pg_url)
    try:
        with pytest.raises(CopyError, match="table game_actions differs"):
            await copy_database(src, dst)
    finally:
        await src.close()
        await dst.close()
