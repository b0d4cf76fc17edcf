"""/scoundrel daily through SimCord: private play, one counted attempt, practice, resume, share, midnight."""

from __future__ import annotations

import re
from datetime import timedelta

from app.daily.days import AVOIDED, CLEARED, DIED, FACED_MARKS, daily_seed, day_end
from cogs.game_message.embed import events_lines, status_line
from games.engine import deal, seed_to_text
from tests.daily.helpers import codes, play_to_end, restart
from tests.discord.harness import buttons

DAY = timedelta(days=1)


async def daily(actor, channel):
    result = await actor.slash(channel, "scoundrel daily")
    assert result.acknowledged and result.ephemeral
    return result


async def test_the_daily_is_private_and_the_same_deal_for_everyone(world):
    other = world.env.create_guild("Elsewhere")
    carol = other.add_member(world.env.create_user("carol"))
    first = await daily(world.alice, world.channel)
    second = await daily(carol, other.create_text_channel("lobby"))
    # No text above the room (a phone would lose the buttons below the fold): the embed says which daily,
    # that this try counts and when the day ends, within the room's line budget.
    embed = first.response.message.embeds[0]
    ends = int(day_end(1).timestamp())
    assert not first.response.content
    assert embed.title == "Daily #1 — room 1"
    assert embed.description.split("\n") == [f"This try counts · ends <t:{ends}:R>", status_line(
        (await world.store.active_game(world.alice.id, "daily")).state)]
    assert world.channel.history() == []  # nothing public: nobody sees the cards before playing
    assert [b.label for b in first.response.message.components[0].children] == \
        [b.label for b in second.response.message.components[0].children]
    record = await world.store.active_game(world.alice.id, "daily")
    secret = await world.store.daily_secret()
    assert (record.kind, record.day) == ("daily", 1)
    assert record.state.start_deck == deal(record.rules, daily_seed(secret, 1))
    assert record.rules.name == "classic"
    # Today's seed would give today's whole deal away: the private game message never shows it.
    seed = seed_to_text(daily_seed(secret, 1))
    assert record.seed is None
    assert seed not in str(first.response.message.embeds[0].to_dict()) and seed not in first.response.content
    assert embed.footer.text is None  # the title says which daily; its rules are the daily's


async def test_every_daily_room_keeps_to_the_rooms_line_budget(world):
    """A private message carries one more line ("only you can see this") than a room in a channel: a daily being
    played has no footer, and only its first room the line saying it counts and when it ends."""
    first = await daily(world.alice, world.channel)
    for _ in range(200):
        embed = first.response.message.embeds[0]
        record = await world.store.get_game((await world.store.daily_attempt(world.alice.id, 1)).id)
        if record.status != "playing":
            break
        assert embed.title.startswith("Daily #1 — room ") and embed.footer.text is None
        assert not first.response.content
        assert embed.description.split("\n") == ([f"This try counts · ends <t:{int(day_end(1).timestamp())}:R>"]
                                                 if record.version == 0 else []) + \
            [status_line(record.state), *events_lines(record.state)]
        by_code = codes(first.response.message)
        move = next(c for c in ("T1", "T2", "T3", "T4", "W1", "W2", "W3", "W4") if c in by_code
                    and not by_code[c].disabled)
        await world.alice.click(first.response.message, custom_id=by_code[move].custom_id)
    assert record.status in ("won", "dead")
    finished = first.response.message.embeds[0]  # the finished game says which day in its title, not a footer
    assert finished.title.endswith(f"Daily #1 · Score {record.score}") and finished.footer.text is None


async def test_an_unfinished_daily_resumes(world):
    first = await daily(world.alice, world.channel)
    await world.alice.click(first.response.message, custom_id=codes(first.response.message)["T1"].custom_id)
    again = await daily(world.alice, world.channel)
    assert again.response.content.startswith("Resumed · ends <t:")
    # After the first move the room's events take the intro's place; the title still says which daily.
    embed = again.response.message.embeds[0]
    assert embed.title == "Daily #1 — room 1" and "This try counts" not in embed.description
    record = await world.store.active_game(world.alice.id, "daily")
    assert record.version == 1 and record.message_id == again.response.id


async def test_a_second_counted_attempt_is_refused_and_practice_never_reaches_the_board(world):
    first = await daily(world.alice, world.channel)
    await play_to_end(world.alice, first.response)
    counted = await world.store.daily_attempt(world.alice.id, 1)
    assert counted.score is not None

    again = await daily(world.alice, world.channel)
    assert "already played Daily #1" in again.response.content and f"score {counted.score}" in again.response.content
    assert codes(again.response.message) == {}  # no game: the attempt is not replayed as counted
    practice = await world.alice.click(again.response.message, label="Replay as practice")
    practice_embed = practice.response.message.embeds[0]
    assert practice.ephemeral and practice_embed.title == "Practice — room 1"
    assert practice_embed.footer.text == "Daily #1 practice · never counts · classic"
    # Play the practice differently (avoid the first room) so its score can differ from the counted one.
    await play_to_end(world.alice, practice.response, first="A")
    replay = await world.store.game_actions((await world.store.recent_games(world.alice.id, 1))[0].id)
    assert replay[0] == "A"

    board = await world.store.leaderboard_daily(1, world.guild.id)
    assert [(e.user_id, e.score, e.game_id) for e in board] == [(world.alice.id, counted.score, counted.id)]
    assert len(await world.store.daily_results(1)) == 1
    stats = await world.store.user_stats(world.alice.id)
    assert stats.games == 1
    shown = await world.alice.slash(world.channel, "scoundrel leaderboard")
    assert shown.response.embeds[0].description.count("**alice**") == 1


async def test_an_old_practice_button_does_not_replay_a_finished_day(world):
    first = await daily(world.alice, world.channel)
    await play_to_end(world.alice, first.response)
    again = await daily(world.alice, world.channel)
    await world.env.advance_time(DAY.total_seconds())
    late = await world.alice.click(again.response.message, label="Replay as practice")
    assert late.response.content == "Daily #1 is over; `/scoundrel daily` plays today's (#2)."
    assert await world.store.active_game(world.alice.id, "daily") is None


async def test_share_posts_a_spoiler_free_result(world):
    first = await daily(world.alice, world.channel)
    await play_to_end(world.alice, first.response, first="A")
    record = await world.store.daily_attempt(world.alice.id, 1)
    seed = seed_to_text(daily_seed(await world.store.daily_secret(), 1))
    assert seed not in str(first.response.message.embeds[0].to_dict())  # not even once it is over: the day isn't
    shared = await world.alice.click(first.response.message, label="Share result")
    assert not shared.ephemeral
    text = world.channel.last_message.content
    assert text.startswith("**alice**'s Scoundrel Daily #1: ")  # the kept name: the post pings no one
    assert f"score {record.score}" in text
    marks, legend = text.splitlines()[1:-1], text.splitlines()[-1]
    assert legend.startswith("-# 🟩 no damage · 🟨 up to 5") and "💀 died" in legend  # what the colours mean
    # Whoever sees the post can play the day's deal from it.
    play = [b for b in buttons(world.channel.last_message) if b.custom_id == "sc:dplay:1"]
    assert [b.label for b in play] == ["Play today's daily"]
    from_share = await world.bob.click(world.channel.last_message, custom_id=play[0].custom_id)
    assert from_share.response.message.embeds[0].title == "Daily #1 — room 1" and from_share.response.ephemeral
    assert "".join(marks).startswith(AVOIDED)
    assert set(re.findall(".", "".join(marks).replace(AVOIDED, ""))) <= {*FACED_MARKS, DIED, CLEARED}
    assert not any(suit in text for suit in "♠♣♥♦♤♧")
    assert not any(card.label in text for card in record.state.start_deck)
    # The refusal of a second attempt offers the share again (the ephemeral game message may be gone).
    again = await daily(world.alice, world.channel)
    await world.alice.click(again.response.message, label="Share result")
    assert [m.content for m in world.channel.history()] == [text, text]


async def test_crossing_utc_midnight_gives_a_new_deal_and_keeps_yesterday(world):
    first = await daily(world.alice, world.channel)
    await play_to_end(world.alice, first.response)
    yesterday = await world.store.daily_attempt(world.alice.id, 1)
    await world.bob.slash(world.channel, "scoundrel daily")  # bob starts but does not finish day 1

    await world.env.advance_time(DAY.total_seconds())  # 2026-01-02 00:00 UTC
    second = await daily(world.alice, world.channel)
    assert second.response.message.embeds[0].title == "Daily #2 — room 1"
    today = await world.store.active_game(world.alice.id, "daily")
    assert today.day == 2 and today.state.start_deck != yesterday.state.start_deck
    assert [e.user_id for e in await world.store.leaderboard_daily(1)] == [world.alice.id]
    board = await world.alice.slash(world.channel, "scoundrel leaderboard")
    assert "Daily #2" in board.response.embeds[0].title and "**alice**" not in \
        board.response.embeds[0].description

    bob = await daily(world.bob, world.channel)  # his day-1 attempt ended with its day
    assert "Daily #1 ended with its day" in bob.response.content
    assert bob.response.message.embeds[0].title == "Daily #2 — room 1"
    assert (await world.store.daily_attempt(world.bob.id, 1)).status == "abandoned"


async def test_a_daily_survives_a_restart(world):
    first = await daily(world.alice, world.channel)
    await restart(world)
    await play_to_end(world.alice, first.response)
    assert (await world.store.daily_attempt(world.alice.id, 1)).score is not None
