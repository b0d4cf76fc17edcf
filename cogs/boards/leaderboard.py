"""``/scoundrel leaderboard`` and ``/scoundrel stats`` (an extension): the boards and a player's record in words.

Which board a request means, its entries and the player's place, and a player's stats are
``app.players.boards``'s; the boards of several days (week, month, all time) rank points and say so in one line.
"""

from __future__ import annotations

from typing import Literal

import discord
from babel.dates import format_date
from babel.numbers import format_decimal
from discord import app_commands

from app.challenges import play as challenges
from app.daily.days import day_date, day_end, day_of, month_of
from app.errors import BoardRefused
from app.players import boards
from app.players.boards import BoardRequest
from app.records import WON
from cogs.boards.posting import show_board
from cogs.commands.group import add_subcommands, remove_subcommands
from cogs.game_message.embed import preset_name
from cogs.plumbing import clock
from cogs.plumbing.interaction import Interaction
from cogs.text.command_text import slash
from cogs.text.locale import for_reader
from cogs.text.names import month_name, player
from games.engine import DAY_FLOOR
from games.i18n import ENGLISH, Messages

MAX_DAY = 99_999  # Daily #99,999 is in the 23rd century
MAX_MONTH = 3_000  # Month #1 is January 2026 (app.daily.days.month_of)

Board = Literal["daily", "week", "month", "all-time"]
Scope = Literal["server", "global"]


def _place(rank: int) -> str:
    return {1: "🥇", 2: "🥈", 3: "🥉"}.get(rank, f"`{rank:>2}.`")


def _average(value: float | None, tr: Messages = ENGLISH) -> str:
    """One decimal, with the reader's decimal separator (``12,5`` in German)."""
    return "—" if value is None else format_decimal(round(value, 1), "0.0", locale=tr.locale.replace("-", "_"))


def _best(value: int | None) -> str:
    return "—" if value is None else str(value)


def outcome(status: str, ended_by: str | None, tr: Messages = ENGLISH) -> str:
    """How a counted daily ended, in a word or two: forfeits are marked, never passed off as deaths."""
    if ended_by == "expired":
        return tr("⌛ time ran out")
    if ended_by == "abandoned":
        return tr("🏳️ gave up")
    return tr("cleared") if status == WON else tr("died")


def daily_lines(entries, tr: Messages = ENGLISH, names: dict[int, str] | None = None) -> list[str]:
    lines = []
    for e in entries:
        fields = dict(place=_place(e.rank), player=player(e.user_id, names), score=e.score,
                      outcome=outcome(e.status, e.ended_by, tr))
        if e.ended_at is None:
            lines.append("{place} {player} — **{score}** ({outcome})".format(**fields))
        else:
            lines.append(tr("{place} {player} — **{score}** ({outcome}), finished {when}",
                            when=discord.utils.format_dt(e.ended_at, 'R'), **fields))
    return lines


def points_rule(tr: Messages = ENGLISH) -> str:
    """How the boards of several days rank, in one line: a day's points (``games.engine.tally.day_points``)."""
    return tr("Points: each day's score + {floor} (never below 0): every day played adds.", floor=-DAY_FLOOR)


def points_line(tr: Messages, place: str, player: str, points: int, days: int, wins: int, best: int | None,
                forfeits: int = 0) -> str:
    """One player on a board of several days: points, days played, wins, best score (and forfeits, if any)."""
    fields = dict(place=place, player=player, points=points, wins=wins, best=_best(best))
    if forfeits:
        return tr.plural("{place} {player} — **{points}** pts over {n} day ({wins} won, best {best}, "
                         "{forfeits} forfeited)",
                         "{place} {player} — **{points}** pts over {n} days ({wins} won, best {best}, "
                         "{forfeits} forfeited)", days, forfeits=forfeits, **fields)
    return tr.plural("{place} {player} — **{points}** pts over {n} day ({wins} won, best {best})",
                     "{place} {player} — **{points}** pts over {n} days ({wins} won, best {best})", days, **fields)


def week_lines(entries, tr: Messages = ENGLISH, names: dict[int, str] | None = None) -> list[str]:
    """The week's or the month's entries."""
    return [points_line(tr, _place(e.rank), player(e.user_id, names), e.points, e.days, e.wins, e.best, e.forfeits)
            for e in entries]


def all_time_lines(entries, tr: Messages = ENGLISH, names: dict[int, str] | None = None) -> list[str]:
    """The all-time daily board's entries: each counted daily is a day."""
    return [points_line(tr, _place(e.rank), player(e.user_id, names), e.points, e.games, e.wins, e.best)
            for e in entries]


def board_title(request: BoardRequest, tr: Messages = ENGLISH) -> str:
    board, server, day = request.board, request.guild_id is not None, request.day
    if board == "daily":
        return (tr("Daily #{day} — this server", day=day) if server else
                tr("Daily #{day} — every server", day=day))
    if board == "week":
        first = request.first_day
        return (tr("Week of Daily #{first}–#{day} — this server", first=first, day=day) if server else
                tr("Week of Daily #{first}–#{day} — every server", first=first, day=day))
    if board == "month":
        name = month_name(tr, request.month)
        name = name[:1].upper() + name[1:]  # a title: "Novembre 2026", though French writes months in lower case
        return (tr("{month} — this server", month=name) if server else
                tr("{month} — every server", month=name))
    return tr("All time — this server") if server else tr("All time — every server")


def board_embed(shown: boards.Board, tr: Messages = ENGLISH, *, own: bool = True) -> discord.Embed:
    """The board as an embed in ``tr``'s language (whoever asked for it); a running day's board says when it ends,
    a past one's when it ended. With ``own``, the footer gives the asking player's place, on the top 10 or not."""
    request, entries, names = shown.request, shown.entries, shown.names
    if request.board == "daily":
        when = discord.utils.format_dt(day_end(request.day), 'R')
        intro = (tr("Best score first; ties go to the earlier finish. Ends {when}.", when=when)
                 if request.day == request.today else
                 tr("Best score first; ties go to the earlier finish. Ended {when}.", when=when))
        lines = daily_lines(entries, tr, names)
    elif request.board in ("week", "month"):
        intro, lines = points_rule(tr), week_lines(entries, tr, names)
    else:
        intro, lines = points_rule(tr), all_time_lines(entries, tr, names)
    body = "\n".join(lines) if lines else tr("No results yet — `{command}` to get on the board.",
                                             command=slash(tr, "daily"))
    embed = discord.Embed(title=f"🏆 {board_title(request, tr)}", description=f"{intro}\n\n{body}",
                          colour=discord.Colour.gold())
    if own:
        embed.set_footer(text=own_place(shown.rank, tr))
    return embed


def own_place(rank: tuple[int, int] | None, tr: Messages = ENGLISH) -> str:
    if rank is None:
        return tr("you: not on this board yet")
    place, players = rank
    return tr("you: #{place} of {players}", place=place, players=players)


@app_commands.command(name="leaderboard", description="The best daily players, in this server or everywhere")
@app_commands.describe(board="Today's daily, the last 7 dailies, this month, or all time",
                       scope="This server, or every server", day="An earlier daily's number (default: today's)",
                       month="An earlier month, for the month board (default: this month)")
async def leaderboard(interaction: Interaction, board: Board = "daily", scope: Scope = "server",
                      day: app_commands.Range[int, 1, MAX_DAY] | None = None,
                      month: app_commands.Range[int, 1, MAX_MONTH] | None = None) -> None:
    tr = for_reader(interaction)
    try:
        request = boards.which_board(board, day_of(clock.now()), day=day, month=month, server=scope == "server",
                                     guild_id=interaction.guild_id)
    except BoardRefused as refused:
        await interaction.response.send_message(
            tr("Daily #{day} hasn't happened yet: today is Daily #{today}.", day=refused.asked, today=refused.today)
            if refused.code == boards.FUTURE_DAY else
            tr("{month} hasn't happened yet.", month=month_name(tr, refused.asked)), ephemeral=True)
        return
    note = tr("Outside a server there is no server board; here is the global one.") if request.global_instead else ""
    embed = board_embed(await boards.board_for(interaction.client.store, request, interaction.user.id), tr)
    await show_board(interaction, tr, embed, note)  # public, or past the member's budget theirs alone


def _day_label(tr: Messages, day: int, today: int) -> str:
    """``Daily #3 — Sat 03 Jan 2026 (today)``, the date in the reader's language."""
    date = format_date(day_date(day), "EEE dd MMM y", locale=tr.locale.replace("-", "_"))
    if day == today:
        return tr("Daily #{day} — {date} (today)", day=day, date=date)
    return tr("Daily #{day} — {date}", day=day, date=date)


@leaderboard.autocomplete("day")
async def day_suggestions(interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
    """Recent daily numbers with their dates, newest first; typing digits narrows them."""
    tr = for_reader(interaction)
    today = day_of(clock.now())
    return [app_commands.Choice(name=_day_label(tr, d, today), value=d) for d in boards.recent_days(today, current)]


@leaderboard.autocomplete("month")
async def month_suggestions(interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
    """This month and the ones before it, by name, newest first; typing digits narrows them by number."""
    tr = for_reader(interaction)
    today = day_of(clock.now())
    this, months = month_of(today), boards.recent_months(today, current)
    return [app_commands.Choice(name=tr("{month} (this month)", month=month_name(tr, m)) if m == this else
                                month_name(tr, m), value=m) for m in months]


def _rate(wins: int, games: int) -> str:
    return f"{100 * wins / games:.0f}%" if games else "—"


async def stats_embed(store, user: discord.abc.User, today: int, tr: Messages = ENGLISH) -> discord.Embed:
    """A player's record as a few short lines (a phone shows it whole): totals, daily streak, counted dailies,
    and one line per ruleset when more than one was played. In ``tr``'s language (whoever asked)."""
    stats, current, longest = await boards.player_stats(store, user.id, today)
    only = f" ({preset_name(stats.by_rules[0].rules_name, tr)})" if len(stats.by_rules) == 1 else ""
    lines = [tr.plural("🎲 **{n} game**{only} · 🏆 **{wins}** won ({rate})",
                       "🎲 **{n} games**{only} · 🏆 **{wins}** won ({rate})", stats.games,
                       only=only, wins=stats.wins, rate=_rate(stats.wins, stats.games)),
             tr("⭐ Best **{best}** · average {average}", best=_best(stats.best), average=_average(stats.average, tr)),
             tr("🔥 Daily streak **{current}** · longest {longest}", current=current, longest=longest)]
    if stats.dailies is not None:
        d = stats.dailies
        lines.append(tr.plural("🗓️ **{n} daily** counted · {wins} won · best {best}",
                               "🗓️ **{n} dailies** counted · {wins} won · best {best}", d.games,
                               wins=d.wins, best=_best(d.best)))
    played, first = await challenges.played(store, user.id)
    if played:
        lines.append(tr.plural("⚔️ **{n} challenge** played · {won} won", "⚔️ **{n} challenges** played · {won} won",
                               played, won=first))
    if len(stats.by_rules) > 1:
        for r in stats.by_rules[:6]:
            name = preset_name(r.rules_name, tr)  # (apart: a call among the arguments hides the plural from Babel)
            lines.append(tr.plural("`{rules}` {n} game · {wins} won · best {best}",
                                   "`{rules}` {n} games · {wins} won · best {best}", r.games,
                                   rules=name, wins=r.wins, best=_best(r.best)))
    embed = discord.Embed(title=tr("📊 {name}'s Scoundrel", name=user.display_name), colour=discord.Colour.blurple(),
                          description="\n".join(lines))
    embed.set_footer(text=tr("Every server · practice never counts · streaks in UTC days"))
    return embed


@app_commands.command(name="stats", description="Games, wins, scores and daily streaks of a player")
@app_commands.describe(user="Whose stats (default: yours)")
async def stats(interaction: Interaction, user: discord.User | None = None) -> None:
    tr = for_reader(interaction)
    embed = await stats_embed(interaction.client.store, user or interaction.user, day_of(clock.now()), tr)
    await show_board(interaction, tr, embed)


COMMANDS: tuple[app_commands.Command, ...] = (leaderboard, stats)


async def setup(bot) -> None:
    add_subcommands(*COMMANDS)


async def teardown(bot) -> None:
    remove_subcommands(*COMMANDS)
