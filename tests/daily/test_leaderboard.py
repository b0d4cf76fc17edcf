"""/scoundrel leaderboard and /scoundrel stats through SimCord: server and global boards, ties, streaks."""

from __future__ import annotations

from games.engine.tally import DAY_FLOOR
from tests.daily.helpers import play_to_end

DAY = 24 * 3600


async def play_daily(actor, channel, first: str | None = None) -> None:
    result = await actor.slash(channel, "scoundrel daily")
    await play_to_end(actor, result.response, first)


def board_text(result) -> str:
    embed = result.response.embeds[0]
    return f"{embed.title}\n{embed.description}"


async def test_two_servers_see_their_own_boards_and_the_global_board_sees_both(world):
    other = world.env.create_guild("Elsewhere")
    lobby = other.create_text_channel("lobby")
    carol = other.add_member(world.env.create_user("carol"))
    await play_daily(world.alice, world.channel)
    await play_daily(carol, lobby, first="A")

    here = board_text(await world.alice.slash(world.channel, "scoundrel leaderboard"))
    there = board_text(await carol.slash(lobby, "scoundrel leaderboard", scope="server"))
    everywhere = board_text(await world.alice.slash(world.channel, "scoundrel leaderboard", scope="global"))
    assert "this server" in here and "**alice**" in here and "**carol**" not in here
    assert "**carol**" in there and "**alice**" not in there
    # Alice shares no server with carol: the board of every server names its players (as they were named when
    # they played), never by a mention her client could not resolve.
    assert "every server" in everywhere and "**alice**" in everywhere and "**carol**" in everywhere
    assert "<@" not in everywhere
    names = {world.alice.id: "**alice**", carol.id: "**carol**"}
    order = [e.user_id for e in await world.store.leaderboard_daily(1)]
    assert sorted(order, key=lambda user: everywhere.index(names[user])) == order


async def test_every_board_of_a_server_names_its_players_and_shows_no_raw_id(world):
    """A mention inside an embed shows as a raw ``<@id>`` on a phone whose client has not loaded that member: every
    board of a server (the day, the week, the month, all time) names its players by the names kept with their
    results, and pings no one."""
    await play_daily(world.alice, world.channel)
    await play_daily(world.bob, world.channel, first="A")
    for board in ("daily", "week", "month", "all-time"):
        await world.env.advance_time(60)  # past the command's cooldown
        shown = await world.alice.slash(world.channel, "scoundrel leaderboard", board=board, scope="server")
        text = board_text(shown)
        assert "this server" in text and "**alice**" in text and "**bob**" in text, board
        assert "<@" not in text, board
        stored = world.env.backend.get_message(world.channel.id, shown.response.message.id)
        assert not stored.allowed_mentions.allows_user(world.alice.id), board


async def test_a_name_is_kept_with_the_result_as_it_was_when_they_played(world):
    await play_daily(world.alice, world.channel)
    day1 = await world.store.daily_attempt(world.alice.id, 1)
    await world.env.advance_time(DAY)
    await play_daily(world.alice, world.channel)
    day2 = await world.store.daily_attempt(world.alice.id, 2)
    await world.store.keep_name(day2.id, "alice the bold")  # she renamed herself before Daily #2
    assert await world.store.names_for([world.alice.id, world.bob.id], day=1) == {world.alice.id: "alice"}
    assert await world.store.names_for([world.alice.id], day=2) == {world.alice.id: "alice the bold"}
    assert await world.store.names_for([world.alice.id]) == {world.alice.id: "alice the bold"}  # the latest
    assert day1.id != day2.id
    board = board_text(await world.alice.slash(world.channel, "scoundrel leaderboard", scope="global", day=1))
    assert "**alice**" in board and "bold" not in board


async def test_equal_scores_rank_the_earlier_finish_first(world):
    alice_game = await world.alice.slash(world.channel, "scoundrel daily")  # alice starts first …
    await play_daily(world.bob, world.channel)  # … but bob finishes first, with the same play
    await world.env.advance_time(60)
    await play_to_end(world.alice, alice_game.response)
    entries = await world.store.leaderboard_daily(1, world.guild.id)
    assert entries[0].score == entries[1].score
    text = board_text(await world.alice.slash(world.channel, "scoundrel leaderboard", board="daily"))
    assert text.index("**bob**") < text.index("**alice**")


async def test_week_and_all_time_boards(world):
    await play_daily(world.alice, world.channel)
    first = (await world.store.daily_attempt(world.alice.id, 1)).score
    await world.env.advance_time(DAY)
    await play_daily(world.alice, world.channel)
    second = (await world.store.daily_attempt(world.alice.id, 2)).score
    week = board_text(await world.alice.slash(world.channel, "scoundrel leaderboard", board="week"))
    points = first + second - 2 * DAY_FLOOR  # each day's score above the floor
    assert "Daily #1–#2" in week and f"**alice** — **{points}** pts over 2 days" in week
    assert f"Points: each day's score + {-DAY_FLOOR} (never below 0)" in week
    await world.alice.slash(world.channel, "scoundrel play", seed="0000-0004")  # a normal game: not on the board
    normal = await world.store.active_game(world.alice.id, "normal")
    await world.store.abandon(normal.id, world.alice.id)
    all_time = board_text(await world.alice.slash(world.channel, "scoundrel leaderboard", board="all-time"))
    assert f"**alice** — **{points}** pts over 2 days" in all_time  # the normal game: not a day
    assert f"Points: each day's score + {-DAY_FLOOR} (never below 0)" in all_time
    empty = board_text(await world.bob.slash(world.channel, "scoundrel leaderboard", board="daily"))
    assert "**alice**" in empty  # today's (day 2) board holds alice's counted result


def stat(result, emoji: str) -> str:
    """The stats line that starts with ``emoji``, without it."""
    lines = result.response.embeds[0].description.split("\n")
    return next(line.removeprefix(emoji + " ") for line in lines if line.startswith(emoji))


async def test_streaks_across_a_missed_day_and_stats(world):
    for day in (1, 2, 4):  # day 3 is missed
        if day == 4:
            await world.env.advance_time(DAY)
        await play_daily(world.alice, world.channel)
        await world.env.advance_time(DAY)
    # now day 5: the day-4 streak is still alive (today not played yet)
    stats = await world.bob.slash(world.channel, "scoundrel stats", user=world.alice)
    assert stat(stats, "🔥") == "Daily streak **1** · longest 2"
    assert stat(stats, "🎲").startswith("**3 games** (classic) · ")
    await world.env.advance_time(DAY)  # day 6: day 5 was missed too
    stats = await world.alice.slash(world.channel, "scoundrel stats")
    assert stat(stats, "🔥") == "Daily streak **0** · longest 2"


async def test_stats_break_down_by_preset_and_ignore_practice(world):
    await play_daily(world.alice, world.channel)
    again = await world.alice.slash(world.channel, "scoundrel daily")
    practice = await world.alice.click(again.response.message, label="Replay as practice")
    await play_to_end(world.alice, practice.response)
    game = await world.alice.slash(world.channel, "scoundrel play", preset="lenient")
    await play_to_end(world.alice, game.response)

    stats = await world.alice.slash(world.channel, "scoundrel stats")
    expected = await world.store.user_stats(world.alice.id)
    # the counted daily and the lenient game, not the practice; one line per ruleset
    assert stat(stats, "🎲") == f"**2 games** · 🏆 **{expected.wins}** won ({100 * expected.wins / 2:.0f}%)"
    assert stat(stats, "⭐").startswith(f"Best **{expected.best}** · average ")
    assert stat(stats, "🗓️").startswith("**1 daily** counted · ")
    assert stat(stats, "`classic`").startswith("1 game · ") and stat(stats, "`lenient`").startswith("1 game · ")
    assert len(stats.response.embeds[0].description.split("\n")) == 6  # a phone shows it whole


async def test_an_earlier_day_board_and_a_future_day_is_refused(world):
    await play_daily(world.alice, world.channel)
    await world.env.advance_time(DAY)
    past = board_text(await world.bob.slash(world.channel, "scoundrel leaderboard", day=1))
    assert past.startswith("🏆 Daily #1 — this server") and "Ended <t:1767312000:R>" in past
    assert "**alice**" in past
    future = await world.bob.slash(world.channel, "scoundrel leaderboard", day=3)
    assert future.ephemeral and future.response.content == "Daily #3 hasn't happened yet: today is Daily #2."


async def test_browsing_the_boards_never_hits_a_wall(world):
    """A board is a public post, at most 3 a minute a member: the day's, the week's and the month's go to the
    channel; the fourth in a row (all time) is shown to that member alone instead of refused."""
    await play_daily(world.alice, world.channel)
    before = len(world.channel.history())
    shown = [await world.alice.slash(world.channel, "scoundrel leaderboard", board=board)
             for board in ("daily", "week", "month", "all-time")]
    assert [result.ephemeral for result in shown] == [False, False, False, True]
    assert len(world.channel.history()) == before + 3  # the channel got three
    fourth = shown[-1]
    assert "All time — this server" in board_text(fourth) and "**alice**" in board_text(fourth)  # the board itself
    assert "Only you can see this" in fourth.response.content and "Slow down" not in fourth.response.content
    world.env.raise_errors()  # nothing was refused on the way
    # Stats count against the same budget; another member is not slowed down by alice.
    assert (await world.alice.slash(world.channel, "scoundrel stats")).ephemeral
    assert not (await world.bob.slash(world.channel, "scoundrel leaderboard")).ephemeral
    await world.env.advance_time(60)  # a minute later the channel takes alice's boards again
    assert not (await world.alice.slash(world.channel, "scoundrel leaderboard", board="week")).ephemeral
