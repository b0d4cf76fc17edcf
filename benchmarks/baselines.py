"""Two plain players over the engine, so the coach's number has a scale. Each sees only what a player sees: the
room, health, weapon and its kills, and which cards have been played (never the order of the dungeon).

- ``smallest_first``: one card at a time, by fixed priorities: a better weapon, then a potion that heals, then
  the smallest monster (with the weapon when it can and that hurts less), and whatever is left last; it avoids a
  room whose monsters together would kill it.
- ``greedy_room``: at the start of each room it tries every way of facing it (each order of the cards it must
  play, each monster barehanded or armed) and takes the one that leaves it best off by a simple count (health
  plus what the weapon is still worth), or avoids the room when every way of facing it kills it or costs more
  than ``AVOID_COST`` of that count. It looks no further than the room.

``play(policy, rules, deck)`` plays a whole deal and returns the final state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.engine import Action, Rules, apply, legal_actions, new_game
from games.engine.actions import AVOID, AVOID_ACTION, fight_with_weapon, take
from games.engine.cards import MONSTER, POTION, WEAPON, Card
from games.engine.state import State

Policy = Callable[[State], Sequence[Action]]  # the next action or actions (a plan for the turn)

AVOID_COST = 8  # greedy_room avoids a room whose best face loses more than this much of its count
SMALLEST_MONSTER = 2


def play(policy: Policy, rules: Rules, deck: Sequence[Card]) -> State:
    state = new_game(rules, deck=tuple(deck))
    while not state.over:
        for action in policy(state):
            state = apply(state, action)
    return state


# --- always the smallest monster --------------------------------------------------------------------------

def smallest_first(state: State) -> list[Action]:
    actions = legal_actions(state)
    cards = [(i, card) for i, card in enumerate(state.room) if card is not None]
    if any(a.kind == AVOID for a in actions) and _room_would_kill(state, cards):
        return [AVOID_ACTION]
    weapons = [(card.value, i) for i, card in cards if card.kind == WEAPON]
    if weapons and (state.weapon is None or max(weapons)[0] > _weapon_worth(state)):
        return [take(max(weapons)[1])]
    potions = [(card.value, i) for i, card in cards if card.kind == POTION]
    if potions and not state.potion_used and state.health < state.rules.max_health:
        return [take(max(potions)[1])]
    monsters = sorted((card.value, i) for i, card in cards if card.kind == MONSTER)
    if monsters:
        _, i = monsters[0]
        armed = fight_with_weapon(i)
        return [armed if armed in actions else take(i)]
    return [take(cards[0][0])]  # a worse weapon or a potion that heals nothing


def _room_would_kill(state: State, cards: list[tuple[int, Card]]) -> bool:
    """Facing the whole room barehanded, less the potions' help, would take all the health."""
    damage = sum(card.value for _, card in cards if card.kind == MONSTER)
    heal = max((card.value for _, card in cards if card.kind == POTION), default=0)
    return damage >= state.health + heal


def _weapon_worth(state: State) -> float:
    """What the equipped weapon is still worth: its value, less as its limit closes in on the smallest monster."""
    if state.weapon is None:
        return 0
    if not state.kills:
        return state.weapon.value
    room_left = max(0, state.kills[-1].value - SMALLEST_MONSTER)  # the monsters it may still fight
    return state.weapon.value * room_left / 12


# --- the best way through the room alone ----------------------------------------------------------------

def greedy_room(state: State) -> list[Action]:
    """The whole turn's plan, chosen at its start (the actions are applied in order)."""
    now = _count(state)
    best: tuple[float, list[Action]] | None = None
    for plan, after in _ways_through(state):
        value = _count(after)
        if best is None or value > best[0]:
            best = (value, plan)
    assert best is not None  # a room in play always has a way through it
    if state.can_avoid and (best[0] == float("-inf") or now - best[0] > AVOID_COST):
        return [AVOID_ACTION]
    return best[1]


def _ways_through(state: State) -> list[tuple[list[Action], State]]:
    """Every sequence of card plays that ends this turn (or the game), with the state it leaves."""
    done: list[tuple[list[Action], State]] = []
    todo: list[tuple[list[Action], State]] = [([], state)]
    while todo:
        plan, s = todo.pop()
        for action in legal_actions(s):
            if action.kind == AVOID:
                continue
            after = apply(s, action)
            if after.over or after.turn != state.turn:
                done.append((plan + [action], after))
            else:
                todo.append((plan + [action], after))
    return done


def _count(state: State) -> float:
    """Health plus the weapon's worth; a finished game counts its score, a death as the worst there is. Reads
    nothing of the next room (dealt once the turn ends), only health, the weapon and its kills."""
    if state.status == "dead":
        return float("-inf")
    if state.status == "won":
        return 1000 + (state.score or 0)
    return state.health + _weapon_worth(state)


PLAYERS: dict[str, Policy] = {"smallest": smallest_first, "greedy": greedy_room}

__all__ = ["AVOID_COST", "PLAYERS", "Policy", "greedy_room", "play", "smallest_first"]
