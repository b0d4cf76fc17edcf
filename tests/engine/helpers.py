"""Building exact situations for table tests."""

from __future__ import annotations

from games.engine import Rules, State, new_game
from games.engine.cards import parse_card


def deck_starting(rules: Rules, *codes: str):
    """The rules' deck with ``codes`` on top, in that order; the rest in canonical order."""
    full = rules.full_deck()
    top = [parse_card(c, full) for c in codes]
    return tuple(top) + tuple(c for c in full if c not in top)


def game_starting(rules: Rules, *codes: str) -> State:
    return new_game(rules, deck=deck_starting(rules, *codes))


def cards(rules: Rules, *codes: str):
    full = rules.full_deck()
    return tuple(parse_card(c, full) for c in codes)


def situation(rules: Rules, *, room, dungeon=(), weapon=None, kills=(), health=None, **extra) -> State:
    """A mid-game state: the named cards where asked, every other card in the discard pile."""
    full = rules.full_deck()
    room_cards = cards(rules, *room)
    dungeon_cards = cards(rules, *dungeon)
    weapon_card = parse_card(weapon, full) if weapon else None
    kill_cards = cards(rules, *kills)
    placed = set(room_cards) | set(dungeon_cards) | set(kill_cards) | ({weapon_card} if weapon_card else set())
    discard = tuple(c for c in full if c not in placed)
    base = new_game(rules, deck=full)
    return base._replace(
        room=room_cards, dungeon=dungeon_cards, discard=discard, weapon=weapon_card, kills=kill_cards,
        health=rules.start_health if health is None else health, turn=5, history=(), events=(), log=(), **extra,
    )
