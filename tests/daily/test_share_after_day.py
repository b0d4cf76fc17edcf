"""A Share post made while its day runs gets par and the streak once the day is over (SimCord, virtual time)."""

from __future__ import annotations

from datetime import timedelta

from games.i18n.messages import messages_for
from tests.daily.helpers import play_to_end
from tests.discord.harness import buttons

DAY = timedelta(days=1)


async def test_a_share_post_made_during_the_day_gets_par_and_the_streak_after_midnight(world, locales):
    game = await world.alice.slash(world.channel, "scoundrel daily")  # day 1: the streak's first day
    await play_to_end(world.alice, game.response)
    await world.env.advance_time(DAY.total_seconds())  # day 2
    locales.speak(world.bob, "fr")
    posts = []
    for actor in (world.alice, world.bob):
        game = await actor.slash(world.channel, "scoundrel daily")
        await play_to_end(actor, game.response)
        label = "Share result" if actor is world.alice else messages_for("fr")("Share result")
        await actor.click(game.response.message, label=label)
        posts.append(world.channel.last_message)
    alice_post, bob_post = posts
    assert "🔥 2-day streak" in alice_post.content and "par" not in alice_post.content
    await world.store.set_daily_par(2, 17)
    await world.env.advance_time(DAY.total_seconds() - 120)  # 23:58 on day 2: no spoiler while the day runs
    assert "par" not in alice_post.content and "par" not in bob_post.content

    await world.env.advance_time(180)  # 00:01 on day 3: the midnight run finished both posts
    alice_post, bob_post = [message for message in world.channel.history() if message.id in
                            (alice_post.id, bob_post.id)]
    alice_text = alice_post.content
    assert alice_text.startswith("**alice**'s Scoundrel Daily #2: ")
    assert "· par 17 · 🔥 2-day streak" in alice_text  # the streak as it stood on day 2
    assert [b.label for b in buttons(alice_post)] == ["Play today's daily"]  # the button stays
    fr = messages_for("fr")
    assert " · " + fr("par {par}", par=17) in bob_post.content  # in the language it was written in
    assert bob_post.content.splitlines()[-1] == "-# " + fr(
        "🟩 no damage · 🟨 up to 5 · 🟧 up to 10 · 🟥 more · ⏭️ avoided · 🏆 cleared · 💀 died")
    assert await world.store.take_share_posts(10, 100) == []  # each post is finished once


async def test_a_share_post_made_after_the_day_already_has_par_and_is_not_kept(world):
    game = await world.alice.slash(world.channel, "scoundrel daily")
    await play_to_end(world.alice, game.response)
    await world.store.set_daily_par(1, 12)
    await world.env.advance_time(DAY.total_seconds())
    await world.alice.click(game.response.message, label="Share result")
    assert "· par 12" in world.channel.last_message.content
    assert await world.store.take_share_posts(10, 100) == []


async def test_a_share_post_deleted_meanwhile_does_not_stop_the_others(world):
    game = await world.alice.slash(world.channel, "scoundrel daily")
    await play_to_end(world.alice, game.response)
    await world.alice.click(game.response.message, label="Share result")
    gone = world.channel.last_message
    await world.alice.click(game.response.message, label="Share result")  # a second post of the same result
    kept = world.channel.last_message
    await world.store.set_daily_par(1, 9)
    await world.bot.http.delete_message(world.channel.id, gone.id)  # deleted before the day ended
    await world.env.advance_time(DAY.total_seconds() + 60)
    [after] = [message for message in world.channel.history() if message.id == kept.id]
    assert "· par 9" in after.content
    assert gone.id not in [message.id for message in world.channel.history()]
