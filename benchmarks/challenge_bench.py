"""A challenge's standings with many players, and friends at one table: how far behind each is.

    .venv/bin/python benchmarks/challenge_bench.py                       # 200 players, 60 s of play
    .venv/bin/python benchmarks/challenge_bench.py --players 200 --seconds 120 --latency 0.15
    .venv/bin/python benchmarks/challenge_bench.py --activity 50         # the table's strip, 50 in one instance
    .venv/bin/python benchmarks/challenge_bench.py --activity 50 --seconds 30 --revision main --rounds 2

The bot's own keeper (cogs/challenge/keeper.py) keeps one challenge on a real store (SQLite in a temporary
directory) while ``--players`` players, who all joined through ``app.challenges.play.join``, each make a move every
1 to 3 s (``app.play.solo.move``, the move every surface makes, which raises ``challenge_moved``) until their
game ends or ``--seconds`` have passed. The message's edits go to a stand-in channel that answers each after
``--latency`` seconds (Discord's usual 80 to 150 ms), paced by the bot's request budget (app/daily/budget.py) at
one process's share of the global limit.

Printed: the edits made, their rate (per second over the run, and the most in any 5 s window: Discord allows 5
per 5 s in a channel), the shortest gap between two edits, and the staleness of the standings: for each move,
the time from its commit until an edit that read the standings after it was made (p50, p95, p99, max).

With ``--activity N``: the table's real routes (web/routes.py, web/together.py) on loopback over the same kind of
store, in a process of their own, N players of today's daily in one Activity instance, each following the strip's
event stream and making a move every 1 to 3 s (``POST /api/games/{id}/move``) from this process. Printed: for each
move, the time until every other player's stream has carried a strip that shows it (p50, p95, max), and the
server process's CPU per move (each move is an update every other player is sent) and per strip sent.
``--revision REV`` runs that revision's server the same way first, in the same run (``--rounds``: alternating).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]) if "--tree" in sys.argv else ROOT  # the server's code
sys.path.insert(0, str(TREE))

from app import events  # noqa: E402
from app.challenges import play, standings  # noqa: E402
from app.daily.budget import SendBudget, process_share  # noqa: E402
from app.play import solo  # noqa: E402
from cogs.challenge import keeper as keeper_module  # noqa: E402
from games.engine import Rules, legal_actions  # noqa: E402
from storage import open_store  # noqa: E402


class StandInMessage:
    def __init__(self, log: list[tuple[float, float]], reads: list[float], latency: float) -> None:
        self.log, self.reads, self.latency = log, reads, latency

    async def edit(self, **fields) -> None:
        read_at = self.reads[-1]  # the standings this edit shows were read then
        await asyncio.sleep(self.latency)
        self.log.append((read_at, time.monotonic()))


class StandInChannel:
    def __init__(self, message: StandInMessage) -> None:
        self.message = message

    def get_partial_message(self, message_id: int) -> StandInMessage:
        return self.message


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(players: int, seconds: float, latency: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(Path(folder) / "bench.sqlite3")
        edits: list[tuple[float, float]] = []
        reads: list[float] = []
        channel = StandInChannel(StandInMessage(edits, reads, latency))
        bot = SimpleNamespace(store=store, send_budget=SendBudget(process_share(50, None, None)),
                              get_guild=lambda guild_id: object(), get_partial_messageable=lambda cid: channel,
                              par_solver=None, coach_player=None)
        keeper = keeper_module.StandingsKeeper(bot)
        board = standings.board

        async def reading(store_, challenge_id):
            reads.append(time.monotonic())
            return await board(store_, challenge_id)

        keeper_module.standings = SimpleNamespace(board=reading)  # type: ignore[assignment]
        events.listen_challenges(store, lambda record: keeper.schedule(record.challenge_id))
        challenge = await play.start(store, 1, Rules().with_health(99), guild_id=10, channel_id=20, locale="en-US",
                                     minutes=60)
        await play.posted(store, challenge.id, 20, 30)
        games = [(await play.join(store, challenge.id, 1000 + n, f"player {n}")).game for n in range(players)]
        moves: list[float] = []
        end = time.monotonic() + seconds
        rng = random.Random(7)

        async def player(record) -> None:
            await asyncio.sleep(rng.uniform(0, 3))
            while time.monotonic() < end and record.playing:
                action = rng.choice(legal_actions(record.state))
                record = (await solo.move(store, record.id, record.user_id, record.version, action)).record
                moves.append(time.monotonic())
                await asyncio.sleep(rng.uniform(1, 3))

        started = time.monotonic()
        await asyncio.gather(*(player(game) for game in games))
        await asyncio.sleep(keeper_module.EDIT_EVERY + 1)  # the last edit
        took = time.monotonic() - started
        for task in list(keeper.pending.values()):
            await task
        await store.close()

    done = [at for _, at in edits]
    gaps = [b - a for a, b in zip(done, done[1:], strict=False)]
    windows = max(sum(1 for at in done if start <= at < start + 5) for start in done) if done else 0
    stale = []
    for moved in moves:
        shown = next((at for read, at in edits if read >= moved), None)
        if shown is not None:
            stale.append(shown - moved)
    print(f"{players} players, {len(moves)} moves in {took:.1f} s ({len(moves) / took:.0f} moves/s)")
    print(f"edits: {len(edits)} ({len(edits) / took:.2f}/s); most in any 5 s: {windows}; "
          f"shortest gap {min(gaps):.2f} s" if gaps else "edits: too few")
    print(f"staleness of the standings after a move: p50 {statistics.median(stale):.2f} s, "
          f"p95 {percentile(stale, 0.95):.2f} s, p99 {percentile(stale, 0.99):.2f} s, max {max(stale):.2f} s "
          f"({len(stale)} of {len(moves)} moves shown)")


class Players:
    """The table's identity in the benchmark: the token ``p<N>`` is player N, in every instance."""

    async def player(self, token: str):
        from web.identity import Player, Refused

        if not token.startswith("p") or not token[1:].isdigit():
            raise Refused("unknown")
        return Player(int(token[1:]), f"player {token[1:]}")

    async def in_instance(self, instance_id: str, player_id: int) -> bool:
        return True

    async def place(self, instance_id: str, player_id: int):
        return None, None

    async def exchange(self, code: str) -> str:
        return code

    async def close(self) -> None:
        return None


async def serve(database: str, port_file: str) -> None:
    """The table's server alone in this process (``--serve``), the code of ``--tree``: until SIGTERM."""
    import signal

    from aiohttp import web

    from web.limits import RateLimit
    from web.routes import Table, add_routes

    store = await open_store(database)
    app = web.Application()
    add_routes(app, Table(store=lambda: store, identity=Players(),  # type: ignore[arg-type]
                          limits=RateLimit(rate=1000, burst=1000)))
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    Path(port_file).write_text(str(runner.addresses[0][1]))  # noqa: ASYNC240 - once, at start-up
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
        await store.close()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def checkout(revision: str, folder: str) -> Path:
    """``revision``'s files (``git archive``) in a new folder under ``folder``."""
    tree = Path(folder) / revision
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree


async def activity(players: int, seconds: float, tree: Path, name: str) -> None:
    """One run of ``tree``'s table server, in its own process, followed and played by ``players``."""

    with tempfile.TemporaryDirectory() as folder:
        port_file = Path(folder) / "port"
        server = subprocess.Popen([sys.executable, __file__, "--serve", str(Path(folder) / "bench.sqlite3"),  # noqa: ASYNC220
                                   str(port_file), "--tree", str(tree)], cwd=tree)
        try:
            while not port_file.exists() or not port_file.read_text():
                if server.poll() is not None:
                    raise SystemExit("the server did not start")
                await asyncio.sleep(0.05)
            url = f"http://127.0.0.1:{port_file.read_text()}/"
            result = await follow_and_play(url, players, seconds, server.pid)
        finally:
            server.terminate()
            try:
                server.wait(5)
            except subprocess.TimeoutExpired:  # streams still open on its side: measured already, so ended
                server.kill()
                server.wait()
    report(name, players, *result)


async def follow_and_play(url: str, players: int, seconds: float, pid: int) -> tuple:
    import aiohttp

    received: dict[int, list[tuple[float, bytes]]] = {n: [] for n in range(1, players + 1)}
    moves: list[tuple[float, int, int, int]] = []  # (when, player, room, health) after the move
    end = time.monotonic() + seconds
    rng = random.Random(7)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        games = {}
        for n in range(1, players + 1):
            async with session.post(f"{url}api/games", json={"kind": "daily"},
                                    headers={"Authorization": f"Bearer p{n}"}) as answer:
                games[n] = (await answer.json())["state"]

        async def follow(n: int) -> None:
            params = {"instance": "bench", "game": str(games[n]["id"])}
            async with session.get(f"{url}api/together", params=params,
                                   headers={"Authorization": f"Bearer p{n}"}) as stream:
                while time.monotonic() < end + 3:
                    try:
                        line = await asyncio.wait_for(stream.content.readline(), 1.0)
                    except TimeoutError:
                        continue
                    if line.startswith(b"data: "):
                        received[n].append((time.monotonic(), line))

        async def play(n: int) -> None:
            state = games[n]
            await asyncio.sleep(rng.uniform(1, 3))
            while time.monotonic() < end and not state["over"]:
                codes = [slot[way]["code"] for slot in state["room"] for way in ("weapon", "take")
                         if slot.get(way)] + ([state["avoid"]["code"]] if state.get("avoid") else [])
                if not codes:
                    break
                async with session.post(f"{url}api/games/{state['id']}/move",
                                        json={"version": state["version"], "action": rng.choice(codes)},
                                        headers={"Authorization": f"Bearer p{n}"}) as answer:
                    state = (await answer.json()).get("state") or state
                moves.append((time.monotonic(), n, state["room_number"], state["health"]))
                await asyncio.sleep(rng.uniform(1, 3))

        followers = [asyncio.create_task(follow(n)) for n in range(1, players + 1)]
        await asyncio.sleep(1.0)  # every stream open
        cpu = cpu_seconds(pid)
        await asyncio.gather(*(play(n) for n in range(1, players + 1)))
        cpu = cpu_seconds(pid) - cpu
        await asyncio.gather(*followers)
    delays = []
    for k, (moved_at, n, _room, _health) in enumerate(moves):
        # A strip shows this move once it shows the mover as this move or a later one of theirs left them (strips
        # are coalesced: a follower may never see a state its mover left at once).
        later = {f'"id":"{n}","name":"player {n}","playing":"daily","room":{r},"health":{max(0, h)}'.encode()
                 for _, m, r, h in moves[k:] if m == n}
        seen = [next((at for at, text in received[m] if at >= moved_at and any(x in text for x in later)), None)
                for m in received if m != n]
        if all(at is not None for at in seen):
            delays.append(max(seen) - moved_at)  # type: ignore[type-var]
    sent = sum(len(strips) for strips in received.values())
    return len(moves), sent, delays, cpu


def report(name: str, players: int, moves: int, sent: int, delays: list[float], cpu: float) -> None:
    if not delays:
        print(f"{name}: no move was seen by everyone ({moves} moves, {sent} strips)")
        return
    print(f"{name}: {players} players in one instance, {moves} moves, {sent} strips sent; update delay (a move "
          f"until every other player has it) p50 {statistics.median(delays):.3f} s, p95 "
          f"{percentile(delays, 0.95):.3f} s, max {max(delays):.3f} s ({len(delays)} of {moves} moves); "
          f"server CPU {1000 * cpu / max(1, moves):.2f} ms per move (update), {1000 * cpu / max(1, sent):.3f} ms "
          f"per strip sent")


def main() -> None:
    if "--serve" in sys.argv:
        where = sys.argv.index("--serve")
        asyncio.run(serve(sys.argv[where + 1], sys.argv[where + 2]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--activity", type=int, default=0, help="players at one table instead (the strip)")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--latency", type=float, default=0.12, help="seconds the stand-in takes to edit")
    parser.add_argument("--revision", action="append", default=[],
                        help="with --activity: also measure that git revision's table server, in the same run")
    parser.add_argument("--rounds", type=int, default=1, help="with --activity: runs of each, alternating")
    options = parser.parse_args()
    if options.activity:
        with tempfile.TemporaryDirectory() as folder:
            trees = [(revision, checkout(revision, folder)) for revision in options.revision] + [("this", ROOT)]
            for _ in range(options.rounds):
                for name, tree in trees:
                    asyncio.run(activity(options.activity, options.seconds, tree, name))
    else:
        asyncio.run(run(options.players, options.seconds, options.latency))


if __name__ == "__main__":
    main()
