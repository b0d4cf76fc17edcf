"""The server's day at a glance, as the daily post shows it (a helper module of cogs/daily/post.py).

While a day runs its post says how many members here have played it, and nothing more (no score, no grid: those
would tell players still on the deal what to expect). The next day's post shows the day's results here as the
players' share rows — the same colour grid as Share, spoiler-free once the day is over — best first, the top
ten and "and N more", short enough for a phone. On the first post of a month it names last month's top three.
"""

from __future__ import annotations

import logging

import discord

from app.daily.days import month_days, month_of, room_marks
from cogs.boards.leaderboard import month_name, player
from cogs.text.embed_fields import FIELD_LIMIT
from games.i18n import ENGLISH, Messages

log = logging.getLogger(__name__)

RESULTS_SHOWN = 10
CHAMPIONS = 3
MEDALS = ("🥇", "🥈", "🥉")
FORFEIT_MARKS = {"expired": "⌛", "abandoned": "🏳️"}  # after the grid of an attempt that did not end in play


def place(rank: int) -> str:
    return MEDALS[rank - 1] if rank <= len(MEDALS) else f"{rank}."


def played_line(tr: Messages, count: int) -> str:
    return tr.plural("👥 **{n}** player here has played today.", "👥 **{n}** players here have played today.",
                     count)


async def result_row(store, entry, names: dict[int, str]) -> str:
    """``🥇 **alice** -12 🟩🟨🟩⏭️🏆``: the player's place, name, score and share grid (no card is ever named)."""
    record = await store.get_game(entry.game_id)
    grid = "" if record.damaged else "".join(room_marks(record.state))
    return (f"{place(entry.rank)} {player(entry.user_id, names)} {entry.score} {grid}"
            f"{FORFEIT_MARKS.get(entry.ended_by, '')}")


async def results_value(store, guild_id: int, day: int, tr: Messages = ENGLISH) -> str:
    """Daily ``day``'s results in one server, as share rows: the top ten, then "and N more"."""
    top = await store.leaderboard_daily(day, guild_id, RESULTS_SHOWN)
    if not top:
        return tr("Nobody here finished it.")
    # The names kept with the results: a mention in an embed shows as a raw id to a reader whose client has not
    # met that member, and a name is shorter on a phone.
    names = await store.names_for([entry.user_id for entry in top], day)
    rows = [await result_row(store, entry, names) for entry in top]
    players = await store.daily_players(day, guild_id)
    while True:
        more = players - len(rows)
        tail = [tr.plural("…and {n} more", "…and {n} more", more)] if more > 0 else []
        text = "\n".join(rows + tail)
        if len(text) <= FIELD_LIMIT or len(rows) == 1:
            return text[:FIELD_LIMIT]
        rows.pop()


async def champions_field(store, guild_id: int, day: int, tr: Messages = ENGLISH) -> tuple[str, str] | None:
    """On the first day of a month: (name, value) naming last month's top three here, or None."""
    month = month_of(day)
    if month <= 1 or month_days(month)[0] != day:
        return None
    top = await store.leaderboard_month(month - 1, guild_id, CHAMPIONS)
    if not top:
        return None
    names = await store.names_for([e.user_id for e in top])
    return (tr("🏆 {month}'s champions here", month=month_name(tr, month - 1)),
            " · ".join(tr("{place} {player} {points} pts", place=place(e.rank), player=player(e.user_id, names),
                          points=e.points) for e in top))


async def add_day_glance(embed: discord.Embed, store, guild_id: int, day: int, tr: Messages = ENGLISH,
                         played: int | None = None) -> int:
    """Add last month's champions (on a month's first post) and today's running count to a daily post's embed;
    returns the count shown (``played``, or read now)."""
    champions = await champions_field(store, guild_id, day, tr)
    if champions is not None:
        embed.insert_field_at(0, name=champions[0], value=champions[1], inline=False)
    if played is None:
        played = await store.daily_players(day, guild_id)
    if played:
        embed.description = f"{embed.description}\n{played_line(tr, played)}"
    return played
