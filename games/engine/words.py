"""The engine's words: every event and refusal it writes, as ``str.format`` templates with ``{}`` fields.

The engine writes English (players of the terminal read it, and saved games keep it). These templates let
a reader translate that text afterwards: ``template_of(text)`` recognises which template a text was made
from and returns ``(template, *parts)``; parts are cards as written (``♠Q``), room contents and numbers,
which read the same in every language. Each template is marked with ``N_`` for the message catalogues.
A test plays games under every preset and checks that everything the engine writes is recognised here.
"""

from __future__ import annotations

import re
from functools import cache


def N_(text: str) -> str:  # noqa: N802 - gettext's marker, as in games.i18n: the engine imports nothing above it
    """Mark a template for the message catalogues (``games.i18n`` translates it where it is shown)."""
    return text


# What a move did (``Event.text``).
EVENTS = (
    N_("Room {}: {}."),
    N_("Room {}: {}. This is the final room: every card must be resolved."),
    N_("The dungeon cannot fill another room: you made it out!"),
    N_("Avoided the room; {} went under the dungeon."),
    N_("Fought {} with {}: took {}."),
    N_("Fought {} barehanded: took {}."),
    N_("You died."),
    N_("Drank {}: only one potion works per turn, it did nothing."),
    N_("Drank {}: healed {}."),
    N_("Equipped {}, discarding {}."),
    N_("Equipped {}."),
    N_("{} was raised too, but does nothing."),
    N_("{} The joker laughs: the dungeon is shuffled."),
    N_("{} A necromancer offers to raise the graveyard for {} health."),
    N_("The final room is cleared: you survived the dungeon!"),
    N_("Loop {} cleared. Descend again, or retire with your score?"),
    N_("{} The merchant has nothing you can buy ({})."),
    N_("{} The merchant has nothing you can buy."),
    N_("{} The merchant shows {}."),
    N_("You leave the merchant."),
    N_("Bought {} for nothing: healed {}."),
    N_("Bought {} for {} health."),
    N_("You turn the necromancer away."),
    N_("Paid {} health. The dead rise: {}. Face 3 of them."),
    N_("The raised room is done; back to the dungeon."),
    N_("You retire after {} loop(s)."),
    N_("Loop {}: the graveyard becomes the dungeon."),
)

# Why an action is not allowed (``refusal``, ``IllegalAction``).
REFUSALS = (
    N_("The game is over."),
    N_("Finish what you are doing first."),
    N_("You avoided the last room, so you must face this one."),
    N_("The dungeon is empty: this room cannot be avoided."),
    N_("You have started facing this room; it can no longer be avoided."),
    N_("You have no weapon; {} must be fought barehanded."),
    N_("Your {} last slew {}; {} ({}) is too strong for it (it can only hit monsters lower than or equal to {})."),
    N_("Your {} last slew {}; {} ({}) is too strong for it (it can only hit monsters lower than {})."),
    N_("{} costs {} health and you have only {}."),
    N_("The merchant does not sell {}."),
    N_("The necromancer asks {} health and you have only {}."),
    N_("The graveyard holds fewer than {} cards; there is nothing to raise."),
    N_("The dungeon can be looped at most {} times."),
    N_("The graveyard is empty; there is no dungeon to loop into."),
    N_("First buy something from the merchant, or leave."),
    N_("First pay the necromancer, or decline."),
    N_("You cleared the dungeon: loop again, or retire with your score."),
    N_("There is no card {} in this room."),
    N_("That card has already been played this turn."),
    N_("Only monsters can be fought; {} is not one."),
    N_("There is no merchant here."),
    N_("The merchant has no such card."),
    N_("There is no necromancer here."),
    N_("You can only loop or retire after clearing the dungeon."),
    N_("Unknown action."),
)


@cache
def _patterns() -> tuple[tuple[re.Pattern, str], ...]:
    # Longer templates first, so "Room {}: {}." never swallows the final room's longer sentence.
    templates = sorted(EVENTS + REFUSALS, key=lambda t: len(t.replace("{}", "")), reverse=True)
    return tuple((re.compile("(.+?)".join(map(re.escape, t.split("{}"))), re.DOTALL), t) for t in templates)


def template_of(text: str) -> tuple | None:
    """``(template, *parts)`` of a text the engine wrote, or None for text it did not write."""
    for pattern, template in _patterns():
        found = pattern.fullmatch(text)
        if found is not None:
            return (template, *found.groups())
    return None
