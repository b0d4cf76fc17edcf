"""Every interaction is acknowledged within 3 s whatever the database does, and answered plainly when the work
gives up; a game made for a command whose answer failed still reaches its player.

The fault is real: another connection holds the SQLite database's write lock, so every write of the bot waits
(SQLite's busy timeout, 5 s) and then fails, as a stuck writer or a hung server looks. SimCord's clock does not
move while the bot waits on the database, so the test measures the first answer in real time itself.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time

import pytest

from cogs.plumbing.errors import DATABASE_DOWN
from tests.discord.harness import answer_kind, button_by_code, private_notes

pytestmark = pytest.mark.simcord(settle_timeout=30)


class FirstAnswers:
    """The real time from each interaction's arrival to its first answer (a message, an update or a deferral),
    watched from a thread by time.perf_counter: SimCord stops the event loop's clock and time.monotonic."""

    def __init__(self, env) -> None:
        self.seconds: list[float] = []
        env._register_dispatch_observer(self.arrived)

    def arrived(self, record) -> None:
        threading.Thread(target=self.watch, args=(record, time.perf_counter()), daemon=True).start()

    def watch(self, record, since: float) -> None:
        while record.response_kind is None and time.perf_counter() - since < 30:
            time.sleep(0.005)
        self.seconds.append(time.perf_counter() - since)


@contextlib.contextmanager
def locked(database):
    blocker = sqlite3.connect(database, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # the write lock, held by another connection
    try:
        yield
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


async def test_commands_and_clicks_are_acknowledged_within_3_s_while_the_database_cannot_be_written(world):
    started = await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")
    game = started.response.message
    answers = FirstAnswers(world.env)
    with locked(world.database):
        play = await world.bob.slash(world.channel, "scoundrel play")  # writes a new game
        click = await world.alice.click(game, custom_id=button_by_code(game, "T0").custom_id)  # writes a move
        abandon = await world.alice.slash(world.channel, "scoundrel abandon")
    assert len(answers.seconds) == 3 and max(answers.seconds) < 3.0, answers.seconds
    # (a public command's deferral is public: its refusal replaces the "thinking…" message)
    assert play.response.content == DATABASE_DOWN
    assert answer_kind(click) == "deferred_update" and private_notes(click) == [DATABASE_DOWN]
    assert answer_kind(abandon) in ("deferred", "message")
    with pytest.raises(ExceptionGroup) as caught:  # the refusals, as the tree's error handler saw them
        world.env.raise_errors()
    assert all("database is locked" in str(e.__cause__ or e) for e in caught.value.exceptions)
    # Nothing was changed, and the bot answers as usual once the database is back.
    assert await world.store.active_game(world.bob.id, "normal") is None
    assert (await world.store.active_game(world.alice.id, "normal")).version == 0
    again = await world.alice.click(game, custom_id=button_by_code(game, "T0").custom_id)
    assert answer_kind(again) == "update"


async def test_a_game_made_for_a_play_whose_answer_failed_is_shown_by_the_next_play(world):
    # Discord fails the answer (the game message) after the game was made: a dead end before this fix, the next
    # /scoundrel play said "You already have a game in progress" with nothing to show.
    world.env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    failed = await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")
    made = await world.store.active_game(world.alice.id, "normal")
    assert made is not None and made.message_id is None and failed.followups == []  # no game shown
    with pytest.raises(ExceptionGroup):
        world.env.raise_errors()  # the failed answer, as the tree's error handler saw it
    shown = await world.alice.slash(world.channel, "scoundrel play")
    message = shown.response.message
    assert answer_kind(shown) == "message" and button_by_code(message, "T0")
    assert (await world.store.load_game(made.id)).message_id == message.id  # the same game, now shown
