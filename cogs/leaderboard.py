"""``/scoundrel leaderboard`` and ``/scoundrel stats`` (an extension).

Boards hold counted results only (practice replays never reach them). A server board holds only the results
played in that server; the global board holds every server's. Days are UTC daily numbers (``bot/daily.py``).
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot import clock
from bot.daily import day_date, day_end, day_of, streaks
from cogs.bounds import PUBLIC_POSTS
from cogs.group import add_subcommands, remove_subcommands
from storage.models import WON

BOARD_SIZE = 10
MAX_DAY = 99_999  # Daily #99,999 is in the 23rd century
WEEK_DAYS = 7
NO_MENTIONS = discord.AllowedMentions.none()

Board = Literal["daily", "week", "all-time"]
Scope = Literal["server", "global"]


def _place(rank: int) -> str:
    return {1: "🥇", 2: "🥈", 3: "🥉"}.get(rank, f"`{rank:>2}.`")


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def _average(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


def outcome(status: str, ended_by: str | None) -> str:
    """How a counted daily ended, in a word or two: forfeits are marked, never passed off as deaths."""
    if ended_by == "expired":
        return "⌛ time ran out"
    if ended_by == "abandoned":
        return "🏳️ gave up"
    return "cleared" if status == WON else "died"


def daily_lines(entries) -> list[str]:
    return [f"{_place(e.rank)} <@{e.user_id}> — **{e.score}** ({outcome(e.status, e.ended_by)})"
            + (f", finished {discord.utils.format_dt(e.ended_at, 'R')}" if e.ended_at is not None else "")
            for e in entries]


def week_lines(entries) -> list[str]:
    return [f"{_place(e.rank)} <@{e.user_id}> — **{e.total}** over {_plural(e.days, 'day')}"
            f" ({e.wins} won, best {e.best}" + (f", {e.forfeits} forfeited" if e.forfeits else "") + ")"
            for e in entries]


def all_time_lines(entries) -> list[str]:
    return [f"{_place(e.rank)} <@{e.user_id}> — **{_plural(e.wins, 'win')}** in {_plural(e.games, 'game')},"
            f" best {e.best if e.best is not None else '—'}, average {_average(e.average)}" for e in entries]


async def board_embed(store, board: str, guild_id: int | None, day: int, today: int,
                      user_id: int | None = None) -> discord.Embed:
    """The ``board`` for daily ``day`` (the week ending at it); ``today`` tells a running day from a past one.
    With ``user_id``, the footer gives that player's own place, on the board's top 10 or not."""
    where = "this server" if guild_id is not None else "every server"
    if board == "daily":
        entries = await store.leaderboard_daily(day, guild_id, BOARD_SIZE)
        title = f"Daily #{day} — {where}"
        verb = "Ends" if day == today else "Ended"
        intro = (f"Best score first; ties go to the earlier finish. "
                 f"{verb} {discord.utils.format_dt(day_end(day), 'R')}.")
        lines = daily_lines(entries)
    elif board == "week":
        entries = await store.leaderboard_week(day, guild_id, BOARD_SIZE)
        first = max(1, day - WEEK_DAYS + 1)
        title = f"Week of Daily #{first}–#{day} — {where}"
        intro = "Each player's daily scores added up: every day counts."
        lines = week_lines(entries)
    else:
        entries = await store.leaderboard_all_time(guild_id, BOARD_SIZE, dailies_only=True)
        title = f"All time — {where}"
        intro = "Counted dailies only: most wins, then best score, then average score."
        lines = all_time_lines(entries)
    body = "\n".join(lines) if lines else "No results yet — `/scoundrel daily` to get on the board."
    embed = discord.Embed(title=f"🏆 {title}", description=f"{intro}\n\n{body}", colour=discord.Colour.gold())
    if user_id is not None:
        embed.set_footer(text=own_place(await store.leaderboard_rank(board, user_id, day, guild_id)))
    return embed


def own_place(rank: tuple[int, int] | None) -> str:
    if rank is None:
        return "you: not on this board yet"
    place, players = rank
    return f"you: #{place} of {players}"


@app_commands.command(name="leaderboard", description="The best daily players, in this server or everywhere")
@app_commands.describe(board="Today's daily, the last 7 dailies, or all time", scope="This server, or every server",
                       day="An earlier daily's number (default: today's)")
@app_commands.checks.cooldown(**PUBLIC_POSTS)
async def leaderboard(interaction: discord.Interaction, board: Board = "daily", scope: Scope = "server",
                      day: app_commands.Range[int, 1, MAX_DAY] | None = None) -> None:
    today = day_of(clock.now())
    if day is not None and day > today:
        await interaction.response.send_message(
            f"Daily #{day} hasn't happened yet: today is Daily #{today}.", ephemeral=True)
        return
    guild_id = interaction.guild_id if scope == "server" else None
    note = ""
    if scope == "server" and guild_id is None:
        note = "Outside a server there is no server board; here is the global one."
    embed = await board_embed(interaction.client.store, board, guild_id, day or today, today, interaction.user.id)
    await interaction.response.send_message(note, embed=embed, allowed_mentions=NO_MENTIONS)


@leaderboard.autocomplete("day")
async def day_suggestions(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """Recent daily numbers with their dates, newest first; typing digits narrows them."""
    today = day_of(clock.now())
    typed = current.strip().lstrip("#")
    days = [d for d in range(today, max(0, today - 90), -1) if str(d).startswith(typed)][:25]
    return [app_commands.Choice(name=f"Daily #{d} — {day_date(d):%a %d %b %Y}" + (" (today)" if d == today else ""),
                                value=d) for d in days]


def _rate(wins: int, games: int) -> str:
    return f"{100 * wins / games:.0f}%" if games else "—"


def _best(value: int | None) -> str:
    return "—" if value is None else str(value)


async def stats_embed(store, user: discord.abc.User, today: int) -> discord.Embed:
    """A player's record as a few short lines (a phone shows it whole): totals, daily streak, counted dailies,
    and one line per ruleset when more than one was played."""
    stats = await store.user_stats(user.id)
    current, longest = streaks(await store.daily_days(user.id), today)
    only = f" ({stats.by_rules[0].rules_name})" if len(stats.by_rules) == 1 else ""
    won = f"{stats.wins}** won ({_rate(stats.wins, stats.games)})"
    lines = [f"🎲 **{_plural(stats.games, 'game')}**{only} · 🏆 **{won}",
             f"⭐ Best **{_best(stats.best)}** · average {_average(stats.average)}",
             f"🔥 Daily streak **{current}** · longest {longest}"]
    if stats.dailies is not None:
        d = stats.dailies
        lines.append(f"🗓️ **{_plural(d.games, 'daily', 'dailies')}** counted · {d.wins} won · best {_best(d.best)}")
    if len(stats.by_rules) > 1:
        lines += [f"`{r.rules_name}` {_plural(r.games, 'game')} · {r.wins} won · best {_best(r.best)}"
                  for r in stats.by_rules[:6]]
    embed = discord.Embed(title=f"📊 {user.display_name}'s Scoundrel", colour=discord.Colour.blurple(),
                          description="\n".join(lines))
    embed.set_footer(text="Every server · practice never counts · streaks in UTC days")
    return embed


@app_commands.command(name="stats", description="Games, wins, scores and daily streaks of a player")
@app_commands.describe(user="Whose stats (default: yours)")
@app_commands.checks.cooldown(**PUBLIC_POSTS)
async def stats(interaction: discord.Interaction, user: discord.User | None = None) -> None:
    embed = await stats_embed(interaction.client.store, user or interaction.user, day_of(clock.now()))
    await interaction.response.send_message(embed=embed, allowed_mentions=NO_MENTIONS)


COMMANDS = (leaderboard, stats)


async def setup(bot) -> None:
    add_subcommands(*COMMANDS)


async def teardown(bot) -> None:
    remove_subcommands(*COMMANDS)
