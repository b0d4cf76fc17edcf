"""What may be done now: the legal actions, why an action is refused (``refusal``, ``IllegalAction``), and what
an action would do (``preview``, ``Outcome``), for the buttons and the solver alike.

Each refusal is a sentence a player reads (``words.py`` lists them for translation); ``playing.apply`` raises
``IllegalAction`` with it.
"""

from __future__ import annotations

from itertools import compress
from typing import NamedTuple

from games.engine import actions as A
from games.engine.actions import AVOID_ACTION, Action
from games.engine.cards import JOKER, MERCHANT, MONSTER, NECROMANCER, POTION, WEAPON, Card
from games.engine.rules import LOWER_OR_EQUAL, MAX_LOOPS
from games.engine.state import (
    AT_CROSSROADS,
    AT_MERCHANT,
    AT_NECROMANCER,
    IN_UNDERWORLD,
    MERCHANT_HEAL,
    NECROMANCER_COST,
    PLAYING,
    ROOM_SIZE,
    State,
    avoid_refusal,
    weapon_price,
)


class IllegalAction(ValueError):
    """The action is not allowed now; the message says why, in player words."""


def _weapon_refusal(s: State, monster: Card) -> str | None:
    if s.weapon is None:
        return f"You have no weapon; {monster.label} must be fought barehanded."
    if s.kills:
        last = s.kills[-1]
        if not s.rules.weapon_allows(monster.value, last.value):
            limit = "lower than or equal to" if s.rules.weapon_limit == LOWER_OR_EQUAL else "lower than"
            return (f"Your {s.weapon.label} last slew {last.label}; {monster.label} ({monster.value}) is too "
                    f"strong for it (it can only hit monsters {limit} {last.value}).")
    return None


def legal_actions(s: State) -> list[Action]:
    """Every action allowed now, in a stable order."""
    (rules, _, _, dungeon, room, _, weapon, kills, _, _, _, avoided_last, _, status, _, _, pending, _, _, _) = s[:]
    if status != PLAYING:
        return []
    if pending and pending[0] != IN_UNDERWORLD:
        return _choice_actions(s)
    # The underworld is a room too, but one that cannot be avoided.
    out = [AVOID_ACTION] if not pending and not avoided_last and dungeon and None not in room else []
    if weapon is None:
        out += compress(_TAKES, room)  # a take for each card still in the room
        return out
    # The weapon hits monsters whose value is below ``limit``.
    limit = kills[-1].value + (rules.weapon_limit == LOWER_OR_EQUAL) if kills else 1 << 30
    i = 0
    for card in room:
        if card is not None:
            out.append(_TAKES[i])
            if card.kind == MONSTER and card.value < limit:
                out.append(_WEAPON_FIGHTS[i])
        i += 1
    return out


_TAKES = tuple(A.take(i) for i in range(ROOM_SIZE))
_WEAPON_FIGHTS = tuple(A.fight_with_weapon(i) for i in range(ROOM_SIZE))


def _choice_actions(s: State) -> list[Action]:
    """The choices of an expansion card's sub-phase (merchant, necromancer, loop or retire)."""
    phase = s.pending[0]
    if phase == AT_MERCHANT:
        offer = s.pending[1]
        return [A.buy(i) for i, c in enumerate(offer) if _buy_refusal(s, c) is None] + [A.LEAVE_ACTION]
    if phase == AT_NECROMANCER:
        return ([A.RAISE_ACTION] if _raise_refusal(s) is None else []) + [A.DECLINE_ACTION]
    return ([A.LOOP_ACTION] if _loop_refusal(s) is None else []) + [A.RETIRE_ACTION]


def _buy_refusal(s: State, card: Card) -> str | None:
    if card.kind == POTION:
        return None
    if card.kind == WEAPON:
        price = weapon_price(s.loop)
        if s.health <= price:
            return f"{card.label} costs {price} health and you have only {s.health}."
        return None
    return f"The merchant does not sell {card.label}."


def _raise_refusal(s: State) -> str | None:
    if s.health <= NECROMANCER_COST:
        return f"The necromancer asks {NECROMANCER_COST} health and you have only {s.health}."
    if len(s.discard) < ROOM_SIZE:
        return f"The graveyard holds fewer than {ROOM_SIZE} cards; there is nothing to raise."
    return None


def _loop_refusal(s: State) -> str | None:
    if s.loop >= MAX_LOOPS:
        return f"The dungeon can be looped at most {MAX_LOOPS} times."
    if len(s.discard) + sum(1 for c in s.room if c is not None) == 0:
        return "The graveyard is empty; there is no dungeon to loop into."
    return None


# --- previews -----------------------------------------------------------------------

class Outcome(NamedTuple):
    """What an action would do, shown on a button before it is pressed."""

    action: Action
    card: Card | None
    damage: int = 0
    heal: int = 0
    equips: bool = False
    wasted: bool = False  # a second potion this turn
    lethal: bool = False
    note: str = ""  # a word for cards that are neither damage nor heal

    @property
    def short(self) -> str:
        if self.action.kind == A.AVOID:
            return "avoid"
        if self.damage:
            return f"−{self.damage}" + (" ☠" if self.lethal else "")
        if self.heal:
            return f"+{self.heal}"
        if self.wasted:
            return "wasted"
        if self.equips:
            return "equip"
        if self.note:
            return self.note
        return "0" if self.card is not None and self.card.kind == MONSTER else ""


def preview(s: State, action: Action) -> Outcome:
    """The outcome of a legal action without applying it. Raises IllegalAction otherwise."""
    reason = refusal(s, action)
    if reason:
        raise IllegalAction(reason)
    kind = action.kind
    if kind in (A.TAKE, A.FIGHT_WITH_WEAPON):
        card = s.room[action.index]
        assert card is not None  # refusal: a card of the room
        if card.kind == MONSTER:
            damage = card.value
            if kind == A.FIGHT_WITH_WEAPON:
                damage = max(0, card.value - s.weapon.value)  # type: ignore[union-attr]  # refusal: armed
            return Outcome(action, card, damage=damage, lethal=damage >= s.health)
        if card.kind == POTION:
            if s.potion_used:
                return Outcome(action, card, wasted=True)
            return Outcome(action, card, heal=min(s.rules.max_health, s.health + card.value) - s.health)
        if card.kind == WEAPON:
            return Outcome(action, card, equips=True)
        if s.pending:  # raised from the graveyard: expansion cards do nothing there
            return Outcome(action, card, note="nothing")
        return Outcome(action, card, note={MERCHANT: "shop", JOKER: "shuffle", NECROMANCER: "raise"}[card.kind])
    if kind == A.BUY:
        card = s.pending[1][action.index]
        if card.kind == POTION:
            return Outcome(action, card, heal=min(s.rules.max_health, s.health + MERCHANT_HEAL) - s.health)
        return Outcome(action, card, damage=weapon_price(s.loop), equips=True)
    if kind == A.RAISE:
        return Outcome(action, None, damage=NECROMANCER_COST)
    return Outcome(action, None)


def refusal(s: State, action: Action) -> str | None:
    """Why ``action`` is not allowed now, or None when it is."""
    if s.status != PLAYING:
        return "The game is over."
    kind = action.kind
    phase = s.pending[0] if s.pending else None
    if kind == A.AVOID:
        return avoid_refusal(s)
    if kind in (A.TAKE, A.FIGHT_WITH_WEAPON):
        if phase not in (None, IN_UNDERWORLD):
            return _phase_hint(phase)
        if not 0 <= action.index < len(s.room):
            return f"There is no card {action.index + 1} in this room."
        card = s.room[action.index]
        if card is None:
            return "That card has already been played this turn."
        if kind == A.FIGHT_WITH_WEAPON:
            if card.kind != MONSTER:
                return f"Only monsters can be fought; {card.label} is not one."
            return _weapon_refusal(s, card)
        return None
    if kind in (A.BUY, A.LEAVE):
        if phase != AT_MERCHANT:
            return "There is no merchant here."
        if kind == A.BUY:
            offer = s.pending[1]
            if not 0 <= action.index < len(offer):
                return "The merchant has no such card."
            return _buy_refusal(s, offer[action.index])
        return None
    if kind in (A.RAISE, A.DECLINE):
        if phase != AT_NECROMANCER:
            return "There is no necromancer here."
        return _raise_refusal(s) if kind == A.RAISE else None
    if kind in (A.LOOP, A.RETIRE):
        if phase != AT_CROSSROADS:
            return "You can only loop or retire after clearing the dungeon."
        return _loop_refusal(s) if kind == A.LOOP else None
    return "Unknown action."  # pragma: no cover


def _phase_hint(phase: str) -> str:
    return {
        AT_MERCHANT: "First buy something from the merchant, or leave.",
        AT_NECROMANCER: "First pay the necromancer, or decline.",
        AT_CROSSROADS: "You cleared the dungeon: loop again, or retire with your score.",
    }[phase]
