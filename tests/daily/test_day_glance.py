"""The server's day at a glance on the daily post, through SimCord with virtual time: today's running count
(edited at most once per interval), yesterday's share grids, and last month's champions across a month's end."""

from __future__ import annotations

from app.daily.days import DAILY_RULES, daily_seed, room_marks
from cogs.daily.count import COUNT_EVERY
from games.engine.tally import DAY_FLOOR
from tests.daily.helpers import play_to_end
from tests.daily.test_daily_post import posts, schedule
from tests.storage.helpers import play_line
from tests.storage.test_boards import random_line

HOUR = 3600


def edits_of(world, message) -> int:
    return sum(1 for r in world.env.http_requests
               if r.method == "PATCH" and r.path.endswith(f"/messages/{message.id}"))


def current(daily, post):
    return next(p for p in posts(daily) if p.id == post.id)


async def play(world, actor) -> None:
    started = await actor.slash(world.channel, "scoundrel daily")
    await play_to_end(actor, started.response)


async def test_todays_post_shows_the_running_count_edited_at_most_once_per_interval(world):
    admin, daily = await schedule(world, "08:00")
    await world.env.advance_time(8 * HOUR + 60)
    [post] = posts(daily)
    assert "played today" not in post.embeds[0].description  # nobody yet
    await play(world, world.alice)
    post = current(daily, post)
    assert edits_of(world, post) == 1  # the first finish shows at once
    assert post.embeds[0].description.endswith("👥 **1** player here has played today.")
    score = (await world.store.daily_attempt(world.alice.id, 1)).score
    shown = str(post.embeds[0].to_dict())
    assert f"**{score}**" not in shown and "🟩" not in shown and "💀" not in shown  # no score, no grid
    players = [world.bob] + [world.guild.add_member(world.env.create_user(f"player{i}")) for i in range(5)]
    for actor in players:  # six more finish within the interval
        await play(world, actor)
    assert edits_of(world, post) == 1
    await world.env.advance_time(COUNT_EVERY.total_seconds())
    post = current(daily, post)
    assert edits_of(world, post) == 2  # one edit for all six
    assert post.embeds[0].description.endswith("👥 **7** players here have played today.")
    await world.env.advance_time(HOUR)
    assert edits_of(world, current(daily, post)) == 2  # nothing new, no edit
    assert [b.label for b in current(daily, post).components[0].children] == ["Play today's daily"]


async def test_the_next_days_post_shows_the_top_ten_share_grids_and_how_many_more(world):
    admin, daily = await schedule(world, "08:00")
    store = world.store
    secret = await store.daily_secret()
    finished = []
    for i in range(12):
        user = world.guild.add_member(world.env.create_user(f"player{i}"))
        record = await store.create_game(user.id, world.guild.id, world.channel.id, DAILY_RULES,
                                         seed=daily_seed(secret, 1), kind="daily", day=1)
        if i % 2:  # a name kept with the result (as /scoundrel daily keeps it); the others fall back to a mention
            await store.keep_name(record.id, f"Player {i}")
        await world.env.advance_time(60)
        finished.append(await play_line(store, record, random_line(record.state, i)))  # scores of all kinds
    await world.env.advance_time(33 * HOUR)  # 2026-01-02 09:12
    post = posts(daily)[-1]
    assert post.embeds[0].title.endswith("#2")
    value = {f.name: f.value for f in post.embeds[0].fields}["Yesterday's best here (Daily #1)"]
    rows = value.split("\n")
    board = await store.leaderboard_daily(1, world.guild.id, 10)
    by_id = {g.id: g for g in finished}
    names = {g.user_id: f"**Player {i}**" for i, g in enumerate(finished) if i % 2}
    assert rows[:10] == [f"{medal} {names.get(e.user_id, f'<@{e.user_id}>')} {e.score} "
                         f"{''.join(room_marks(by_id[e.game_id].state))}"
                         for medal, e in zip(["🥇", "🥈", "🥉", *(f"{n}." for n in range(4, 11))], board,
                                             strict=True)]
    assert any(row.split()[1].startswith("**Player") for row in rows[:10])  # names where kept, not raw ids
    assert rows[10:] == ["…and 2 more"] and len(value) <= 1024


async def test_the_month_board_and_last_months_champions_across_the_month_boundary(world):
    admin, daily = await schedule(world, "00:05")
    carol = world.guild.add_member(world.env.create_user("carol"))
    await world.env.advance_time(HOUR)
    await play(world, world.alice)
    await play(world, world.bob)
    for _ in range(30):  # day by day to Daily #31, 2026-01-31 01:00
        await world.env.advance_time(24 * HOUR)
    await play(world, world.alice)
    scores = {(actor.id, day): (await world.store.daily_attempt(actor.id, day)).score
              for actor, day in ((world.alice, 1), (world.bob, 1), (world.alice, 31))}
    points = {key: score - DAY_FLOOR for key, score in scores.items()}  # each day's score above the floor
    january = {world.alice.id: points[(world.alice.id, 1)] + points[(world.alice.id, 31)],
               world.bob.id: points[(world.bob.id, 1)]}
    ranked = sorted(january, key=lambda user: (-january[user], -(user == world.alice.id)))
    assert "January 2026's champions" not in str(posts(daily)[-1].embeds[0].to_dict())
    await world.env.advance_time(24 * HOUR)  # 2026-02-01 01:00: Daily #32, the first post of February
    post = posts(daily)[-1]
    assert post.embeds[0].title.endswith("#32")
    first = post.embeds[0].fields[0]
    assert first.name == "🏆 January 2026's champions here"
    kept = {world.alice.id: "**alice**", world.bob.id: "**bob**"}  # the names kept with their dailies
    assert first.value == " · ".join(f"{medal} {kept[user]} {january[user]} pts"
                                     for medal, user in zip(("🥇", "🥈"), ranked, strict=True))
    await play(world, carol)
    board = await carol.slash(world.channel, "scoundrel leaderboard", board="month")
    text = f"{board.response.embeds[0].title}\n{board.response.embeds[0].description}"
    assert "February 2026 — this server" in text and "**carol**" in text
    assert "**alice**" not in text and "<@" not in text
    past = await carol.slash(world.channel, "scoundrel leaderboard", month=1)
    text = f"{past.response.embeds[0].title}\n{past.response.embeds[0].description}"
    assert "January 2026 — this server" in text and "**carol**" not in text
    assert f"**alice** — **{january[world.alice.id]}** pts over 2 days" in text and "<@" not in text
    assert past.response.embeds[0].footer.text == "you: not on this board yet"
    future = await carol.slash(world.channel, "scoundrel leaderboard", month=3)
    assert future.ephemeral and "March 2026 hasn't happened yet" in future.response.content
    await world.env.advance_time(24 * HOUR)  # Daily #33: no champions line any more
    assert "champions" not in str(posts(daily)[-1].embeds[0].to_dict())
