"""A challenge in a channel through SimCord: the real bot, a SQLite file, virtual time.

Ten players join and play one deal, each in a game only they see; the one message keeps the standings as they
go, without a card; the close posts the final standings once, with par and the coach's score (really solved);
a late join, a double join, a restart mid-challenge, the starter closing it, a member who left.
"""

from __future__ import annotations

import pytest

from app.solver.worker import coach_score, solve_par
from cogs.challenge.keeper import StandingsKeeper
from tests.daily.helpers import click_code, play_to_end
from tests.discord.harness import button, click_on_snapshot, make_bot, private_notes, snapshot

SEED = "K7Q2-M9XD"


def keeper(world) -> StandingsKeeper:
    found = world.bot.get_cog("StandingsKeeper")
    assert isinstance(found, StandingsKeeper)
    return found


async def start(world, actor=None, **options):
    result = await (actor or world.alice).slash(world.channel, "scoundrel challenge", **options)
    assert result.acknowledged and not result.ephemeral, private_notes(result)
    return result.response.message


def current(world, message):
    """The challenge's message as the channel shows it now."""
    return next(m for m in world.channel.history() if m.id == message.id)


def standings(world, message) -> str:
    embed = current(world, message).embeds[0]
    return next(f.value for f in embed.fields if f.name == "Standings")


async def join(actor, message):
    result = await actor.click(message, custom_id=button(message, "Join").custom_id)
    assert result.ephemeral  # nobody else sees the game
    return result


@pytest.mark.simcord(settle_timeout=240)  # par and the coach's play are really worked out (20 s idle, more loaded)
async def test_ten_players_join_and_play_and_the_close_posts_the_final_standings_once(world):
    await world.env.bot.close()
    await world.env.restart_bot(make_bot(world.database, par_solver=solve_par, coach_player=coach_score))
    players = [world.alice, world.bob] + [world.guild.add_member(world.env.create_user(f"p{n}")) for n in range(8)]
    # The longest a challenge runs: ten joins while par and the coach are worked out beside them must all come in
    # before its close, however long the loaded machine takes over them.
    invite = await start(world, seed=SEED, minutes=60)
    assert "Nobody has joined yet" in standings(world, invite)
    games = [await join(actor, invite) for actor in players]
    records = [await world.store.active_game(a.id) for a in players]
    assert all(r is None for r in records)  # a challenge's game is not the normal game in progress
    ids = {g.response.message.id for g in games}
    assert len(ids) == 10
    # Some go into the dungeon: the standings follow, within a few seconds, showing rooms and health only.
    await click_code(world.alice, games[0].response, "A")  # alice avoids room 1: room 2
    for actor, game in list(zip(players, games, strict=True))[8:]:
        await play_to_end(actor, game.response)
    await world.env.advance_time(4)
    shown = standings(world, invite)
    assert "**alice** — room 2, ❤️ 20" in shown and "**bob** — room 1, ❤️ 20" in shown
    assert shown.count("score") == 2  # the two finished games, placed
    assert "1. " in shown and "♠" not in shown and "♥" not in shown  # no card anywhere
    edits = keeper(world).watched[next(iter(keeper(world).watched))].edits
    await world.env.advance_time(6)
    assert keeper(world).watched[next(iter(keeper(world).watched))].edits == edits  # nothing changed: no edit
    # Time is up: the games still played end, and the final standings come out once, with par and the coach.
    await world.env.advance_time(60 * 60)
    for _ in range(60):
        if keeper(world).finals:
            break
        await world.env.advance_time(1)
    final = current(world, invite).embeds[0]
    assert final.title.startswith("🏆")
    assert "Par on this deal: 30." in final.description and "scored" in final.description
    assert "`/scoundrel play seed:K7Q2-M9XD`" in final.description
    assert standings(world, invite).count("did not finish") == 8
    assert keeper(world).finals == 1
    await world.env.advance_time(30)
    assert keeper(world).finals == 1 and not keeper(world).watched
    # Each player's replay is one click away, in the menu of the final standings.
    menu = current(world, invite).components[0].children[0]
    assert len(menu.options) == 10
    replay = await world.bob.select(current(world, invite), [menu.options[0].value], custom_id=menu.custom_id)
    assert replay.acknowledged


async def test_a_late_join_is_refused_and_a_double_join_joins_once(world):
    invite = await start(world, minutes=2)
    first = await join(world.bob, invite)
    again = await join(world.bob, invite)
    assert "already" in private_notes(again)[0] or "already" in (again.response.content or "")
    assert again.response.message.embeds  # the same game, shown again
    assert len(await world.store.challenges.entrants(1)) == 1
    assert first.response.message.id != again.response.message.id
    seen = snapshot(world.alice, invite)  # the invite as alice's client still shows it
    await world.env.advance_time(2 * 60 + 5)
    late = await click_on_snapshot(world.alice, seen, button(invite, "Join").custom_id)
    assert "closed" in private_notes(late)[0]
    assert len(await world.store.challenges.entrants(1)) == 1


async def test_only_the_starter_closes_it_early(world):
    invite = await start(world, minutes=30)
    await join(world.bob, invite)
    refused = await world.bob.click(invite, custom_id=button(invite, "Close").custom_id)
    assert "Only the player who started" in private_notes(refused)[0]
    closed = await world.alice.click(invite, custom_id=button(invite, "Close").custom_id)
    assert "closed" in private_notes(closed)[0]
    await world.env.advance_time(3)
    assert current(world, invite).embeds[0].title.startswith("🏆")
    assert "did not finish" in standings(world, invite)
    assert keeper(world).finals == 1


async def test_one_running_challenge_per_player_in_a_server(world):
    first = await start(world, minutes=30)
    await join(world.bob, first)
    second = await start(world, actor=world.bob, minutes=30)
    refused = await world.bob.click(second, custom_id=button(second, "Join").custom_id)
    assert "already in a running challenge" in private_notes(refused)[0]
    again = await world.alice.slash(world.channel, "scoundrel challenge")
    assert again.ephemeral  # alice's own is still running


async def test_a_restart_mid_challenge_resumes_and_closes_on_time_once(world):
    invite = await start(world, minutes=3)
    game = await join(world.bob, invite)
    await click_code(world.bob, game.response, "A")
    await world.env.advance_time(3)
    assert "room 2" in standings(world, invite)
    await world.restart()
    await world.env.advance_time(3 * 60)
    for _ in range(10):
        await world.env.advance_time(1)
    assert current(world, invite).embeds[0].title.startswith("🏆")
    assert "did not finish (room 2)" in standings(world, invite)
    assert keeper(world).finals == 1
    await world.restart()  # closed for good: never written again
    await world.env.advance_time(10)
    assert keeper(world).finals == 0 and not keeper(world).watched


async def test_a_member_who_left_is_shown_as_gone(world):
    invite = await start(world, minutes=5)
    await join(world.bob, invite)
    world.guild.remove_member(world.bob)
    await world.alice.click(invite, custom_id=button(invite, "Close").custom_id)
    await world.env.advance_time(5)
    assert "bob (left the server)" in standings(world, invite)


async def test_where_the_bot_cannot_post_the_standings_go_through_the_freshest_token(world, monkeypatch):
    """A user install (a group DM, a server without the bot): the bot edits only through an interaction's token.
    SimCord has neither, so the place is declared one by the function that tells (``bot_can_post``)."""
    from cogs.challenge import buttons as challenge_buttons
    from cogs.challenge import commands as challenge_commands
    from cogs.challenge import keeper as keeper_module

    for module in (challenge_buttons, challenge_commands, keeper_module):
        monkeypatch.setattr(module, "bot_can_post", lambda interaction: False)
    invite = await start(world, minutes=30)
    assert keeper(world).watched[1].token is not None  # the command's own
    game = await world.bob.click(invite, custom_id=button(invite, "Join").custom_id)
    shown = game.followups[0]  # the click is deferred on the message; the game comes privately after
    assert shown.ephemeral and shown.embeds
    await world.env.advance_time(3)
    assert "**bob** — room 1, ❤️ 20" in standings(world, invite)
    await world.env.advance_time(15 * 60)  # every token has run out: the standings wait for the next click
    closed = await world.alice.click(current(world, invite), custom_id=button(invite, "Close").custom_id)
    assert "closed" in private_notes(closed)[0]
    await world.env.advance_time(3)
    assert current(world, invite).embeds[0].title.startswith("🏆")  # through the Close click's token
    assert keeper(world).finals == 1


async def test_stats_count_the_challenges_played_and_won(world):
    invite = await start(world, minutes=30)
    game = await join(world.bob, invite)
    await play_to_end(world.bob, game.response)
    await world.alice.click(invite, custom_id=button(invite, "Close").custom_id)
    await world.env.advance_time(3)
    stats = await world.bob.slash(world.channel, "scoundrel stats")
    assert "⚔️ **1 challenge** played · 1 won" in stats.response.embeds[0].description


@pytest.mark.simcord(settle_timeout=240)
async def test_a_replay_button_written_by_hand_gives_no_deal_away_while_it_runs(world):
    invite = await start(world, minutes=5)
    bob = await join(world.bob, invite)
    await play_to_end(world.bob, bob.response)
    [entry] = await world.store.challenges.entrants(1)
    finished = entry.game
    assert finished.status in ("won", "dead") and finished.challenge_id == 1
    forged = f"sc:replay:{finished.id}"  # the button a finished game would show, offered on the invite by hand
    for actor in (world.alice, world.bob):  # someone else, and its own player (everyone is still racing)
        asked = await click_on_snapshot(actor, snapshot(actor, invite), forged)
        assert "challenge still running" in private_notes(asked)[0]
