"""A room's plans and ways to die (``rooms.room_options``, which packs states and plans into numbers and tables)
against the frozen straightforward walk (``reference_solver.rooms``: every order of every room spelled out as
tuples): the same plans in the same order with the same steps, and the same deaths, over many rooms, weapons and
limits, both ``resolve_all`` and ``keep_last`` values and both rules for the limit a kill leaves. And the plans'
grouping by where they lead (``rooms.plan_groups``) against its plain definition."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from games.engine import PRESETS, ROOM_SIZE
from games.solver import rooms
from games.solver.deal import MONSTER_K, NO_LIMIT, Deal
from tests.solver.reference_solver import deal as reference_deal
from tests.solver.reference_solver import rooms as reference_rooms

# classic: a kill leaves the weapon for monsters below the kill (limit step 0); lenient: up to the kill's value
# (step 1); full-deck: aces and red face cards too.
PRESETS_COMPARED = ["classic", "lenient", "full-deck"]
SOLVER = Path(rooms.__file__).resolve().parent
TABLE_SIZES = ("MAX_CARDS", "MAX_PLANS", "MAX_GROUPS", "SEEN_SLOTS")


def random_rooms(preset_name: str, count: int):
    """(deal, reference deal, room, weapon, limit): rooms of 1-4 cards, most of them full and rich in monsters
    (the most orders and plans), with no weapon, a fresh one or one limited by a kill."""
    rules = PRESETS[preset_name]
    deck = rules.full_deck()
    ours, theirs = Deal(rules, deck), reference_deal.Deal(rules, deck)
    monsters = [i for i in range(len(deck)) if ours.kind[i] == MONSTER_K]
    rng = random.Random(f"rooms-{preset_name}")
    for _ in range(count):
        size = rng.choice([1, 2, 3, 4, 4, 4, 4])
        room = rng.sample(monsters, rng.randint(0, size))
        room += rng.sample([i for i in range(len(deck)) if i not in room], size - len(room))
        rng.shuffle(room)
        weapon = rng.choice([0, 2, 5, 7, 10])
        limit = rng.choice([NO_LIMIT, NO_LIMIT, rng.randint(2, 15)]) if weapon else 0
        yield ours, theirs, tuple(room), weapon, limit


@pytest.mark.parametrize("preset_name", PRESETS_COMPARED)
def test_plans_and_deaths_are_the_straightforward_walks(preset_name):
    deaths_seen = plans_seen = 0
    for ours, theirs, room, weapon, limit in random_rooms(preset_name, 300):
        for resolve_all in (False, True):
            for keep_last in (False, True):
                expected = reference_rooms.room_options(theirs, room, weapon, limit, resolve_all, keep_last)
                found = rooms.room_options(ours, room, weapon, limit, resolve_all, keep_last, True)
                where = (room, weapon, limit, resolve_all, keep_last)
                assert found[0] == expected[0], where
                assert found[1] == expected[1], where
                assert rooms.room_options(ours, room, weapon, limit, resolve_all, keep_last) == (expected[0], []), where
                plans_seen += len(expected[0])
                deaths_seen += len(expected[1])
    assert plans_seen > 5000 and deaths_seen > 5000


def test_the_room_with_the_most_orders_is_walked_whole():
    """Four monsters a fresh weapon can each hit or not, in any order: the most states and plans a room has."""
    rules = PRESETS["lenient"]
    deck = rules.full_deck()
    ours, theirs = Deal(rules, deck), reference_deal.Deal(rules, deck)
    values = {ours.value[i]: i for i in range(len(deck)) if ours.kind[i] == MONSTER_K}
    room = tuple(values[v] for v in (2, 5, 9, 13))
    for resolve_all in (False, True):
        expected = reference_rooms.room_options(theirs, room, 10, NO_LIMIT, resolve_all, True)
        assert rooms.room_options(ours, room, 10, NO_LIMIT, resolve_all, True, True) == expected


def test_a_room_of_more_cards_than_a_room_holds_is_refused():
    rules = PRESETS["classic"]
    deck = rules.full_deck()
    with pytest.raises(ValueError, match="at most 4 cards"):
        rooms.room_options(Deal(rules, deck), (0, 1, 2, 3, 4), 0, 0, False, False)


def grouped(plans, card_class):
    """The plans' grouping, by its definition: (carried, weapon, limit, [(d1, p, d2), …]) in the order first met,
    keyed by the carried card's kind and value, the weapon and the limit, each (d1, p, d2) once."""
    groups: dict[tuple, tuple] = {}
    for carried, d1, p, d2, weapon, limit, _, _ in plans:
        group = groups.setdefault((card_class[carried], weapon, limit), (carried, weapon, limit, []))
        if (d1, p, d2) not in group[3]:
            group[3].append((d1, p, d2))
    return list(groups.values())


@pytest.mark.parametrize("preset_name", PRESETS_COMPARED)
def test_plans_are_grouped_by_where_they_lead(preset_name):
    joined = 0
    for ours, _, room, weapon, limit in random_rooms(preset_name, 300):
        for resolve_all in (False, True):
            plans = rooms.room_options(ours, room, weapon, limit, resolve_all, False)[0]
            # Plans as the search reuses them too: the same plans with another limit.
            for some in (plans, [plan[:5] + (limit,) + plan[6:] for plan in plans]):
                expected = grouped(some, ours.card_class)
                assert rooms.plan_groups(some, ours.card_class) == expected, (room, weapon, limit)
                joined += len(some) - len(expected)
    assert joined > 1000  # groups of several plans were met


def test_the_tables_are_as_large_as_the_walk_needs():
    """Compiled, the walk's tables are C arrays sized in rooms.pxd and filled from the list literals in rooms.py:
    a size that drifted from its constant would write past an array. And the constants cover a room's worst case."""
    source = (SOLVER / "rooms.py").read_text()
    size = {node.targets[0].id: ast.literal_eval(node.value) for node in ast.parse(source).body
            if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") in TABLE_SIZES}
    assert size["MAX_CARDS"] == ROOM_SIZE
    assert size["MAX_PLANS"] >= 24 * 2**4  # every order of four monsters, each fought with the weapon or not
    assert size["SEEN_SLOTS"] > 1 + 8 + 48 + 192 + 384  # every state of such a walk
    assert size["MAX_GROUPS"] >= 4 * 5  # the card left, and no potion or one of the three others last
    literals = re.findall(r"\[0\] \* (\d+)  # (\w+)( \+ 1)?", source)  # each names its size
    assert len(literals) == source.count("[0] * ")
    assert all(int(n) == size[name] + (plus == " + 1") for n, name, plus in literals), literals
    pxd = (SOLVER / "rooms.pxd").read_text()
    assert {int(n) for n in re.findall(r"\[(\d+)\]", pxd)} == {size[name] for name in TABLE_SIZES} | {
        size["MAX_GROUPS"] + 1}
    assert f"[{size['SEEN_SLOTS']}] seen" in pxd
