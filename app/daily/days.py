"""The daily challenge, without Discord: day numbers, the secret deal, share text and streaks.

Day numbers count whole UTC days: Daily #1 is 2026-01-01 (UTC), Daily #2 the day after.
The deal of a day is ``seed_from_bytes(HMAC-SHA256(secret, b"daily:<day>"))``: the secret is
made by the bot on its first run and kept in its database, so the public code cannot tell
tomorrow's deck. Once a day is over its seed may be shown so anyone can replay it.

The daily is always the classic game, on every server: one deal and one board per day.
(docs/RULES.md keeps the expansion out of the daily; variants would split the boards by rules.)
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterable
from datetime import UTC, datetime, time

from games.engine import DEAD, WON, State, apply, new_game
from games.engine.actions import AVOID
from games.engine.calendar import (  # noqa: F401 - the daily's calendar
    EPOCH,
    day_date,
    day_end,
    day_of,
    day_start,
    month_days,
    month_of,
    month_start,
)
from games.engine.rules import CLASSIC, Rules
from games.engine.seeds import seed_from_bytes
from games.i18n import N_
from games.i18n.messages import ENGLISH, Messages

DAILY_RULES: Rules = CLASSIC

# One symbol per room in the shared result; never a card value. A faced room is coloured by the damage taken in
# it, in bands wide enough not to tell which monsters were there.
FACED = "🟩"  # no damage
HURT = (("🟨", 5), ("🟧", 10), ("🟥", None))  # up to 5, up to 10, more
FACED_MARKS = (FACED, *(mark for mark, _ in HURT))
AVOIDED = "⏭️"
DIED = "💀"
CLEARED = "🏆"


def daily_seed(secret: bytes, day: int) -> int:
    """The seed of daily ``day``: unguessable without ``secret``, the same for everyone."""
    if not secret:
        raise ValueError("the daily secret is empty")
    return seed_from_bytes(hmac.new(secret, b"daily:%d" % day, hashlib.sha256).digest())


def daily_game(secret: bytes, day: int) -> State:
    return new_game(DAILY_RULES, seed=daily_seed(secret, day))


# --- the scheduled post's time ------------------------------------------------------------

_HHMM = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*$")


class BadTime(ValueError):
    """The admin typed a time that is not HH:MM; the message says what to type.

    ``template`` and ``fields`` let the message be shown in the admin's language: ``tr(bad.template, **bad.fields)``.
    """

    def __init__(self, template: str, **fields) -> None:
        super().__init__(template.format(**fields))
        self.template, self.fields = template, fields

    def text(self, tr: Messages = ENGLISH) -> str:
        return tr(self.template, **self.fields)


def _quoted(text: str | None, limit: int = 12) -> str:
    text = " ".join(str(text or "").split()).replace("`", "'")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse_post_time(text: str) -> time:
    """``"09:30"`` → 09:30 UTC (aware). Raises ``BadTime`` with a readable message."""
    match = _HHMM.match(text or "")
    if not match:
        raise BadTime(N_("`{text}` is not a time: use HH:MM in UTC, e.g. `09:30`."), text=_quoted(text))
    hour, minute = int(match[1]), int(match[2])
    if hour > 23 or minute > 59:
        raise BadTime(N_("`{text}` is not a time of day: hours go 00–23 and minutes 00–59."), text=_quoted(text))
    return time(hour, minute, tzinfo=UTC)


def format_post_time(moment: time) -> str:
    return f"{moment.hour:02d}:{moment.minute:02d}"


def post_due_at(day: int, post_time: time) -> datetime:
    """When the post of ``day`` is due (``post_time`` of that UTC day)."""
    return datetime.combine(day_date(day), post_time.replace(tzinfo=None), tzinfo=UTC)


# --- the spoiler-free share text --------------------------------------------------------------

def room_marks(state: State) -> list[str]:
    """One symbol per room played, found by replaying the history room by room."""
    replayed = new_game(state.rules, deck=state.start_deck, seed=state.rng_seed)
    marks: dict[int, str] = {}
    damage: dict[int, int] = {}
    for action in state.history:
        room = replayed.turn
        replayed = apply(replayed, action)
        damage[room] = damage.get(room, 0) + sum(e.amount for e in replayed.events if e.kind == "fight")
        if action.kind == AVOID:
            marks[room] = AVOIDED
        elif replayed.status == DEAD:
            marks[room] = DIED
        elif replayed.status == WON:
            marks[room] = CLEARED
    return [marks.get(room) or damage_mark(damage[room]) for room in sorted(damage)]


def damage_mark(damage: int) -> str:
    if damage == 0:
        return FACED
    return next(mark for mark, most in HURT if most is None or damage <= most)


def share_text(day: int, state: State, par: int | None = None, streak: int = 0, tr: Messages = ENGLISH,
               coach: int | None = None) -> str:
    """Daily number, outcome, score (and par with the coach's score, and the day streak) and one symbol per room;
    no card is ever named. In ``tr``'s language (the player who shares it)."""
    marks = room_marks(state)
    rows = ["".join(marks[i:i + 10]) for i in range(0, len(marks), 10)]
    score = "—" if state.score is None else str(state.score)
    rooms = len(marks)
    if state.status == WON:
        head = tr.plural("Scoundrel Daily #{day}: cleared the dungeon, score {score} in {n} room",
                         "Scoundrel Daily #{day}: cleared the dungeon, score {score} in {n} rooms", rooms,
                         day=day, score=score)
    elif state.status == DEAD:
        head = tr.plural("Scoundrel Daily #{day}: died, score {score} in {n} room",
                         "Scoundrel Daily #{day}: died, score {score} in {n} rooms", rooms, day=day, score=score)
    else:
        head = tr.plural("Scoundrel Daily #{day}: still in the dungeon, score {score} in {n} room",
                         "Scoundrel Daily #{day}: still in the dungeon, score {score} in {n} rooms", rooms,
                         day=day, score=score)
    extras = (([tr("par {par}", par=par)] if par is not None else [])
              + ([tr("coach {coach}", coach=coach)] if par is not None and coach is not None else [])
              + ([tr.plural("🔥 {n}-day streak", "🔥 {n}-day streak", streak)] if streak > 1 else []))
    if extras:
        head += " · " + " · ".join(extras)
    return "\n".join([head, *rows])


# --- streaks -------------------------------------------------------------------------------

def streaks(days: Iterable[int], today: int) -> tuple[int, int]:
    """(current, longest) runs of consecutive day numbers.

    The current streak is still alive when its last day is today or yesterday (today's daily
    may simply not be played yet).
    """
    played = sorted(set(days))
    longest = run = 0
    previous = None
    for day in played:
        run = run + 1 if previous is not None and day == previous + 1 else 1
        longest = max(longest, run)
        previous = day
    current = 0
    if played and played[-1] >= today - 1:
        current = 1
        index = len(played) - 1
        while index > 0 and played[index - 1] == played[index] - 1:
            current += 1
            index -= 1
    return current, longest
