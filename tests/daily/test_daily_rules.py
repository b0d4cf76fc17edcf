"""app.daily.days: day numbers, the secret deal, the post time, share text and streaks."""

import hashlib
import hmac
import random
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.daily import days as daily
from games.engine import DEAD, apply, avoid, legal_actions, new_game, take
from games.engine.seeds import seed_from_bytes


def test_day_numbers_follow_utc_days():
    assert daily.day_of(datetime(2026, 1, 1, tzinfo=UTC)) == 1
    assert daily.day_of(datetime(2026, 1, 1, 23, 59, 59, tzinfo=UTC)) == 1
    assert daily.day_of(datetime(2026, 1, 2, tzinfo=UTC)) == 2
    # 2026-01-02 01:00 in UTC+3 is still Jan 1 in UTC
    assert daily.day_of(datetime(2026, 1, 2, 1, 0, tzinfo=timezone(timedelta(hours=3)))) == 1
    assert daily.day_start(32) == datetime(2026, 2, 1, tzinfo=UTC)
    assert daily.day_end(1) == datetime(2026, 1, 2, tzinfo=UTC)


def test_naive_datetimes_are_refused():
    with pytest.raises(ValueError, match="naive"):
        daily.day_of(datetime(2026, 1, 1))


@given(st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2040, 1, 1), timezones=st.just(UTC)))
@settings(max_examples=200, deadline=None)
def test_every_instant_lies_inside_its_day(moment):
    day = daily.day_of(moment)
    assert daily.day_start(day) <= moment < daily.day_end(day)


def test_daily_seed_is_the_hmac_of_the_day_under_the_secret():
    secret = b"s" * 32
    expected = seed_from_bytes(hmac.new(secret, b"daily:7", hashlib.sha256).digest())
    assert daily.daily_seed(secret, 7) == expected
    assert daily.daily_seed(secret, 7) == daily.daily_seed(bytes(secret), 7)
    assert daily.daily_seed(secret, 8) != expected
    assert daily.daily_seed(b"t" * 32, 7) != expected
    with pytest.raises(ValueError):
        daily.daily_seed(b"", 1)


def test_daily_game_is_classic_and_the_same_for_everyone():
    a, b = daily.daily_game(b"k" * 32, 3), daily.daily_game(b"k" * 32, 3)
    assert a.start_deck == b.start_deck and a.rules == daily.DAILY_RULES
    assert a.rules.name == "classic"


@pytest.mark.parametrize("text,hour,minute", [("09:30", 9, 30), ("0:05", 0, 5), (" 23:59 ", 23, 59)])
def test_post_time_parses(text, hour, minute):
    parsed = daily.parse_post_time(text)
    assert (parsed.hour, parsed.minute, parsed.tzinfo) == (hour, minute, UTC)


@pytest.mark.parametrize("text", ["", "9", "24:00", "12:60", "noon", "12:5", "1:2:3"])
def test_bad_post_time_is_refused_with_a_hint(text):
    with pytest.raises(daily.BadTime, match="HH:MM|00–23"):
        daily.parse_post_time(text)


def _playout(seed: int, first=None):
    state = new_game(daily.DAILY_RULES, seed=seed)
    if first is not None:
        state = apply(state, first)
    rng = random.Random(seed)
    while not state.over:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


SUITS = "♠♣♥♦"


@pytest.mark.parametrize("seed", range(25))
def test_share_marks_one_symbol_per_room_and_no_card(seed):
    state = _playout(seed)
    marks = daily.room_marks(state)
    assert len(marks) == state.turn
    assert marks[-1] == (daily.DIED if state.status == DEAD else daily.CLEARED)
    assert set(marks[:-1]) <= {*daily.FACED_MARKS, daily.AVOIDED}
    text = daily.share_text(12, state)
    head, *rows = text.splitlines()
    assert head.startswith("Scoundrel Daily #12: ") and f"score {state.score}" in head
    assert "".join(rows) == "".join(marks)
    assert not any(s in text for s in SUITS)
    labels = {c.label for c in state.start_deck} | {c.code for c in state.start_deck}
    assert not any(label in text for label in labels if not label.isdigit())


def test_avoided_room_is_marked_avoided():
    state = _playout(3, first=avoid())
    assert daily.room_marks(state)[0] == daily.AVOIDED


def test_death_in_the_first_room_is_one_skull():
    # At 1 health the first monster fought barehanded kills.
    state = new_game(daily.DAILY_RULES.with_health(1), seed=5)
    while not state.over:
        slots = [i for i, c in enumerate(state.room) if c is not None]
        monsters = [i for i in slots if state.room[i].kind == "monster"]
        state = apply(state, take((monsters or slots)[0]))
    assert state.status == DEAD and daily.room_marks(state) == [daily.DIED]


@pytest.mark.parametrize("days,today,expected", [
    ([], 10, (0, 0)),
    ([10], 10, (1, 1)),
    ([9], 10, (1, 1)),            # yesterday played, today not yet: still alive
    ([8], 10, (0, 1)),            # a missed day breaks it
    ([1, 2, 3, 5, 6], 6, (2, 3)),
    ([1, 2, 3, 5, 6], 7, (2, 3)),
    ([1, 2, 3, 5, 6], 8, (0, 3)),
    ([4, 4, 5, 3], 5, (3, 3)),    # duplicates and order do not matter
])
def test_streaks(days, today, expected):
    assert daily.streaks(days, today) == expected


@given(st.sets(st.integers(1, 40), max_size=30), st.integers(1, 45))
@settings(max_examples=300, deadline=None)
def test_streaks_agree_with_counting_day_by_day(days, today):
    played = {d for d in days if d <= today}

    def run_ending(day):
        length = 0
        while day - length in played:
            length += 1
        return length

    longest = max((run_ending(d) for d in played), default=0)
    current = run_ending(today) or run_ending(today - 1)
    assert daily.streaks(played, today) == (current, longest)


@pytest.mark.parametrize("damage,mark", [(0, "🟩"), (1, "🟨"), (5, "🟨"), (6, "🟧"), (10, "🟧"), (11, "🟥"),
                                         (40, "🟥")])
def test_a_faced_room_is_coloured_by_the_damage_taken_in_bands(damage, mark):
    assert daily.damage_mark(damage) == mark


def test_room_marks_follow_the_damage_of_each_room():
    for seed in range(25):
        state = _playout(seed)
        taken: dict[int, int] = {}
        replayed = new_game(state.rules, deck=state.start_deck, seed=state.rng_seed)
        for action in state.history:  # health lost to fights, room by room, from the health itself
            room, before = replayed.turn, replayed.health
            replayed = apply(replayed, action)
            fought = any(e.kind == "fight" for e in replayed.events)
            taken[room] = taken.get(room, 0) + (before - max(replayed.health, before - 99) if fought else 0)
        marks = daily.room_marks(state)
        for room, mark in zip(sorted(taken), marks, strict=True):
            if mark in daily.FACED_MARKS:
                assert mark == daily.damage_mark(taken[room]), (seed, room)


def test_the_share_line_carries_par_and_streak_but_no_card():
    state = _playout(4)
    text = daily.share_text(30, state, par=17, streak=5)
    head = text.splitlines()[0]
    assert head.endswith(" · par 17 · 🔥 5-day streak")
    assert " · par" not in daily.share_text(30, state).splitlines()[0]
    assert "streak" not in daily.share_text(30, state, streak=1)  # a streak of one day is no streak
