"""The daily, its boards, stats and settings in the reader's language; the scheduled post in the server's.

Each expected text is the catalogue's translation of the source text (``messages_for(locale)``), and a few
literal words are checked too, so a lookup that silently fell back to English could not pass.
"""

from __future__ import annotations

from datetime import UTC, datetime

import discord

from app.daily.days import daily_seed, day_end, room_marks, share_text
from cogs.coach.best_possible import par_summary
from cogs.daily.play import SHARE_LEGEND
from games.engine import apply, legal_actions, new_game, seed_to_text
from games.engine.rules import CLASSIC
from games.i18n.messages import ENGLISH, messages_for
from games.solver.explain import line_text
from tests.daily.helpers import play_to_end
from tests.discord.harness import buttons

HOUR = 3600
DE, FR = messages_for("de"), messages_for("fr")


def ends(day: int) -> str:
    return discord.utils.format_dt(day_end(day), "R")


def labels(message) -> list[str]:
    return [b.label for b in buttons(message)]


def custom_id(message, prefix: str) -> str:
    return next(b.custom_id for b in buttons(message) if (b.custom_id or "").startswith(prefix))


async def test_a_german_player_reads_the_daily_share_boards_and_stats_in_german(world, locales):
    locales.speak(world.alice, "de")
    first = await world.alice.slash(world.channel, "scoundrel daily")
    assert first.ephemeral
    await play_to_end(world.alice, first.response)
    record = await world.store.daily_attempt(world.alice.id, 1)

    # A second try is refused in German, and offers practice and the share as German buttons.
    again = await world.alice.slash(world.channel, "scoundrel daily")
    refusal = again.response.content
    assert refusal.startswith(DE("You have already played Daily #{day} ({result}): only the first attempt counts.",
                                 day=1, result=DE("score {score}", score=record.score)))
    assert refusal.startswith("Du hast das Tagesspiel #1 schon gespielt") and "Übung" in refusal
    assert labels(again.response.message) == ["Zur Übung nochmal", "Ergebnis teilen"]

    # The shared result is public and written in the sharer's language; it still names no card.
    await world.alice.click(again.response.message, custom_id=custom_id(again.response.message, "sc:dshare:"))
    shared = world.channel.last_message.content
    assert shared == DE("{player}'s {result}", player="**alice**",
                        result=share_text(1, record.state, None, 1, DE) + "\n-# " + DE(SHARE_LEGEND))
    assert shared.endswith("🟩 kein Schaden · 🟨 bis 5 · 🟧 bis 10 · 🟥 mehr · ⏭️ gemieden · 🏆 geschafft · "
                           "💀 gestorben")
    assert [b.label for b in world.channel.last_message.components[0].children] == ["Heutiges Tagesspiel starten"]
    assert shared.startswith("**alice**: Scoundrel-Tagesspiel #1: ") and " Punkte in " in shared

    board = (await world.alice.slash(world.channel, "scoundrel leaderboard")).response.embeds[0]
    assert board.title == "🏆 " + DE("Daily #{day} — this server", day=1) == "🏆 Tagesspiel #1 — dieser Server"
    assert board.description.startswith(DE("Best score first; ties go to the earlier finish. Ends {when}.",
                                           when=ends(1)))
    assert f"**{record.score}** ({DE('died') if record.state.status == 'dead' else DE('cleared')})" in \
        board.description
    assert board.footer.text == DE("you: #{place} of {players}", place=1, players=1) == "du: Platz 1 von 1"

    stats = (await world.alice.slash(world.channel, "scoundrel stats")).response.embeds[0]
    assert stats.title == "📊 Scoundrel von alice"
    lines = stats.description.split("\n")
    assert lines[0].startswith("🎲 **1 Spiel** (klassisch) · 🏆 ")  # the preset named in the reader's words
    assert lines[2] == DE("🔥 Daily streak **{current}** · longest {longest}", current=1, longest=1)
    assert lines[2].startswith("🔥 Tagesserie")
    assert stats.footer.text == DE("Every server · practice never counts · streaks in UTC days")

    offered = await world.alice.autocomplete(world.channel, "scoundrel leaderboard", "day", "")
    assert offered == [{"name": "Tagesspiel #1 — Do. 01 Jan. 2026 (heute)", "value": 1}]

    # Bob's client is in English: the same board reads English for him.
    english = (await world.bob.slash(world.channel, "scoundrel leaderboard")).response.embeds[0]
    assert english.title == "🏆 Daily #1 — this server" and english.footer.text == "you: not on this board yet"


async def test_a_french_admin_sets_the_daily_in_french_with_a_discord_timestamp(world, locales):
    role = world.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    admin = world.guild.add_member(world.env.create_user("admin"), roles=[role])
    locales.speak(admin, "fr")
    daily = world.guild.create_text_channel("daily")

    bad = await admin.slash(world.channel, "scoundrel-admin daily", channel=daily, time="25:00")
    assert bad.ephemeral and bad.response.content == FR("{problem} Nothing was changed.", problem=FR(
        "`{text}` is not a time of day: hours go 00–23 and minutes 00–59.", text="25:00"))
    assert bad.response.content.endswith("Rien n'a été modifié.")
    assert not (await world.store.get_guild_settings(world.guild.id)).daily_scheduled

    done = await admin.slash(world.channel, "scoundrel-admin daily", channel=daily, time="09:30")
    next_post = datetime(2026, 1, 1, 9, 30, tzinfo=UTC)
    assert done.ephemeral and done.response.content.split("\n") == [
        FR("The daily challenge will be posted in {channel} every day at {time} UTC.", channel=daily.mention,
           time="09:30"),
        FR("Next post: Daily #{day}, {relative} ({moment} your time).", day=1,
           relative=discord.utils.format_dt(next_post, "R"), moment=discord.utils.format_dt(next_post, "f"))]
    assert done.response.content.startswith(f"Le défi du jour sera publié dans {daily.mention} chaque jour à 09:30")
    assert f"<t:{int(next_post.timestamp())}:R>" in done.response.content and "Prochaine publication" in \
        done.response.content

    off = await admin.slash(world.channel, "scoundrel-admin daily-off")
    assert off.response.content == "La publication quotidienne est désactivée. `/scoundrel quotidien` permet " \
                                   "toujours de jouer le défi du jour."


async def test_the_post_follows_the_servers_language_and_each_player_keeps_their_own(simcord_env, locales):
    env = simcord_env
    guild = env.create_guild("Verlies", preferred_locale="de")
    lobby, daily = guild.create_text_channel("lobby"), guild.create_text_channel("daily")
    admin = guild.add_member(env.create_user("admin"), roles=[
        guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))])
    carol = guild.add_member(env.create_user("carol"))  # her client is in English
    players = guild.create_role("Tagesspieler", mentionable=True)

    set_up = await admin.slash(lobby, "scoundrel-admin daily", channel=daily, time="09:30", role=players)
    assert set_up.response.content.startswith("The daily challenge will be posted in ")  # the admin's English
    await env.advance_time(10 * HOUR)
    [post] = [m for m in daily.history() if m.embeds]
    assert post.content == f"<@&{players.id}>"  # the ping line is the role alone
    embed = post.embeds[0]
    assert embed.title == DE("🗝️ Scoundrel Daily #{day}", day=1) == "🗝️ Scoundrel-Tagesspiel #1"
    assert embed.description.startswith("Das heutige Verlies: dieselben Karten für alle")
    assert labels(post) == [DE("Play today's daily")] == ["Heutiges Tagesspiel starten"]

    # Carol plays from the German post; what answers her privately is in her own language, English.
    played = await carol.click(post, label="Heutiges Tagesspiel starten")
    assert played.ephemeral and "Tagesspiel" not in str(played.response.message.embeds[0].to_dict())
    await play_to_end(carol, played.response)
    score = (await env.bot.store.daily_attempt(carol.id, 1)).score
    counted = next(m for m in daily.history() if m.id == post.id).embeds[0].description  # the post counts her
    assert counted.endswith("\n👥 **1** Spieler hier hat heute gespielt.")
    again = await carol.click(post, label="Heutiges Tagesspiel starten")
    assert again.response.content.startswith(ENGLISH(
        "You have already played Daily #{day} ({result}): only the first attempt counts.", day=1,
        result=f"score {score}"))
    assert labels(again.response.message) == ["Replay as practice", "Share result"]

    # The next day's post, still German: yesterday's best and the revealed seed with the German command.
    await env.advance_time(24 * HOUR)
    post = [m for m in daily.history() if m.embeds][-1]
    fields = {f.name: f.value for f in post.embeds[0].fields}
    best = fields[DE("Yesterday's best here (Daily #{day})", day=1)]
    grid = "".join(room_marks((await env.bot.store.daily_attempt(carol.id, 1)).state))  # no words: the same grid
    assert best == f"🥇 **carol** {score} {grid}"
    seed = seed_to_text(daily_seed(await env.bot.store.daily_secret(), 1))
    assert fields["Seed des Tagesspiels #1 aufgedeckt"] == \
        f"Nachspielen mit `/scoundrel spielen seed:{seed}`"


def test_the_best_possible_answer_and_its_line_read_in_the_players_language():
    assert par_summary(12, 12, DE) == ("Bestmöglich mit allen Karten im Blick: 12 (gewinnbar) — du hast 12 erreicht, "
                                       "ein perfektes Spiel!")
    assert par_summary(-3, -9, FR) == FR("Best possible seeing every card: {best} (not winnable: the best is to die "
                                         "late)", best=-3) + " — " + FR("you scored {score}.", score=-9)
    state, actions = new_game(CLASSIC, seed=4), []
    while not state.over:
        actions.append(legal_actions(state)[0])
        state = apply(state, actions[-1])
    german = line_text(CLASSIC, state.start_deck, actions, tr=DE)
    english = line_text(CLASSIC, state.start_deck, actions)
    assert len(german) == len(english) and german[-1].endswith(f" Punkte: {state.score}.")
    assert all(line.endswith(".") and " Leben: " in line for line in german[:-1])
    assert english[-1].endswith(f" Score: {state.score}.") and " Health: " in english[0]


async def test_a_finished_dailys_par_is_in_its_text_in_the_players_language(world, locales):
    from cogs.game_message.view import render_game

    locales.speak(world.alice, "de")
    daily = await world.alice.slash(world.channel, "scoundrel daily")
    await play_to_end(world.alice, daily.response)
    record = await world.store.daily_attempt(world.alice.id, 1)
    record = await world.store.get_game(record.id)
    german, buttons_de = render_game(record, par=17, tr=messages_for("de"), bot=world.bot)
    english, _ = render_game(record, par=17)
    assert " gespielt · Par 17, " in german.description.split("\n")[-1]
    assert " played · par 17, " in english.description
    assert [getattr(b, "item", b).label for b in buttons_de.children] == \
        ["Neues Spiel", "Ergebnis teilen", "Wiederholung"]
