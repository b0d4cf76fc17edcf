"""The score of a game given up (or left unfinished past its deadline) at a position.

A forfeit must never beat dying: it counts every monster not yet slain against the player — in the dungeon, in
the room and in the underworld — whatever the rules say a death counts. Any death reachable from the position
scores at least this, because a monster can only leave that total by being slain.
"""

from __future__ import annotations

from .game import unresolved_monsters


def forfeit_score(state) -> int:
    return -unresolved_monsters(state, include_room=True)
