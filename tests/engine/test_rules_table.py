"""Every rule and rule option of docs/RULES.md, as a table of exact situations."""

from __future__ import annotations

import pytest

from games.engine import (
    DEAD,
    PLAYING,
    PRESETS,
    WON,
    IllegalAction,
    Rules,
    RulesError,
    apply,
    avoid,
    fight_with_weapon,
    legal_actions,
    new_game,
    preset,
    preview,
    take,
)
from games.engine.cards import MONSTER, POTION, WEAPON
from games.engine.rules import DUNGEON_ONLY, EARLY, FULL_52, LOWER_OR_EQUAL, SHUFFLED
from tests.engine.helpers import cards, game_starting, situation

CLASSIC = Rules()
LENIENT = PRESETS["lenient"]


def play(state, *actions):
    for a in actions:
        state = apply(state, a)
    return state


# --- the deck -------------------------------------------------------------------------

def test_classic_deck_has_44_cards_with_the_right_roles():
    deck = CLASSIC.full_deck()
    assert len(deck) == 44 and len(set(deck)) == 44
    monsters = [c for c in deck if c.kind == MONSTER]
    assert sorted(c.value for c in monsters) == sorted(list(range(2, 15)) * 2)
    assert {c.suit for c in monsters} == {"C", "S"}
    assert sorted(c.value for c in deck if c.kind == WEAPON) == list(range(2, 11))
    assert sorted(c.value for c in deck if c.kind == POTION) == list(range(2, 11))
    assert all(c.suit == "D" for c in deck if c.kind == WEAPON)
    assert all(c.suit == "H" for c in deck if c.kind == POTION)


def test_full_deck_option_has_52_cards_aces_low():
    deck = PRESETS["full-deck"].full_deck()
    assert len(deck) == 52
    for kind in (MONSTER, WEAPON, POTION):
        values = sorted(c.value for c in deck if c.kind == kind)
        expected = list(range(1, 14)) * (2 if kind == MONSTER else 1)
        assert values == sorted(expected)
    assert [c.label for c in deck if c.value == 1 and c.suit == "S"] == ["♠A"]


def test_new_game_deals_the_first_room_of_four():
    s = game_starting(CLASSIC, "D8", "S11", "H6", "C4")
    assert [c.label for c in s.room] == ["♦8", "♠J", "♥6", "♣4"]
    assert len(s.dungeon) == 40 and s.health == 20 and s.turn == 1 and s.status == PLAYING


# --- worked examples --------------------------------------------------------------------

def test_worked_example_weapon_fight_potion_and_carry():
    s = game_starting(CLASSIC, "D8", "S11", "H6", "C4")
    s = play(s, take(0))
    assert s.weapon.label == "♦8"
    s = play(s, fight_with_weapon(1))
    assert s.health == 17 and s.kills[-1].label == "♠J"
    assert s.events[0].text == "Fought ♠J with ♦8: took 3."
    s = play(s, take(2))
    # The potion heals (capped at 20) and the fourth card, ♣4, starts the next room, leftmost.
    assert s.health == 20
    assert s.room[0].label == "♣4" and len(s.room) == 4 and s.turn == 2


def test_worked_example_weapon_limit_after_queen():
    s = situation(CLASSIC, room=("C6", "S12", "H2", "H3"), dungeon=("C2",), weapon="D5", kills=("S12",))
    # ♦5 has slain ♠Q: may be used on ♣6 (6 < 12).
    assert fight_with_weapon(0) in legal_actions(s)
    s = apply(s, fight_with_weapon(0))
    assert s.health == 19
    # Having slain ♣6, it may not be used on a queen — but it is kept.
    queen_state = s._replace(room=(None, *cards(CLASSIC, "C12", "H2", "H3")))
    assert fight_with_weapon(1) not in legal_actions(queen_state)
    with pytest.raises(IllegalAction) as err:
        apply(queen_state, fight_with_weapon(1))
    assert str(err.value).startswith("Your ♦5 last slew ♣6; ♣Q (12) is too strong for it")
    assert queen_state.weapon.label == "♦5"


@pytest.mark.parametrize("rules, allowed", [(CLASSIC, False), (LENIENT, True)])
def test_worked_example_equal_monster_strict_vs_lower_or_equal(rules, allowed):
    s = situation(rules, room=("C9", "H2", "H3", "H4"), dungeon=("C2",), weapon="D7", kills=("S9",))
    assert (fight_with_weapon(0) in legal_actions(s)) is allowed
    if allowed:
        assert apply(s, fight_with_weapon(0)).health == 18
    else:
        with pytest.raises(IllegalAction):
            apply(s, fight_with_weapon(0))


def test_worked_example_second_potion_in_a_turn_does_nothing():
    s = situation(CLASSIC, room=("H9", "H3", "C2", "C3"), dungeon=("C4",), health=10)
    s = apply(s, take(0))
    assert s.health == 19
    assert preview(s, take(1)).wasted
    s = apply(s, take(1))
    assert s.health == 19 and "did nothing" in s.events[0].text


def test_worked_example_final_room_potion_bonus():
    s = situation(CLASSIC, room=("C2", "H7"), weapon="D4", health=20)
    assert s.final_room and not s.can_avoid
    s = play(s, fight_with_weapon(0), take(1))
    assert s.status == WON and s.score == 27


# --- turns ------------------------------------------------------------------------------

def test_avoid_puts_the_room_under_the_dungeon_in_order():
    s = game_starting(CLASSIC, "S14", "C13", "S13", "C12")
    s2 = apply(s, avoid())
    assert [c.label for c in s2.dungeon[-4:]] == ["♠A", "♣K", "♠K", "♣Q"]
    assert s2.health == s.health and s2.weapon == s.weapon and s2.turn == 2
    assert len(s2.room) == 4 and s2.room[0] not in s.room


def test_avoid_twice_in_a_row_is_refused():
    s = apply(game_starting(CLASSIC), avoid())
    assert avoid() not in legal_actions(s)
    with pytest.raises(IllegalAction, match="avoided the last room"):
        apply(s, avoid())


def test_avoid_allowed_again_after_a_faced_room():
    s = game_starting(CLASSIC, "H2", "H3", "H4", "H5")
    s = play(s, avoid())
    s = play(s, take(0), take(1), take(2))
    assert s.can_avoid


def test_avoid_refused_after_taking_a_card():
    s = apply(game_starting(CLASSIC, "H2", "H3", "H4", "H5"), take(0))
    with pytest.raises(IllegalAction, match="started facing"):
        apply(s, avoid())


def test_avoid_refused_when_the_dungeon_is_empty():
    s = situation(CLASSIC, room=("C2", "C3", "H2", "H3"))
    assert not s.dungeon
    with pytest.raises(IllegalAction, match="dungeon is empty"):
        apply(s, avoid())


def test_shuffled_avoid_option_keeps_the_cards_but_can_change_their_order():
    rules = PRESETS["shuffled-avoid"]
    assert rules.avoided_order == SHUFFLED
    orders = set()
    for seed in range(20):
        s = game_starting(rules, "S14", "C13", "S13", "C12")._replace(rng_seed=seed)
        bottom = apply(s, avoid()).dungeon[-4:]
        assert sorted(bottom) == sorted(s.room)
        orders.add(bottom)
    assert len(orders) > 1


def test_face_resolves_three_and_carries_the_fourth():
    s = game_starting(CLASSIC, "H2", "C3", "D4", "S5")
    s = play(s, take(3), take(1))
    assert s.turn == 1 and s.room[1] is None and s.room[3] is None
    s = apply(s, take(0))
    assert s.turn == 2 and s.room[0].label == "♦4"


def test_final_room_is_resolved_in_full():
    s = situation(CLASSIC, room=("H2", "H3", "H4", "H5"), dungeon=("H6", "C2"))
    s = play(s, take(0), take(1), take(2))  # carry ♥5; the last two cards join it
    assert [c.label for c in s.room] == ["♥5", "♥6", "♣2"] and not s.dungeon
    assert s.final_room and not s.can_avoid
    while s.status == PLAYING:
        s = apply(s, legal_actions(s)[0])
    assert s.status == WON and all(c is None for c in s.room)


def test_a_44_card_game_ends_with_a_final_room_of_two():
    rules = Rules(start_health=99, max_health=99)
    finished = 0
    for seed in range(40):
        s = new_game(rules, seed=seed)
        while s.status == PLAYING and not s.final_room:
            # A careful player: the least damage first, never avoiding.
            options = [a for a in legal_actions(s) if a.kind != "avoid"]
            s = apply(s, min(options, key=lambda a: preview(s, a).damage - preview(s, a).heal))
        if s.status != PLAYING:
            continue
        assert len(s.room) == 2 and not s.dungeon and not s.can_avoid
        while s.status == PLAYING:
            s = apply(s, min(legal_actions(s), key=lambda a: preview(s, a).damage))
        if s.status == WON:
            finished += 1
            assert all(c is None for c in s.room)
    assert finished >= 3


def test_early_win_option_ends_when_a_room_cannot_be_refilled():
    rules = PRESETS["early-win"]
    assert rules.ending == EARLY
    s = situation(rules, room=("H2", "H3", "C4", "C5"), dungeon=("C6", "S14"), health=20)
    s = play(s, take(0), take(1), take(2))  # carry ♣5; only 2 cards left + 1 = 3 < 4
    assert s.status == WON and s.score == 16
    # The last cards are never played: they stay in the room.
    assert sorted(c.label for c in s.room) == ["♠A", "♣5", "♣6"]


def test_final_room_of_four_with_full_deck_is_resolved_in_full():
    rules = PRESETS["full-deck"]
    s = situation(rules, room=("H2", "H3", "D4", "C1"), health=10)
    s = play(s, take(0), take(1), take(2))
    assert s.status == PLAYING and s.turn == 5  # no carry: the final room is still open
    s = apply(s, fight_with_weapon(3))
    assert s.status == WON


# --- weapons, monsters, potions --------------------------------------------------------

def test_new_weapon_discards_the_old_one_and_its_kills():
    s = situation(CLASSIC, room=("D9", "H2", "H3", "H4"), dungeon=("C2",), weapon="D5", kills=("S12", "C6"))
    s = apply(s, take(0))
    assert s.weapon.label == "♦9" and s.kills == ()
    assert {c.label for c in s.discard[-3:]} == {"♦5", "♠Q", "♣6"}


def test_first_weapon_use_can_hit_anything_and_damage_is_never_negative():
    s = situation(CLASSIC, room=("S14", "C2", "H3", "H4"), dungeon=("C3",), weapon="D10")
    s = apply(s, fight_with_weapon(1))
    assert s.health == 20  # 2 - 10 < 0: no damage
    assert fight_with_weapon(0) not in legal_actions(s)  # 14 > 2 now


def test_barehanded_is_always_allowed_and_costs_full_value():
    s = situation(CLASSIC, room=("C3", "H2", "H3", "H4"), dungeon=("C2",), weapon="D10")
    assert apply(s, take(0)).health == 17


def test_fighting_a_non_monster_with_the_weapon_is_refused():
    s = situation(CLASSIC, room=("H3", "H2", "C3", "H4"), dungeon=("C2",), weapon="D10")
    with pytest.raises(IllegalAction, match="Only monsters"):
        apply(s, fight_with_weapon(0))


def test_no_weapon_means_barehanded_only():
    s = situation(CLASSIC, room=("C3", "H2", "H3", "H4"), dungeon=("C2",))
    with pytest.raises(IllegalAction, match="no weapon"):
        apply(s, fight_with_weapon(0))


def test_potion_never_heals_above_max():
    s = situation(CLASSIC, room=("H9", "H2", "C3", "H4"), dungeon=("C2",), health=15)
    assert preview(s, take(0)).heal == 5
    assert apply(s, take(0)).health == 20


def test_potion_allowance_resets_each_turn():
    s = situation(CLASSIC, room=("H2", "C2", "C3", "H3"), dungeon=("H4", "H5", "H6", "C4"), health=10)
    s = play(s, take(0), take(1), take(2))  # heal 2, take 2 and 3 damage; carry ♥3
    assert s.health == 7 and not s.potion_used
    s = apply(s, take(0))
    assert s.health == 10


# --- death and scoring ------------------------------------------------------------------

def test_death_counts_monsters_in_dungeon_and_room():
    s = situation(CLASSIC, room=("S14", "C5", "H2", "C3"), dungeon=("S10", "H9"), health=10)
    s = apply(s, take(0))
    assert s.status == DEAD and s.health == 0
    assert s.score == -(5 + 3 + 10)
    with pytest.raises(IllegalAction, match="over"):
        apply(s, take(1))
    assert legal_actions(s) == []


def test_death_score_option_counts_the_dungeon_only():
    rules = Rules(death_score=DUNGEON_ONLY)
    s = situation(rules, room=("S14", "C5", "H2", "C3"), dungeon=("S10", "H9"), health=10)
    assert apply(s, take(0)).score == -10


def test_death_at_exactly_zero_health():
    s = situation(CLASSIC, room=("C5", "H2", "H3", "H4"), dungeon=("C2",), health=5)
    s = apply(s, take(0))
    assert s.status == DEAD and s.score == -2


def test_clear_score_is_health_when_not_full():
    s = situation(CLASSIC, room=("C2", "H7"), health=15)
    s = play(s, take(1), take(0))
    assert s.status == WON and s.score == 18


def test_potion_bonus_counts_even_when_the_potion_did_not_heal():
    s = situation(CLASSIC, room=("H2", "H7"), health=20)
    s = play(s, take(0), take(1))  # the second potion is wasted, but it is the last card at full health
    assert s.status == WON and s.score == 27


def test_no_potion_bonus_when_the_last_card_is_not_a_potion():
    s = situation(CLASSIC, room=("H7", "D2"), health=20)
    s = play(s, take(0), take(1))
    assert s.score == 20


def test_custom_health_caps_and_bonus_use_the_maximum():
    rules = Rules(start_health=10, max_health=15)
    s = situation(rules, room=("C2", "H9"), health=10)
    s = play(s, take(0), take(1))
    assert s.health == 15 and s.score == 15 + 9
    assert apply(game_starting(rules), take(0)).rules.max_health == 15
    assert game_starting(rules).health == 10


# --- rule sets ------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, message", [
    ({"start_health": 0}, "from 1 to 99"),
    ({"max_health": 100}, "from 1 to 99"),
    ({"start_health": 30, "max_health": 20}, "above the maximum"),
    ({"weapon_limit": "whatever"}, "weapon_limit must be one of"),
    ({"deck": FULL_52, "merchants": True}, "44-card deck"),
])
def test_invalid_rules_are_refused_with_a_reason(kwargs, message):
    with pytest.raises(RulesError, match=message):
        Rules(**kwargs)


def test_presets_and_keys():
    assert preset("classic") == Rules() and Rules().name == "classic"
    assert preset("Lenient").weapon_limit == LOWER_OR_EQUAL
    assert Rules(start_health=12, max_health=12).name == "custom"
    keys = {r.key for r in PRESETS.values()}
    assert len(keys) == len(PRESETS)
    for r in PRESETS.values():
        assert Rules.from_dict(r.to_dict()) == r
    with pytest.raises(RulesError, match="unknown preset"):
        preset("nightmare")


def test_preview_matches_apply_for_every_legal_action():
    s = situation(CLASSIC, room=("C9", "D4", "H5", "S3"), dungeon=("C2",), weapon="D6", kills=("S12",), health=12)
    for action in legal_actions(s):
        out = preview(s, action)
        after = apply(s, action)
        if action.kind != "avoid":
            assert after.health - s.health == out.heal - out.damage
            assert (after.weapon != s.weapon) == out.equips
    assert preview(s, fight_with_weapon(0)).short == "−3"
    assert preview(s, take(0)).short == "−9"
    assert preview(s, take(1)).short == "equip"
    assert preview(s, take(2)).short == "+5"


def test_apply_never_changes_its_argument():
    s = game_starting(CLASSIC, "D8", "S11", "H6", "C4")
    before = tuple(s)
    apply(s, take(0))
    apply(s, avoid())
    assert tuple(s) == before
