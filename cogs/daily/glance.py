"""The daily post's words: the day's challenge, yesterday's results and seed, the server's day at a glance.

The facts come from the application layer (app/daily/post_facts.py); this module only words them. While a day
runs its post says how many members here have played it, and nothing more (no score, no grid: those would tell
players still on the deal what to expect). The next day's post shows the day's results here as the players' share
rows — the same colour grid as Share, spoiler-free once the day is over — best first, the top ten and "and N
more", short enough for a phone, and reveals the day's seed with its par. On the first post of a month it names
last month's top three.
"""

from __future__ import annotations

import discord

from app.daily.days import day_end, month_of
from app.daily.post_facts import DayFacts, ResultRow, ServerFacts
from cogs.text.command_text import slash
from cogs.text.embed_fields import FIELD_LIMIT
from cogs.text.names import month_name, player
from games.i18n import ENGLISH, Messages

MEDALS = ("🥇", "🥈", "🥉")
FORFEIT_MARKS = {"expired": "⌛", "abandoned": "🏳️"}  # after the grid of an attempt that did not end in play


def par_text(par: int, tr: Messages = ENGLISH, coach: int | None = None) -> str:
    """Par, and beside it the coach's score when known: par sees every card, the coach only what a player sees."""
    if coach is None:
        return tr("Par {par} (winnable)", par=par) if par > 0 else tr("Par {par} (not winnable)", par=par)
    if par > 0:
        return tr("Par {par} seeing every card · coach {coach}", par=par, coach=coach)
    return tr("Par {par} seeing every card (not winnable) · coach {coach}", par=par, coach=coach)


def place(rank: int) -> str:
    return MEDALS[rank - 1] if rank <= len(MEDALS) else f"{rank}."


def played_line(tr: Messages, count: int) -> str:
    return tr.plural("👥 **{n}** player here has played today.", "👥 **{n}** players here have played today.",
                     count)


def result_row(row: ResultRow, names: dict[int, str]) -> str:
    """``🥇 **alice** -12 🟩🟨🟩⏭️🏆``: the player's place, name, score and share grid (no card is ever named)."""
    forfeit = FORFEIT_MARKS.get(row.ended_by, "") if row.ended_by else ""
    return f"{place(row.rank)} {player(row.user_id, names)} {row.score} {row.grid}{forfeit}"


def results_value(server: ServerFacts, tr: Messages = ENGLISH) -> str:
    """Yesterday's results in one server, as share rows: the top ten, then "and N more"."""
    if not server.results:
        return tr("Nobody here finished it.")
    # The names kept with the results: a mention in an embed shows as a raw id to a reader whose client has not
    # met that member, and a name is shorter on a phone.
    rows = [result_row(row, server.names) for row in server.results]
    while True:
        more = server.results_players - len(rows)
        tail = [tr.plural("…and {n} more", "…and {n} more", more)] if more > 0 else []
        text = "\n".join(rows + tail)
        if len(text) <= FIELD_LIMIT or len(rows) == 1:
            return text[:FIELD_LIMIT]
        rows.pop()


def champions_field(facts: DayFacts, server: ServerFacts, tr: Messages = ENGLISH) -> tuple[str, str] | None:
    """On the first day of a month: (name, value) naming last month's top three here, or None."""
    if not server.champions:
        return None
    names = server.champion_names
    return (tr("🏆 {month}'s champions here", month=month_name(tr, month_of(facts.day) - 1)),
            " · ".join(tr("{place} {player} {points} pts", place=place(c.rank), player=player(c.user_id, names),
                          points=c.points) for c in server.champions))


def post_embed(facts: DayFacts, server: ServerFacts, tr: Messages = ENGLISH) -> discord.Embed:
    """The embed of one server's post of ``facts.day``, in ``tr``'s language."""
    day = facts.day
    embed = discord.Embed(
        title=tr("🗝️ Scoundrel Daily #{day}", day=day),
        colour=discord.Colour.dark_gold(),
        description=tr("Today's dungeon: the same deal for everyone, on every server. Play it privately below; "
                       "only your first try counts.\nEnds {when}.",
                       when=discord.utils.format_dt(day_end(day), 'R')))
    # Today's par is not shown: it would tell players still on today's deal what they can reach. It comes with
    # the revealed seed in tomorrow's post, once no attempt at today's deal can change any more.
    yesterday = day - 1
    if facts.yesterday_seed is not None:
        embed.add_field(name=tr("Yesterday's best here (Daily #{day})", day=yesterday),
                        value=results_value(server, tr), inline=False)
        if facts.yesterday_par is not None:
            # The seed once, inside the command that replays it: a phone shows it on two lines, not three.
            reveal = tr("{par} — replay it with `{command}{seed}`", seed=facts.yesterday_seed,
                        par=par_text(facts.yesterday_par, tr, facts.yesterday_coach),
                        command=slash(tr, "play", "seed"))
        else:
            reveal = tr("Replay it with `{command}{seed}`", seed=facts.yesterday_seed,
                        command=slash(tr, "play", "seed"))
        embed.add_field(name=tr("Daily #{day}'s seed, now revealed", day=yesterday), value=reveal, inline=False)
    champions = champions_field(facts, server, tr)
    if champions is not None:
        embed.insert_field_at(0, name=champions[0], value=champions[1], inline=False)
    if server.played:
        embed.description = f"{embed.description}\n{played_line(tr, server.played)}"
    return embed
