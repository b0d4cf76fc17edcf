"""SIGTERM to ``python -m bot run``, a real process connected through discord.py's real transport (the loopback
Discord of benchmarks/loopback_discord.py: REST and a zlib-stream gateway on 127.0.0.1), while players click: it
answers the clicks in flight, closes the gateway and the database and exits 0 within 10 s, and every move a player
was shown is in the database. (Under SimCord the harness waits for the stop itself; here nothing does but
``bot run``.)"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import sys
import time
from pathlib import Path

from storage import open_store

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from loopback_discord import FakeDiscord  # noqa: E402
from loopback_load import FAKE_TOKEN, BotProcess, Load, wait_ready  # noqa: E402

PLAYERS = 4
RESTARTING = "I'm restarting right now, so nothing was changed. Please try again in a few seconds."


async def test_sigterm_through_a_real_gateway_stops_within_ten_seconds_and_loses_nothing(tmp_path):
    discord = FakeDiscord(FAKE_TOKEN, guilds=1, channels=2)
    await discord.start()
    database = tmp_path / "scoundrel.sqlite3"
    bot = BotProcess(ROOT, discord, tmp_path, None, database, stop_wait=15.0)
    try:
        await wait_ready(discord, bot)
        load = Load(discord, PLAYERS, ["en-US"])
        for _ in range(4):  # each player starts a game and makes three moves
            await asyncio.gather(*(load.one(seat) for seat in load.seats))
        assert all(seat.moves == 3 for seat in load.seats), [(s.moves, s.notes) for s in load.seats]
        # Everyone clicks again while another writer holds the database, so the clicks are in flight when the
        # signal comes, and the stop must wait for them.
        blocker = sqlite3.connect(database, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        clicking = [asyncio.create_task(load.one(seat)) for seat in load.seats]
        await asyncio.sleep(0.3)
        bot.proc.send_signal(signal.SIGTERM)
        started = time.monotonic()
        await asyncio.sleep(1.5)
        blocker.execute("ROLLBACK")
        blocker.close()
        code = await bot.stop()  # (a second SIGTERM changes nothing) waits for the exit
        took = time.monotonic() - started
        await asyncio.gather(*clicking)
    finally:
        await bot.stop()
        await discord.close()
    log = bot.log_path.read_text()
    assert code == 0 and not bot.stuck and took < 10.0, (code, took, log[-3000:])
    assert "SIGTERM received: stopping cleanly" in log
    assert f"stopping: waiting for {PLAYERS} interactions in flight" in log, log[-3000:]
    assert bot.problems() == [], bot.problems()
    # Every click was answered: with its move, or plainly refused (never "This interaction failed").
    assert load.tally.unanswered == 0 and all(set(seat.notes) <= {RESTARTING} for seat in load.seats), \
        [seat.notes for seat in load.seats]
    # Nothing lost: each player's moves in the database are exactly the moves they were shown.
    store = await open_store(database)
    try:
        for seat in load.seats:
            games = await store.recent_games(int(seat.player.user["id"]), 100)
            assert sum(game.version for game in games) == seat.moves, (seat.player.user["id"], seat.moves, games)
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()
