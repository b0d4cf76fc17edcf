"""One bot process of a sharded installation, for tests/discord/test_sharded_processes.py.

    python -m tests.discord.shard_process URL SHARD_COUNT SHARD_ID [hang] [lease=SECONDS]

Runs the real sharded bot (``run --shard-count N --shard-ids SHARD_ID``) on the PostgreSQL database at URL under
SimCord: its own virtual Discord holding one server on this process's shard, with the same players as every other
such process (SimCord gives ids in order of creation, so ``alice`` has the same id in each). With ``hang``, its par
solver never ends (a process to be killed in the middle of a solve); ``lease=`` shortens the par's lease (the
seconds a dead solver holds it), which SimCord's clock runs out in real time while the bot waits for it. The
test drives it with one JSON command a line on stdin and reads one JSON answer a line on stdout:

    {"do": "schedule"}            the server's admin turns the daily post on (00:00 UTC) in #daily
    {"do": "advance", "seconds": S}
    {"do": "state"}               par solves this process made, daily posts in #daily (and when each was made),
                                  the server's id
    {"do": "play", "seed": TEXT}  alice starts a game (or "resume": shows her game here)
    {"do": "click"}               alice clicks the first move of the game shown here
    {"do": "quit"}
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
from datetime import timedelta

import discord
import simcord

from app.daily.par import ParKeeper
from app.solver.worker import solve_par
from bot.client import make_bot
from tests.discord.harness import buttons, make_config, private_notes


def move_button(message) -> str:
    """The first move alice can make on the game message: a room card (taken, or fought) or Avoid."""
    return next(b.custom_id for b in buttons(message) if b.custom_id and not b.disabled
                and b.custom_id.startswith("sc:g:") and b.custom_id.split(":")[-1][:1] in "TWBA")


async def hanging_solve(*args, **kwargs):
    """A solve that does not end (in a thread, in real time): the process is killed in the middle of it."""
    await asyncio.get_running_loop().run_in_executor(None, time.sleep, 3600)


async def main(url: str, shard_count: int, shard_id: int, hang: bool = False) -> None:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    # par, solved once across the processes (the coach's score would be stored by the same write, under the same
    # lease: left out here, it costs tens of seconds of CPU)
    bot = make_bot(make_config(url, shard_count=shard_count, shard_ids=(shard_id,)),
                   par_solver=hanging_solve if hang else solve_par, coach_player=None)
    async with simcord.run(bot, settle_timeout=240) as env:
        assert bot.shard_ids == [shard_id] and bot.shard_count == shard_count
        alice = env.create_user("alice")
        admin_user = env.create_user("admin")
        for n in range(shard_id):  # ids of this process's own Discord objects apart from the other process's
            env.create_user(f"someone {n}")
        guild = env.create_guild(f"Shard {shard_id}", shard_id=shard_id)
        general = guild.create_text_channel("general")
        daily = guild.create_text_channel("daily")
        mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
        admin = guild.add_member(admin_user, roles=[mods])
        player = guild.add_member(alice)
        shown = None  # the game message alice sees here
        reader = asyncio.StreamReader()
        await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

        def answer(**fields) -> None:
            sys.stdout.write(json.dumps(fields) + "\n")
            sys.stdout.flush()

        answer(ready=True, alice=alice.id, guild=guild.id)
        while line := await reader.readline():
            command = json.loads(line)
            do = command["do"]
            if do == "quit":
                break
            if do == "schedule":
                result = await admin.slash(general, "scoundrel-admin daily", channel=daily, time="00:00")
                answer(text=result.response.content)
            elif do == "advance":
                await env.advance_time(command["seconds"])
                answer(ok=True)
            elif do == "state":
                cog = bot.get_cog("DailyPoster")
                made = [m for m in daily.history() if m.embeds and "Scoundrel Daily #" in (m.embeds[0].title or "")]
                answer(solves=cog.par.solves, posts=[m.embeds[0].title for m in made], guild=guild.id,
                       posted_at=[m.created_at.isoformat() for m in made], now=env.now().isoformat(),
                       guilds=[g.id for g in bot.guilds])
            elif do in ("play", "resume"):
                if do == "play":
                    result = await player.slash(general, "scoundrel play", seed=command["seed"])
                else:
                    result = await player.slash(general, "scoundrel resume")
                shown = general.last_message
                answer(message=shown.id, text=result.response.content if result.response else None)
            elif do == "click":
                custom_id = move_button(shown)
                result = await player.click(shown, custom_id=custom_id)
                shown = next(m for m in general.history() if m.id == shown.id)  # as edited by the click
                answer(clicked=custom_id, notes=private_notes(result))
        env.raise_errors()


if __name__ == "__main__":
    for option in sys.argv[4:]:
        if option.startswith("lease="):
            ParKeeper.lease = timedelta(seconds=float(option.removeprefix("lease=")))
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), "hang" in sys.argv[4:]))
