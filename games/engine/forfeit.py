"""The score of giving up: what an abandoned or expired counted attempt is worth.

A forfeit must never beat dying on the same deal, or giving up would be the winning move whenever a death looms.
So it costs every monster not yet slain — the dungeon, the room (all of it, whatever the rules' death-score option
says) and the room left behind for the underworld — which is at least what any death from here would cost. Under
the expansions that bring slain monsters back (a necromancer still to come raises the graveyard; a loop still to
go turns the graveyard into the next dungeon) a later death can cost monsters already slain, so there every
monster of the deal counts.
"""

from __future__ import annotations

from games.engine.cards import MONSTER, NECROMANCER, Card
from games.engine.rules import MAX_LOOPS
from games.engine.state import AT_NECROMANCER, IN_UNDERWORLD, State, all_cards


def _slain_can_return(state: State) -> bool:
    rules = state.rules
    if rules.looping and state.loop < MAX_LOOPS:
        return True
    if not rules.necromancers:
        return False
    if state.pending and state.pending[0] == AT_NECROMANCER:
        return True
    return any(c is not None and c.kind == NECROMANCER for c in (*state.dungeon, *state.room))


def forfeit_score(state: State) -> int:
    """The score of giving up at ``state``: minus the values of every monster not yet slain (see the module)."""
    cards: list[Card | None]
    if _slain_can_return(state):
        cards = [*all_cards(state)]
    else:
        cards = [*state.dungeon, *state.room]
        if state.pending and state.pending[0] == IN_UNDERWORLD:
            cards += state.pending[1]
    return -sum(c.value for c in cards if c is not None and c.kind == MONSTER)


__all__ = ["forfeit_score"]
