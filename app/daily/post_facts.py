"""What a daily post says, as facts without words: the surface words them (cogs/daily/glance.py).

The day-wide facts (the day's deal recorded, yesterday's seed, par and the coach's score, whether a month just
began) are the same in every server: ``day_facts`` reads them once for a whole round of posts. ``server_facts``
reads what is the server's own: yesterday's results here, last month's champions here (on a month's first day)
and how many members here have played today.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.daily.days import month_days, month_of, room_marks
from app.daily.deal import day_seed, todays_challenge
from games.engine import seed_to_text
from storage.store import Store

RESULTS_SHOWN = 10
CHAMPIONS = 3


@dataclass(frozen=True, slots=True)
class DayFacts:
    day: int
    yesterday_seed: str | None  # None on Daily #1: there is no yesterday
    yesterday_par: int | None
    yesterday_coach: int | None
    month_begins: bool  # the first post of a month (from the second month on) names last month's champions


@dataclass(frozen=True, slots=True)
class ResultRow:
    rank: int
    user_id: int
    score: int | None
    grid: str  # one mark per room, no card named; "" for a damaged game
    ended_by: str | None  # how an attempt that did not end in play ended (expired, abandoned)


@dataclass(frozen=True, slots=True)
class Champion:
    rank: int
    user_id: int
    points: int


@dataclass(frozen=True, slots=True)
class ServerFacts:
    results: tuple[ResultRow, ...]  # yesterday's best here, at most RESULTS_SHOWN
    results_players: int  # how many here played yesterday
    champions: tuple[Champion, ...]  # last month's top here, on a month's first day
    names: dict[int, str]  # the names kept with yesterday's results
    champion_names: dict[int, str]  # the champions' latest kept names
    played: int  # how many here have played today


async def day_facts(store: Store, day: int) -> DayFacts:
    """The facts every server's post of ``day`` shares; records the day's deal before anyone can play it."""
    await todays_challenge(store, day)
    yesterday = day - 1
    seed = par = coach = None
    if yesterday >= 1:
        past = await store.get_daily(yesterday)
        seed = seed_to_text(await day_seed(store, yesterday, past))
        par = past.par if past is not None else None
        coach = past.coach_score if past is not None else None
    month = month_of(day)
    return DayFacts(day, seed, par, coach, month > 1 and month_days(month)[0] == day)


async def server_facts(store: Store, facts: DayFacts, guild_id: int, played: int | None = None) -> ServerFacts:
    """The facts of one server's post; ``played``: today's count here, when the caller has just read it."""
    day, yesterday = facts.day, facts.day - 1
    rows: list[ResultRow] = []
    names: dict[int, str] = {}
    players = 0
    if yesterday >= 1:
        top = await store.leaderboard_daily(yesterday, guild_id, RESULTS_SHOWN)
        if top:
            names.update(await store.names_for([entry.user_id for entry in top], yesterday))
            for entry in top:
                record = await store.get_game(entry.game_id)
                grid = "" if record.damaged else "".join(room_marks(record.state))
                rows.append(ResultRow(entry.rank, entry.user_id, entry.score, grid, entry.ended_by))
            players = await store.daily_players(yesterday, guild_id)
    champions: tuple[Champion, ...] = ()
    champion_names: dict[int, str] = {}
    if facts.month_begins:
        best = await store.leaderboard_month(month_of(day) - 1, guild_id, CHAMPIONS)
        if best:
            champions = tuple(Champion(e.rank, e.user_id, e.points) for e in best)
            champion_names = await store.names_for([e.user_id for e in best])
    if played is None:
        played = await store.daily_players(day, guild_id)
    return ServerFacts(tuple(rows), players, champions, names, champion_names, played)


@dataclass(frozen=True, slots=True)
class Posted:
    """A server's post of a day as it is to be edited with today's count: where it is, and what it says now."""

    channel_id: int
    message_id: int
    facts: DayFacts
    server: ServerFacts


async def post_to_edit(store: Store, guild_id: int, day: int) -> Posted | None:
    """The post of ``day`` in ``guild_id`` with its facts read now, or None when none was made."""
    where = await store.daily_post_message(guild_id, day)
    if where is None:
        return None
    facts = await day_facts(store, day)
    return Posted(where[0], where[1], facts, await server_facts(store, facts, guild_id))
