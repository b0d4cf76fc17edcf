"""The solver's worker frees the searches a request let go of after answering it, while it waits for the next one,
never during a request, and with no more than a bounded number waiting (app.solver.tidying)."""

from __future__ import annotations

import random
import threading
import time

import pytest

from app.coach import advice as coach
from app.solver import tidying
from app.solver.tidying import TIDIER
from games.engine import PRESETS, deal, encode, new_game
from games.solver.fair import Coach
from games.solver.position import Position
from games.solver.search import Search
from tests.solver.test_kept_positions import codes, moves_after

CLASSIC = PRESETS["classic"]


@pytest.fixture(autouse=True)
def settled():
    assert TIDIER.wait(60)
    coach._coaches.clear()
    yield
    coach._coaches.clear()
    assert TIDIER.wait(60)


def test_a_hint_lets_go_of_the_orders_it_no_longer_keeps_and_they_are_freed_after_it_not_during_it():
    deck = deal(CLASSIC, 777)
    moves = moves_after(CLASSIC, deck, 9, random.Random("tidy"))
    # A coach on a fixed number of orders (the coach's own play) keeps 2 of the room's orders, lets go of the others
    coach._coaches[CLASSIC.key] = Coach(CLASSIC, 4, kept=2)
    with TIDIER.request():  # as if a request were still running: nothing may be freed meanwhile
        coach._hint_in_worker(CLASSIC.to_dict(), codes(deck), encode(moves))
        let_go = list(TIDIER._waiting)
        assert let_go and all(position.size() > 0 for position in let_go)
        assert coach._coaches[CLASSIC.key].retired == []  # handed over, not kept by the coach
    assert TIDIER.wait(60)  # freed once the worker is idle
    assert all(position.size() == 0 for position in let_go)


def test_a_search_is_freed_a_step_at_a_time_and_says_when_it_is_all_freed():
    deck = deal(CLASSIC, 778)
    position = Position(CLASSIC, deck)
    position.search = Search(position.deal)  # the Python search, whose many objects are freed a few at a time
    position.value(new_game(CLASSIC, deck=tuple(deck)))
    size = position.size()
    assert size > 100
    steps = 0
    while not position.release(50):
        steps += 1
        assert position.size() <= size
    assert steps > 10 and position.size() == 0 and not position.search._ids


def test_searches_waiting_to_be_freed_are_bounded_when_requests_leave_no_spare_time(monkeypatch):
    monkeypatch.setattr(tidying, "WAITING", 4)
    deck = deal(CLASSIC, 779)
    solved = []
    for _ in range(tidying.WAITING + 3):
        position = Position(CLASSIC, deck)
        position.value(new_game(CLASSIC, deck=tuple(deck)))
        solved.append(position)
    with TIDIER.request():
        TIDIER.let_go(list(solved))
        assert len(TIDIER._waiting) == tidying.WAITING
        assert [p.size() for p in solved[:3]] == [0, 0, 0]  # the oldest, freed at once
        assert all(p.size() > 0 for p in solved[3:])
    assert TIDIER.wait(60)


class SlowSearch:
    """A search whose every step of freeing takes a while, and which notes two threads freeing it at once."""

    def __init__(self) -> None:
        self.stepping, self.overlapped, self.left = threading.Event(), False, 3
        self._inside = False

    def release(self, items: int) -> bool:
        self.overlapped |= self._inside
        self._inside = True
        self.stepping.set()
        time.sleep(0.05)
        self.left = 0 if items > 1000 else self.left - 1
        self._inside = False
        return self.left <= 0


def test_a_request_freeing_the_oldest_at_once_never_frees_it_beside_the_thread(monkeypatch):
    monkeypatch.setattr(tidying, "WAITING", 1)
    slow = SlowSearch()
    with TIDIER.request():
        TIDIER.let_go([slow])
    assert slow.stepping.wait(10)  # the thread is freeing it, a step at a time
    with TIDIER.request():  # a request arrives mid-step and lets go of more than may wait: the oldest at once
        TIDIER.let_go([SlowSearch()])
    assert TIDIER.wait(60)
    assert not slow.overlapped and slow.left == 0
