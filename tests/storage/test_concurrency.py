"""Racing clicks (tasks, connections, processes) and a process killed with SIGKILL mid-play."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from games.engine import Rules, decode, legal_actions, replay
from storage import ActiveGameExists, AttemptAlreadyUsed, CorruptGame, MoveRefused, is_postgres, open_store
from storage.backends.postgres import MOVE_CONNECTIONS
from tests.storage.helpers import ROOMY, commits_on_their_way, queued, raw, until

CHILD = Path(__file__).with_name("child.py")
USER, GUILD, CHANNEL = 1001, 501, 601


def outcomes(results) -> tuple[list, list]:
    wins = [r for r in results if not isinstance(r, BaseException)]
    stale = [r for r in results if isinstance(r, MoveRefused)]
    others = [r for r in results if isinstance(r, BaseException) and not isinstance(r, MoveRefused)]
    assert not others, others
    return wins, stale


async def test_fifty_tasks_clicking_the_same_game_apply_exactly_one_move_per_version(store):
    record = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=2024)
    rng = random.Random(1)
    rounds = 0
    while record.playing and rounds < 8:
        version = record.version
        choices = legal_actions(record.state)
        results = await asyncio.gather(
            *(store.play(record.id, USER, version, rng.choice(choices)) for _ in range(50)), return_exceptions=True)
        wins, stale = outcomes(results)
        assert len(wins) == 1 and len(stale) == 49
        assert all(s.current == version + 1 for s in stale)
        record = wins[0]
        rounds += 1
    log = await store.game_actions(record.id)
    assert len(log) == record.version == rounds
    assert replay(Rules(), record.state.start_deck, decode(" ".join(log)), seed=2024) == record.state


async def test_two_connections_on_one_file_race_safely(db_path, clock):
    first = await open_store(db_path, clock=clock)
    second = await open_store(db_path, clock=clock)
    try:
        record = await first.create_game(USER, GUILD, CHANNEL, Rules(), seed=77)
        for _ in range(6):
            version, action = record.version, legal_actions(record.state)[0]
            results = await asyncio.gather(
                *(store.play(record.id, USER, version, action) for store in (first, second) for _ in range(10)),
                return_exceptions=True)
            wins, stale = outcomes(results)
            assert len(wins) == 1 and len(stale) == 19
            record = wins[0]
        assert len(await second.game_actions(record.id)) == 6
    finally:
        await first.close()
        await second.close()


async def test_two_connections_starting_games_at_once_start_exactly_one(db_path, clock):
    first = await open_store(db_path, clock=clock)
    second = await open_store(db_path, clock=clock)
    try:
        # Connections open beforehand (PostgreSQL pools open them on demand), so the creations really overlap.
        await asyncio.gather(*(store.ping() for store in (first, second) for _ in range(10)))
        for kind, day in (("normal", None), ("daily", 40)):
            results = await asyncio.gather(
                *(store.create_game(USER, GUILD, CHANNEL, Rules(), seed=n, kind=kind, day=day)
                  for n, store in enumerate([first, second] * 10)), return_exceptions=True)
            started = [r for r in results if not isinstance(r, BaseException)]
            refused = [r for r in results if isinstance(r, ActiveGameExists)]
            assert len(started) == 1 and len(refused) == 19, results
            assert all(r.game.id == started[0].id for r in refused)
            assert [g.id for g in await second.active_games(USER) if g.kind == kind] == [started[0].id]
        assert (await first.daily_attempt(USER, 40)).id == started[0].id
    finally:
        await first.close()
        await second.close()


async def test_a_game_started_elsewhere_at_the_same_instant_is_reported_as_running(store, db_path):
    """Another connection inserts the player's game (or uses the daily attempt) and commits only once this store's
    own insert is under way: the database's unique indexes refuse the second, reported as the checks would."""
    other = await store.create_game(USER + 1, GUILD, CHANNEL, Rules(), seed=9)
    with raw(db_path) as rival:
        rival.execute("BEGIN" if is_postgres(db_path) else "BEGIN IMMEDIATE")
        rival.execute("INSERT INTO games (user_id, guild_id, channel_id, kind, slot, rules_json, rules_key, "
                      "rules_name, seed, deck, status, version, snapshot, started_at) SELECT ?, guild_id, channel_id, "
                      "kind, slot, rules_json, rules_key, rules_name, seed, deck, 'playing', 0, snapshot, started_at "
                      "FROM games WHERE id = ?", (USER, other.id))
        rival.execute("INSERT INTO daily_attempts (user_id, day, game_id, created_at) VALUES (?, 41, ?, 0)",
                      (USER, other.id))
        normal = asyncio.create_task(store.create_game(USER, GUILD, CHANNEL, Rules(), seed=1))
        daily = asyncio.create_task(store.create_game(USER, GUILD, CHANNEL, Rules(), seed=2, kind="daily", day=41))
        if is_postgres(db_path):  # both inserts wait for the rival's transaction (the unique indexes)
            with raw(db_path) as watch:
                await until(lambda: watch.execute("SELECT count(*) FROM pg_locks WHERE NOT granted").fetchone()[0]
                            == 2, "both inserts wait for the rival")
        rival.execute("COMMIT")
        results = await asyncio.gather(normal, daily, return_exceptions=True)
    assert isinstance(results[0], ActiveGameExists) and results[0].game.user_id == USER, results
    assert isinstance(results[1], AttemptAlreadyUsed) and results[1].day == 41, results
    assert [g.id for g in await store.active_games(USER)] == [results[0].game.id]  # the rival's game alone


def test_clicks_from_several_processes_land_exactly_once_per_version(db_path):
    db = db_path

    async def setup() -> int:
        store = await open_store(db)
        try:
            return (await store.create_game(USER, GUILD, CHANNEL, ROOMY, seed=5150)).id  # 99 health: lives 5 rounds
        finally:
            await store.close()

    game_id = asyncio.run(setup())
    rounds, procs = 5, []
    for n in range(3):
        procs.append(subprocess.Popen(
            [sys.executable, str(CHILD), "race", str(db), str(game_id), str(USER), str(rounds), str(n)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1))
    try:
        for version in range(rounds):
            for proc in procs:
                assert proc.stdout.readline().strip() == "ready"
            for proc in procs:  # release them together
                proc.stdin.write("go\n")
                proc.stdin.flush()
            lines = [proc.stdout.readline().split() for proc in procs]
            assert sorted(line[0] for line in lines) == ["ok", "stale", "stale"], lines
            assert all(int(line[1]) == version for line in lines)
        for proc in procs:
            assert proc.wait(timeout=20) == 0
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    with raw(db) as conn:
        assert conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()[0] == rounds
        seqs = [r[0] for r in conn.execute("SELECT seq FROM game_actions WHERE game_id = ? ORDER BY seq", (game_id,))]
    assert seqs == list(range(1, rounds + 1))


def test_a_process_killed_mid_play_loses_no_acknowledged_move(db_path):
    """SIGKILL at random instants: every move the child reported as committed is there, and the file is sound."""
    db = db_path
    rng = random.Random(int(os.environ.get("CRASH_SEED", "20260301")))
    total_acked = 0
    for attempt in range(4):
        proc = subprocess.Popen([sys.executable, str(CHILD), "crash", str(db), str(attempt), "6"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "open", proc.stderr.read()
        acked: list[tuple[int, int]] = []

        def read(stream=proc.stdout, sink=acked):
            for line in stream:
                parts = line.split()
                if len(parts) == 2:
                    sink.append((int(parts[0]), int(parts[1])))

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        time.sleep(rng.uniform(0.15, 0.6))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        reader.join(timeout=10)
        assert proc.returncode == -signal.SIGKILL
        # The last line may have been cut by the kill; a partial line is not an acknowledgement we rely on.
        assert acked, "the child made no moves before being killed"
        total_acked += len(acked)
        asyncio.run(check_after_crash(db, acked))
    assert total_acked > 50


async def check_after_crash(db: Path, acked: list[tuple[int, int]]) -> None:
    store = await open_store(db)
    try:
        assert await store.integrity_check() == "ok"
        with raw(db) as conn:
            present = set(conn.execute("SELECT game_id, seq FROM game_actions").fetchall())
            versions = dict(conn.execute("SELECT id, version FROM games").fetchall())
        missing = [move for move in acked if move not in present]
        assert not missing, f"{len(missing)} acknowledged moves lost, e.g. {missing[:5]}"
        for game_id, version in acked:
            assert versions[game_id] >= version
        for game_id in {g for g, _ in acked}:
            record = await store.load_game(game_id)  # snapshot and log agree
            log = await store.game_actions(game_id)
            assert len(log) == record.version
            assert replay(record.rules, record.state.start_deck, decode(" ".join(log)), seed=record.seed) == \
                record.state
    finally:
        await store.close()


async def test_cancelled_clicks_leave_the_connection_usable(store):
    record = await store.create_game(USER, GUILD, CHANNEL, Rules(), seed=88)
    for _ in range(5):
        task = asyncio.create_task(store.play(record.id, USER, record.version, legal_actions(record.state)[0]))
        await asyncio.sleep(0)
        task.cancel()
        try:
            record = await task
        except asyncio.CancelledError:
            record = await store.load_game(record.id)
    moved = await store.play(record.id, USER, record.version, legal_actions(record.state)[0])
    assert moved.version == record.version + 1
    assert len(await store.game_actions(record.id)) == moved.version


async def test_one_bad_move_in_a_group_commit_does_not_sink_the_others(store, db_path, caplog):
    games = [await store.create_game(user, GUILD, CHANNEL, Rules(), seed=user) for user in range(1, 9)]
    broken = games[3]
    # Every group commit the store can have on its way at once (PostgreSQL: MOVE_CONNECTIONS) is held up on a
    # move of its own, so the eight moves below queue together and go out as one group, however they are timed.
    flushers = MOVE_CONNECTIONS if is_postgres(db_path) else 1
    blockers = [await store.create_game(user, GUILD, CHANNEL, Rules(), seed=user) for user in range(9, 9 + flushers)]
    with raw(db_path) as conn:  # a stray log row where the next move must go: the append will collide
        conn.execute("INSERT INTO game_actions (game_id, seq, code, at) VALUES (?, 1, 'A', 0)", (broken.id,))
    with raw(db_path) as holder:
        if is_postgres(db_path):  # the blockers' rows locked: their group commits wait for this transaction
            holder.execute("BEGIN")
            holder.execute(f"SELECT id FROM games WHERE id IN ({','.join('?' * len(blockers))}) FOR UPDATE",
                           [b.id for b in blockers])
        else:  # SQLite's write lock: the group commit waits for it
            holder.execute("BEGIN IMMEDIATE")
        held = []
        for n, blocker in enumerate(blockers, 1):  # one at a time, each taken by a group commit of its own
            held.append(asyncio.create_task(
                store.play(blocker.id, blocker.user_id, 0, legal_actions(blocker.state)[0])))
            await until(lambda n=n: commits_on_their_way(store) == n and not store._moves._pending,
                        "the blocker's move is on its way")
        plays = asyncio.gather(
            *(store.play(g.id, g.user_id, 0, legal_actions(g.state)[0]) for g in games), return_exceptions=True)
        await until(lambda: queued(store) >= {g.id for g in games}, "all eight moves are queued")
        holder.execute("COMMIT")
        results = await plays
    assert all(r.version == 1 for r in await asyncio.gather(*held))
    assert isinstance(results[3], CorruptGame) and results[3].game_id == broken.id
    assert all(r.version == 1 for i, r in enumerate(results) if i != 3)
    for i, game in enumerate(games):
        assert (await store.get_game(game.id)).version == (0 if i == 3 else 1)
    with raw(db_path) as conn:  # nothing but the stray row was written for the broken game
        conn.execute("DELETE FROM game_actions WHERE game_id = ? AND at = 0", (broken.id,))
    assert await store.integrity_check() == "ok"
    assert "writing them one by one" in caplog.text  # the group really failed, and was split


async def test_many_games_moving_at_once_all_land(store):
    games = [await store.create_game(user, GUILD, CHANNEL, ROOMY, seed=user) for user in range(1, 41)]
    for _ in range(5):
        games = await asyncio.gather(*(store.play(g.id, g.user_id, g.version, legal_actions(g.state)[0])
                                       for g in games))
    for game in games:
        assert game.version == 5 and len(await store.game_actions(game.id)) == 5
        assert (await store.load_game(game.id)).state == game.state
