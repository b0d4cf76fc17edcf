"""Through SimCord, on SQLite and PostgreSQL: playing one more daily never ranks a player lower on a board of
several days. Alice and Bob play Daily #1 alike; Bob also plays Daily #2 and dies there, below zero. Summed scores
ranked Alice first (she skipped the day Bob lost); points rank Bob first on the week, month and all-time boards,
while the daily boards still rank scores."""

from __future__ import annotations

import pytest

from games.engine.tally import DAY_FLOOR
from tests.daily.helpers import play_to_end

DAY = 24 * 3600
BOARDS = ("week", "month", "all-time")


@pytest.fixture(params=["sqlite", "postgres"])
def db_path(request, tmp_path):
    """The bot's database: a SQLite file, or a fresh database of the tests' PostgreSQL server."""
    if request.param == "sqlite":
        return tmp_path / "scoundrel.sqlite3"
    return request.getfixturevalue("pg_url")


async def play_daily(actor, channel) -> None:
    result = await actor.slash(channel, "scoundrel daily")
    await play_to_end(actor, result.response)  # always the first playable card: the same play for everyone


def board_lines(result) -> list[str]:
    embed = result.response.embeds[0]
    return embed.description.split("\n")


async def test_the_player_who_played_one_more_day_is_not_ranked_below_the_one_who_skipped_it(world):
    alice, bob = world.alice, world.bob
    await play_daily(alice, world.channel)
    await world.env.advance_time(60)
    await play_daily(bob, world.channel)
    first = (await world.store.daily_attempt(alice.id, 1)).score
    assert (await world.store.daily_attempt(bob.id, 1)).score == first
    await world.env.advance_time(DAY)
    await play_daily(bob, world.channel)
    second = await world.store.daily_attempt(bob.id, 2)
    assert second.status == "dead" and second.score < 0 and first + second.score < first  # summing punished Bob

    alice_points, bob_points = first - DAY_FLOOR, first + second.score - 2 * DAY_FLOOR
    assert bob_points >= alice_points
    bob_best = max(first, second.score)
    for scope, guild in (("server", world.guild.id), ("global", None)):
        for board in BOARDS:
            # The totals as each backend keeps them ...
            entries = (await world.store.leaderboard_week(2, guild) if board == "week" else
                       await world.store.leaderboard_month(1, guild) if board == "month" else
                       await world.store.leaderboard_all_time(guild, dailies_only=True))
            assert [(e.user_id, e.points) for e in entries] == [(bob.id, bob_points), (alice.id, alice_points)]
            # ... and the board as Alice reads it: Bob first, her own place second, the rule in one line.
            await world.env.advance_time(60)  # public posts: three a minute per member
            shown = await alice.slash(world.channel, "scoundrel leaderboard", board=board, scope=scope)
            lines = board_lines(shown)
            assert lines[0] == f"Points: each day's score + {-DAY_FLOOR} (never below 0): every day played adds."
            assert lines[2] == f"🥇 **bob** — **{bob_points}** pts over 2 days (0 won, best {bob_best})"
            assert lines[3] == f"🥈 **alice** — **{alice_points}** pts over 1 day (0 won, best {first})"
            assert shown.response.embeds[0].footer.text == "you: #2 of 2"

    # One day's board still ranks that day's scores.
    today = board_lines(await bob.slash(world.channel, "scoundrel leaderboard", board="daily"))
    assert today[0].startswith("Best score first") and f"**bob** — **{second.score}** (died)" in today[2]
    await world.env.advance_time(60)
    day_one = board_lines(await bob.slash(world.channel, "scoundrel leaderboard", board="daily", day=1))
    assert day_one[2].startswith(f"🥇 **alice** — **{first}**")  # equal scores: the earlier finish first
