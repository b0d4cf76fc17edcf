"""The expansion cards as docs/RULES.md states them and games/engine/expansion.py decides them."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import PRESETS, WON, IllegalAction, Rules, all_cards, apply, legal_actions, preview, take
from games.engine import actions as A
from games.engine.cards import JOKER, MERCHANT, NECROMANCER
from games.engine.state import AT_CROSSROADS, AT_MERCHANT, AT_NECROMANCER, IN_UNDERWORLD, weapon_price
from tests.engine.helpers import cards, situation

EXP = PRESETS["expansion"]


def test_expansion_deck_adds_merchants_jokers_and_necromancers():
    deck = EXP.full_deck()
    assert len(deck) == 50
    kinds = Counter(c.kind for c in deck)
    assert kinds[MERCHANT] == 2 and kinds[JOKER] == 2 and kinds[NECROMANCER] == 2
    assert {c.label for c in deck if c.kind == MERCHANT} == {"♦K", "♥K"}
    assert {c.label for c in deck if c.kind == NECROMANCER} == {"♦J", "♥J"}
    assert len(Rules(merchants=True).full_deck()) == 46


def test_merchant_offers_six_cards_from_the_graveyard_and_sells_a_potion():
    base = situation(EXP, room=("D13", "C2", "C3", "C4"), dungeon=("C5",), health=10)
    for seed in range(50):  # the first shuffle that shows a potion
        s = apply(base._replace(rng_seed=seed), take(0))
        assert s.pending[0] == AT_MERCHANT and len(s.pending[1]) == 6
        potions = [i for i, c in enumerate(s.pending[1]) if c.kind == "potion"]
        if potions:
            break
    assert A.buy(potions[0]) in legal_actions(s)
    assert preview(s, A.buy(potions[0])).heal == 3
    after = apply(s, A.buy(potions[0]))
    assert after.health == 13 and after.pending == ()
    assert Counter(all_cards(after)) == Counter(after.start_deck)


def test_merchant_weapon_costs_health_and_replaces_the_weapon():
    s = situation(EXP, room=("H13", "C2", "C3", "C4"), dungeon=("C5",), weapon="D2", kills=("C14",), health=10)
    # Find a seed whose shuffle shows a weapon.
    for seed in range(50):
        t = apply(s._replace(rng_seed=seed), take(0))
        weapons = [i for i, c in enumerate(t.pending[1]) if c.kind == "weapon"]
        if weapons:
            break
    bought = t.pending[1][weapons[0]]
    after = apply(t, A.buy(weapons[0]))
    assert after.weapon == bought and after.kills == ()
    assert after.health == 10 - weapon_price(1) == 7
    assert weapon_price(2) == 4 and weapon_price(3) == 5 and weapon_price(9) == 5


def test_merchant_refuses_monsters_and_weapons_you_cannot_afford():
    s = situation(EXP, room=("D13", "C2", "C3", "C4"), dungeon=("C5",), health=3)
    for seed in range(50):
        t = apply(s._replace(rng_seed=seed), take(0))
        if t.pending and any(c.kind in ("weapon", "monster") for c in t.pending[1]):
            break
    for i, card in enumerate(t.pending[1]):
        if card.kind in ("weapon", "monster"):
            with pytest.raises(IllegalAction):
                apply(t, A.buy(i))
    assert A.LEAVE_ACTION in legal_actions(t)
    left = apply(t, A.LEAVE_ACTION)
    assert left.health == 3 and left.pending == ()


def test_joker_shuffles_the_dungeon():
    s = situation(EXP, room=("X1", "C2", "C3", "C4"), dungeon=("C5", "C6", "C7", "C8", "C9", "C10"))
    after = apply(s, take(0))
    assert sorted(after.dungeon) == sorted(s.dungeon) and after.dungeon != s.dungeon
    assert after.discard[-1].kind == JOKER


def test_necromancer_raises_a_room_from_the_graveyard():
    s = situation(EXP, room=("D11", "C2", "C3", "C4"), dungeon=("C5",), health=10)
    s = apply(s, take(0))
    assert s.pending[0] == AT_NECROMANCER
    assert set(legal_actions(s)) == {A.RAISE_ACTION, A.DECLINE_ACTION}
    raised = apply(s, A.RAISE_ACTION)
    assert raised.pending[0] == IN_UNDERWORLD and raised.health == 8 and len(raised.room) == 4
    assert A.AVOID_ACTION not in legal_actions(raised)
    t = raised
    for _ in range(3):
        if t.status != "playing":
            break
        t = apply(t, [a for a in legal_actions(t) if a.kind == "take"][0])
    if t.status == "playing":
        # Back in the dungeon room: the necromancer counted as one of its cards.
        assert t.pending == () and t.room == s.room
    assert Counter(all_cards(t)) == Counter(t.start_deck)


def test_necromancer_can_be_declined_and_refuses_the_poor():
    s = situation(EXP, room=("H11", "C2", "C3", "C4"), dungeon=("C5",), health=2)
    s = apply(s, take(0))
    assert legal_actions(s) == [A.DECLINE_ACTION]
    with pytest.raises(IllegalAction, match="health"):
        apply(s, A.RAISE_ACTION)
    after = apply(s, A.DECLINE_ACTION)
    assert after.health == 2 and after.pending == ()


def test_looping_offers_another_descent_and_scores_a_bonus():
    s = situation(EXP, room=("C2", "H7"), weapon="D4", health=20)
    s = apply(apply(s, A.fight_with_weapon(0)), take(1))
    assert s.pending == (AT_CROSSROADS,) and s.status == "playing" and not s.final_room
    retired = apply(s, A.RETIRE_ACTION)
    assert retired.status == WON and retired.score == 27
    looped = apply(s, A.LOOP_ACTION)
    assert looped.loop == 2 and looped.health == 20 and looped.weapon is not None
    assert len(looped.dungeon) + len(looped.room) == len(s.discard)
    # Clearing the second loop scores 20 more.
    assert looped._replace(status=WON, last_card=cards(EXP, "C2")[0]).score == 20 + 20


def test_raised_expansion_cards_do_nothing():
    s = situation(EXP, room=("D11", "C2", "C3", "C4"), dungeon=("C5",), health=10)
    s = apply(apply(s, take(0)), A.RAISE_ACTION)
    joker = cards(EXP, "X1")[0]
    t = s._replace(room=(joker,) + s.room[1:], discard=tuple(c for c in s.discard if c != joker) + (s.room[0],))
    assert preview(t, take(0)).short == "nothing"
    after = apply(t, take(0))
    assert after.dungeon == t.dungeon and after.pending[0] == IN_UNDERWORLD
    assert "does nothing" in after.events[0].text
