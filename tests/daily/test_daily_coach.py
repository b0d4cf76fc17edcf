"""The coach's score of the daily, shown beside par wherever par is shown: the player's finished daily, the next
day's post and a Share post once the day is over (SimCord, virtual time). The night's job that computes it is in
tests/daily/test_daily_par.py; here the day's par and coach are stored as that job stores them."""

from __future__ import annotations

from datetime import timedelta

from games.engine import seed_to_text
from games.i18n.messages import messages_for
from tests.daily.helpers import admin_of, play_to_end

DAY = timedelta(days=1)


async def test_a_finished_daily_shows_par_seeing_every_card_the_coach_and_the_player(world, locales):
    await world.store.put_daily(1, 4242)
    await world.store.set_daily_par(1, 30, None, coach_score=14)
    game = await world.alice.slash(world.channel, "scoundrel daily")
    await play_to_end(world.alice, game.response)
    record = await world.store.daily_attempt(world.alice.id, 1)
    assert record.score != 30  # the first playable card every time: far from par
    lines = game.response.message.embeds[0].description.splitlines()
    assert any(line.endswith(f" · par 30 seeing every card · coach 14 · you {record.score}") for line in lines)

    locales.speak(world.bob, "de")  # in the reader's language
    game = await world.bob.slash(world.channel, "scoundrel daily")
    await play_to_end(world.bob, game.response)
    score = (await world.store.daily_attempt(world.bob.id, 1)).score
    de = messages_for("de")
    expected = " · ".join([de("par {par} seeing every card", par=30), de("coach {coach}", coach=14),
                           de("you {score}", score=score)])
    assert expected in game.response.message.embeds[0].description
    assert "Par 30 mit allen Karten offen · Coach 14 · du" in expected


async def test_a_daily_solved_without_the_coach_shows_par_as_before(world):
    await world.store.put_daily(1, 4242)
    await world.store.set_daily_par(1, 30)
    game = await world.alice.slash(world.channel, "scoundrel daily")
    await play_to_end(world.alice, game.response)
    description = game.response.message.embeds[0].description
    assert "coach" not in description and "seeing every card" not in description
    assert " · par 30, " in description and " short." in description


async def test_the_next_days_post_reveals_par_and_the_coachs_score(world):
    admin = admin_of(world)
    daily = world.guild.create_text_channel("daily")
    await admin.slash(world.channel, "scoundrel-admin daily", channel=daily, time="09:00")
    await world.env.advance_time(10 * 3600)  # day 1's post, at 09:00
    challenge = await world.store.get_daily(1)
    await world.store.set_daily_par(1, 30, None, coach_score=-12)
    assert "coach" not in str(daily.last_message.embeds[0].to_dict())  # today's post says nothing of today's
    await world.env.advance_time(DAY.total_seconds())  # day 2's post reveals day 1
    fields = {f.name: f.value for f in daily.last_message.embeds[0].fields}
    assert fields["Daily #1's seed, now revealed"] == (
        f"Par 30 seeing every card · coach -12 — replay it with `/scoundrel play seed:{seed_to_text(challenge.seed)}`")


async def test_a_share_post_gets_par_and_the_coachs_score_once_the_day_is_over(world, locales):
    locales.speak(world.bob, "fr")
    posts = []
    for actor in (world.alice, world.bob):
        game = await actor.slash(world.channel, "scoundrel daily")
        await play_to_end(actor, game.response)
        label = "Share result" if actor is world.alice else messages_for("fr")("Share result")
        await actor.click(game.response.message, label=label)
        posts.append(world.channel.last_message)
    await world.store.set_daily_par(1, 27, coach_score=8)
    await world.env.advance_time(DAY.total_seconds() - 120)  # 23:58: no spoiler while the day runs
    assert all("coach" not in post.content and "par" not in post.content for post in posts)

    await world.env.advance_time(180)  # 00:01 on day 2: the midnight run finished both posts
    alice_post, bob_post = [m for m in world.channel.history() if m.id in {post.id for post in posts}]
    assert " · par 27 · coach 8" in alice_post.content
    fr = messages_for("fr")
    assert f" · {fr('par {par}', par=27)} · {fr('coach {coach}', coach=8)}" in bob_post.content


async def test_a_second_daily_after_playing_says_par_and_the_coachs_score_beside_the_players(world, locales):
    await world.store.put_daily(1, 4242)
    await world.store.set_daily_par(1, 30, None, coach_score=14)
    carol, dora = (world.guild.add_member(world.env.create_user(name)) for name in ("carol", "dora"))
    players = [(world.alice, "en-US"), (world.bob, "de"), (carol, "fr"), (dora, "es-ES")]
    for actor, locale in players:
        locales.speak(actor, locale)
        game = await actor.slash(world.channel, "scoundrel daily")
        await play_to_end(actor, game.response)
        score = (await world.store.daily_attempt(actor.id, 1)).score
        again = await actor.slash(world.channel, "scoundrel daily")
        tr = messages_for(locale)
        result = tr("score {score}", score=score) + "; " + " · ".join(
            [tr("par {par} seeing every card", par=30), tr("coach {coach}", coach=14)])
        assert again.response.content.startswith(tr(
            "You have already played Daily #{day} ({result}): only the first attempt counts.", day=1, result=result))
        if locale == "en-US":
            assert f"(score {score}; par 30 seeing every card · coach 14)" in again.response.content
        else:
            assert "seeing every card" not in again.response.content and "14" in again.response.content
