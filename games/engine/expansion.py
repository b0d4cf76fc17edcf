"""The expansion's cards and the phases they open: the merchant, the joker, the necromancer and its
underworld, and the crossroads between loops (docs/RULES.md: The expansion).

A phase waits in ``State.pending`` (see ``state.py``) for the player's choice; ``playing.apply`` hands the choice
here. These steps edit the list copy of the state as ``turns.py`` does; the underworld's raised room ends with
every other room, in ``turns.after_card``.
"""

from __future__ import annotations

from games.engine.cards import JOKER, MERCHANT, POTION, WEAPON, Card
from games.engine.state import (
    AT_MERCHANT,
    AT_NECROMANCER,
    IN_UNDERWORLD,
    MERCHANT_HEAL,
    MERCHANT_OFFER,
    NECROMANCER_COST,
    ROOM_SIZE,
    WON,
    weapon_price,
)
from games.engine.turns import (
    G_AVOIDED_LAST,
    G_DISCARD,
    G_DUNGEON,
    G_HEALTH,
    G_LOOP,
    G_PENDING,
    G_POTION_USED,
    G_ROOM,
    G_RULES,
    G_STATUS,
    after_card,
    equip,
    say,
    shuffle_cards,
    start_turn,
)


def meet(g: list, card: Card) -> None:
    """An expansion card taken from the room (its slot is already blank and it is the last card)."""
    if g[G_PENDING]:  # only the underworld has a pending phase while cards are taken
        # Raised expansion cards are dead: no shop, joker or second necromancer down there.
        g[G_DISCARD] += (card,)
        say(g, "dead", ("{} was raised too, but does nothing.", card))
    elif card.kind == MERCHANT:
        _open_shop(g, card)
        return
    elif card.kind == JOKER:
        g[G_DUNGEON] = shuffle_cards(g, g[G_DUNGEON])
        g[G_DISCARD] += (card,)
        say(g, "joker", ("{} The joker laughs: the dungeon is shuffled.", card))
    else:  # NECROMANCER
        g[G_PENDING] = (AT_NECROMANCER, card)
        say(g, "necromancer", ("{} A necromancer offers to raise the graveyard for {} health.", card,
                                NECROMANCER_COST))
        return
    after_card(g)


def _open_shop(g: list, merchant: Card) -> None:
    """The merchant offers cards from the shuffled graveyard; with nothing to buy, the player leaves at once."""
    pile = shuffle_cards(g, g[G_DISCARD])
    offer, g[G_DISCARD] = pile[:MERCHANT_OFFER], pile[MERCHANT_OFFER:]
    g[G_PENDING] = (AT_MERCHANT, offer, merchant)
    if not any(c.kind in (POTION, WEAPON) for c in offer):
        if offer:
            say(g, "merchant", ("{} The merchant has nothing you can buy ({}).", merchant, offer))
        else:
            say(g, "merchant", ("{} The merchant has nothing you can buy.", merchant))
        merchant_choice(g, None)
        return
    say(g, "merchant", ("{} The merchant shows {}.", merchant, offer))


def merchant_choice(g: list, index: int | None) -> None:
    """Buy the offer's card ``index``, or leave (None); the rest of the offer and the merchant are discarded."""
    _, offer, merchant = g[G_PENDING]
    g[G_PENDING] = ()
    bought = offer[index] if index is not None else None
    g[G_DISCARD] += tuple([c for i, c in enumerate(offer) if i != index])
    if bought is None:
        say(g, "merchant", "You leave the merchant.")
    elif bought.kind == POTION:
        health = g[G_HEALTH]
        healed = min(g[G_RULES].max_health, health + MERCHANT_HEAL) - health
        g[G_HEALTH] = health + healed
        g[G_DISCARD] += (bought,)
        say(g, "merchant", ("Bought {} for nothing: healed {}.", bought, healed), healed)
    else:
        price = weapon_price(g[G_LOOP])
        g[G_HEALTH] -= price
        say(g, "merchant", ("Bought {} for {} health.", bought, price), price)
        equip(g, bought)
    g[G_DISCARD] += (merchant,)
    after_card(g)


def necromancer_choice(g: list, pay: bool) -> None:
    """Pay and go down to a room raised from the graveyard (it ends in ``turns.after_card``), or decline."""
    _, necro = g[G_PENDING]
    if not pay:
        g[G_PENDING] = ()
        g[G_DISCARD] += (necro,)
        say(g, "necromancer", "You turn the necromancer away.")
        after_card(g)
        return
    g[G_HEALTH] -= NECROMANCER_COST
    pile = shuffle_cards(g, g[G_DISCARD])
    raised, g[G_DISCARD] = pile[:ROOM_SIZE], pile[ROOM_SIZE:]
    g[G_PENDING] = (IN_UNDERWORLD, g[G_ROOM], g[G_POTION_USED], necro)
    g[G_ROOM] = raised
    g[G_POTION_USED] = False
    say(g, "necromancer", ("Paid {} health. The dead rise: {}. Face 3 of them.", NECROMANCER_COST, raised),
         NECROMANCER_COST)


def crossroads_choice(g: list, loop: bool) -> None:
    """Loop (the graveyard and the cards left become the dungeon) or retire with the score."""
    g[G_PENDING] = ()
    if not loop:
        g[G_STATUS] = WON
        say(g, "retire", ("You retire after {} loop(s).", g[G_LOOP]))
        return
    leftovers = tuple([c for c in g[G_ROOM] if c is not None])
    g[G_DUNGEON] = shuffle_cards(g, g[G_DISCARD] + leftovers)
    g[G_DISCARD] = ()
    g[G_ROOM] = ()
    g[G_LOOP] += 1
    g[G_AVOIDED_LAST] = False
    say(g, "loop", ("Loop {}: the graveyard becomes the dungeon.", g[G_LOOP]))
    start_turn(g, ())
