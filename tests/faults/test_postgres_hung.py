"""PostgreSQL hung (every one of its processes stopped with SIGSTOP, the way a stuck server or a network partition
looks) for 12 s: every interaction is still acknowledged within 3 s (deferred), and answered with its result once
the server answers again. (A call that gives up: tests/faults/test_store_timeout.py.)"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading

import pytest

from tests.discord.harness import answer_kind, button_by_code, private_notes
from tests.faults.test_answered_in_time import FirstAnswers

pytestmark = pytest.mark.simcord(settle_timeout=60)


@pytest.fixture
def db_path(pg_url):
    return pg_url


def server_processes(server) -> list[int]:
    postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
    children = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True, text=True).stdout.split()
    return [postmaster, *map(int, children)]


@contextlib.contextmanager
def hung(server, seconds: float):
    """Every process of the server stopped for ``seconds`` of real time (SimCord's clock does not move while the
    bot waits on the database, so the outage is ended by the wall clock, from a thread)."""
    pids = server_processes(server)

    def resume() -> None:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    timer = threading.Timer(seconds, resume)
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        resume()


async def test_a_hung_postgresql_gets_every_interaction_answered_in_time(world, postgres_server):
    await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")
    game = world.channel.last_message
    answers = FirstAnswers(world.env)
    with hung(postgres_server, 12):
        play = await world.bob.slash(world.channel, "scoundrel play", seed="0000-0005")
    with hung(postgres_server, 12):
        click = await world.alice.click(game, custom_id=button_by_code(game, "T0").custom_id)
    assert len(answers.seconds) == 2 and max(answers.seconds) < 3.0, answers.seconds
    assert answer_kind(click) == "deferred_update" and private_notes(click) == []  # the move, once it was made
    assert button_by_code(play.response.message, "T0")  # bob's game, shown once the server answered
    assert (await world.store.active_game(world.alice.id, "normal")).version == 1
    made = await world.store.active_game(world.bob.id, "normal")
    assert made.message_id == play.response.message.id
