"""What a finished game adds to the boards: the rows of the running totals, decided here and only here (pure).

Storage writes exactly the rows this module gives it (``player_totals``, ``week_totals``, ``month_totals``); the
rules:

* A normal game and a counted daily count; a practice game (a daily replayed) never does, and neither does a
  duel (duels have no board). A game in which a hint was taken never counts.
* A counted game adds to its rule set's totals and to every rule set's (``ALL_RULES``), in its server and in every
  server (``ALL_GUILDS``); a counted daily also to the dailies-only totals (``DAILIES``).
* The boards of several days (week, month, all-time dailies) rank by points: a scored counted daily is worth its
  score above the lowest score a daily can end with (``day_points``; ``DAY_FLOOR`` is -208, a forfeit before the
  first move), so a day's points are never negative and playing one more day can only add to a player's total,
  never to anyone else's: skipping a day never ranks a player higher. (Summed scores did: most dailies end in death
  below zero.) On one day's board the order is the same as by score.
* A scored counted daily adds its points to the 7 week totals whose week holds its day (a week is named by its last
  day), counting a forfeit (given up, or its day ended first) as such; and, the same way, to the month total of the
  calendar month holding its day (``calendar.month_of``: the month board); and to the player totals' ``points``.
* A game given up or expired: a counted daily is scored by its forfeit (``forfeit_score``: no better than dying
  there; nothing if its state is unreadable); other games have no score.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.calendar import month_of
from games.engine.cards import MONSTER
from games.engine.forfeit import forfeit_score
from games.engine.rules import CLASSIC
from games.engine.state import WON, State

NORMAL = "normal"
DAILY = "daily"  # the counted attempt at a day's challenge
PRACTICE = "practice"  # a daily replayed: never counted, never on a board
COUNTED = (NORMAL, DAILY)
ALL_GUILDS = 0  # the totals' guild for "every server"
ALL_RULES = "*"  # the totals' rule set for "every rule set"
DAILIES = "daily"  # the totals' rule set for "counted dailies only" (the all-time daily board)
WEEK_DAYS = 7
# The lowest score a daily (always the classic game) can end with: given up before the first move, every monster
# of the deck unslain. Dying always leaves fewer.
DAY_FLOOR = -sum(card.value for card in CLASSIC.full_deck() if card.kind == MONSTER)

# (user, guild, rules key, games, wins, scored, total score, best score, average, last at, points of the dailies)
PlayerRow = tuple[int, int, str, int, int, int, int, int | None, float | None, int, int]
# (week's last day, guild, user, points, wins, forfeits, best score, last at); each adds one day played
WeekRow = tuple[int, int, int, int, int, int, int, int]
# (month number, guild, user, points, wins, forfeits, best score, last at); each adds one day played
MonthRow = tuple[int, int, int, int, int, int, int, int]


@dataclass(frozen=True, slots=True)
class EndedGame:
    """A game as it ended. ``at``: when (microseconds since the epoch); ``forfeit``: given up or expired."""

    user_id: int
    guild_id: int | None
    rules_key: str
    kind: str
    day: int | None
    status: str
    score: int | None
    at: int
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class Tally:
    """The rows one or more ended games add to the running totals."""

    players: tuple[PlayerRow, ...] = ()
    weeks: tuple[WeekRow, ...] = ()
    months: tuple[MonthRow, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.players or self.weeks or self.months)

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.players + other.players, self.weeks + other.weeks, self.months + other.months)


NOTHING = Tally()


def counts(kind: str, *, hinted: bool = False) -> bool:
    """Whether a game of ``kind`` (hinted or not) is on any board."""
    return kind in COUNTED and not hinted


def day_points(score: int) -> int:
    """A scored counted daily's points on the boards of several days: its score above ``DAY_FLOOR``, never below
    zero, in the same order as the scores."""
    return score - DAY_FLOOR


def tally(game: EndedGame, *, hinted: bool = False, new: bool = True) -> Tally:
    """The rows ``game`` adds. ``new=False``: the game was already counted as played and only its score is added
    now (a counted daily given up before forfeits were scored)."""
    if not counts(game.kind, hinted=hinted):
        return NOTHING
    won = 1 if game.status == WON else 0
    scored = 1 if game.score is not None else 0
    average = float(game.score) if game.score is not None else None
    keys = (game.rules_key, ALL_RULES, DAILIES) if game.kind == DAILY else (game.rules_key, ALL_RULES)
    guilds = (ALL_GUILDS,) if game.guild_id is None else (ALL_GUILDS, game.guild_id)
    points = day_points(game.score) if game.kind == DAILY and game.score is not None else 0
    players = tuple((game.user_id, g, k, 1 if new else 0, won, scored, game.score or 0, game.score, average, game.at,
                     points) for g in guilds for k in keys)
    weeks: tuple[WeekRow, ...] = ()
    months: tuple[MonthRow, ...] = ()
    if game.kind == DAILY and game.score is not None and game.day is not None:
        forfeited = 1 if game.forfeit else 0
        weeks = tuple((game.day + n, g, game.user_id, points, won, forfeited, game.score, game.at)
                      for g in guilds for n in range(WEEK_DAYS))
        months = tuple((month_of(game.day), g, game.user_id, points, won, forfeited, game.score, game.at)
                       for g in guilds)
    return Tally(players, weeks, months)


def tally_all(games: list[EndedGame], *, new: bool = True) -> Tally:
    total = NOTHING
    for game in games:
        total += tally(game, new=new)
    return total


def forfeit(kind: str, state: State | None) -> int | None:
    """The score of a game given up or expired: a counted daily's forfeit score (None when its state is
    unreadable, ``state`` None); other games have none."""
    if kind != DAILY or state is None:
        return None
    return forfeit_score(state)


__all__ = ["ALL_GUILDS", "ALL_RULES", "COUNTED", "DAILIES", "DAILY", "DAY_FLOOR", "NORMAL", "NOTHING", "PRACTICE",
           "WEEK_DAYS", "EndedGame", "MonthRow", "PlayerRow", "Tally", "WeekRow", "counts", "day_points", "forfeit",
           "tally", "tally_all"]
