"""Actions a player can take, with a compact text code for logs and button ids.

| code | action |
|------|--------|
| ``A``  | avoid the room |
| ``T2`` | take room card 2 (0-based): equip, drink, fight barehanded, or meet an expansion card |
| ``W2`` | fight the monster in slot 2 with the equipped weapon |
| ``B3`` | buy merchant offer 3 |
| ``L``  | leave the merchant |
| ``R``  | pay the necromancer |
| ``D``  | decline the necromancer |
| ``O``  | loop: descend again (looping) |
| ``E``  | end the run and keep the score (looping) |
"""

from __future__ import annotations

from typing import NamedTuple

from games.engine.digits import whole_number

AVOID = "avoid"
TAKE = "take"
FIGHT_WITH_WEAPON = "weapon"
BUY = "buy"
LEAVE = "leave"
RAISE = "raise"
DECLINE = "decline"
LOOP = "loop"
RETIRE = "retire"

_CODE = {AVOID: "A", TAKE: "T", FIGHT_WITH_WEAPON: "W", BUY: "B", LEAVE: "L",
         RAISE: "R", DECLINE: "D", LOOP: "O", RETIRE: "E"}
_KIND = {v: k for k, v in _CODE.items()}
_INDEXED = {TAKE, FIGHT_WITH_WEAPON, BUY}


class ActionParseError(ValueError):
    pass


class Action(NamedTuple):
    kind: str
    index: int = -1  # type: ignore[assignment]  # room slot or merchant offer, -1 when not used (hides tuple.index)

    @property
    def code(self) -> str:
        return _CODES[self]

    @classmethod
    def parse(cls, code: str) -> Action:
        code = code.strip().upper()
        kind = _KIND.get(code[:1])
        if kind is None:
            raise ActionParseError(f"{_quoted(code)} is not an action code")
        if kind in _INDEXED:
            index = whole_number(code[1:], digits=2)
            if index is None:
                raise ActionParseError(f"{_quoted(code)} needs a card number")
            return _action(kind, index)
        if len(code) != 1:
            raise ActionParseError(f"{_quoted(code)} is not an action code")
        return _action(kind)


def _quoted(code: str, limit: int = 12) -> str:
    """A code as a refusal quotes it: at most ``limit`` characters (a code is 3)."""
    return repr(code if len(code) <= limit else code[:limit] + "…")


# Shared instances: actions are values, so the engine hands out the same objects.
_CACHE: dict[tuple[str, int], Action] = {}


def _action(kind: str, index: int = -1) -> Action:
    key = (kind, index)
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = Action(kind, index)
    return found


def avoid() -> Action:
    return _action(AVOID)


def take(slot: int) -> Action:
    return _action(TAKE, slot)


def fight_with_weapon(slot: int) -> Action:
    return _action(FIGHT_WITH_WEAPON, slot)


def buy(offer: int) -> Action:
    return _action(BUY, offer)


LEAVE_ACTION = _action(LEAVE)
RAISE_ACTION = _action(RAISE)
DECLINE_ACTION = _action(DECLINE)
LOOP_ACTION = _action(LOOP)
RETIRE_ACTION = _action(RETIRE)
AVOID_ACTION = _action(AVOID)


class _Codes(dict):
    """Each action's code, written once: a stored game writes its whole history at every move."""

    def __missing__(self, action: Action) -> str:
        code = self[action] = _CODE[action.kind] + (str(action.index) if action.kind in _INDEXED else "")
        return code


_CODES: dict[Action, str] = _Codes()


def encode(actions) -> str:
    return " ".join(map(_CODES.__getitem__, actions))


def decode(text: str) -> tuple[Action, ...]:
    return tuple(Action.parse(part) for part in text.split())
