"""An independent exhaustive search built only on the engine's ``legal_actions`` and ``apply``.

The engine's ``new_game`` wants the rules' full deck, so small test deals start from a ``State`` built
directly: the first room dealt from the top, exactly as ``new_game`` would leave it.
"""

from __future__ import annotations

from games.engine import PLAYING, WON, Event, Rules, State, apply, legal_actions, score
from games.engine.rules import EARLY, FINAL_ROOM


def start_state(rules: Rules, deck) -> State:
    deck = tuple(deck)
    room, dungeon = deck[:4], deck[4:]
    status = WON if rules.ending == EARLY and len(room) < 4 else PLAYING
    final = ""
    if rules.ending == FINAL_ROOM and not dungeon:
        final = " This is the final room: every card must be resolved."
    shown = (Event(1, "room", f"Room 1: {' '.join(c.label for c in room)}.{final}"),)
    return State(rules=rules, start_deck=deck, rng_seed=0, dungeon=dungeon, room=room, discard=(), weapon=None,
                 kills=(), health=rules.start_health, turn=1, potion_used=False, avoided_last=False,
                 last_card=None, status=status, shuffles=0, loop=1, pending=(), history=(), events=shown, log=shown)


def best_score(rules: Rules, deck) -> int:
    """The best final score over every sequence of legal actions (memoised on what decides the future)."""
    memo: dict[tuple, int] = {}

    def best(s: State) -> int:
        if s.status != PLAYING:
            return score(s)
        key = (s.dungeon, s.room, s.weapon, s.kills[-1:], s.health, s.potion_used, s.avoided_last, s.last_card)
        found = memo.get(key)
        if found is None:
            found = memo[key] = max(best(apply(s, a)) for a in legal_actions(s))
        return found

    return best(start_state(rules, deck))


def play(rules: Rules, deck, actions) -> State:
    s = start_state(rules, deck)
    for action in actions:
        s = apply(s, action)
    return s


def best_from(s: State, memo: dict | None = None) -> int:
    """The best final score from any position ``s`` (mid-room included), by trying every legal action."""
    memo = {} if memo is None else memo
    if s.status != PLAYING:
        return score(s)
    key = (s.dungeon, s.room, s.weapon, s.kills[-1:], s.health, s.potion_used, s.avoided_last, s.last_card)
    found = memo.get(key)
    if found is None:
        found = memo[key] = max(best_from(apply(s, a), memo) for a in legal_actions(s))
    return found
