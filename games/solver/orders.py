"""What a player knows of the dungeon, and the orders it could be in.

Its top is the cards never seen yet, known only as a set; under them lie the rooms avoided, in the order they went
there (``unseen_count``). Every order of the unseen cards is as likely as any other. The coach is only ever given the
position as the player sees it (``visible``: the unseen cards in a fixed order), and draws its orders from a
generator seeded with what the player knows (the rules, the unseen cards as a set, the avoided cards in their order),
so the real order of the deal cannot reach the advice.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import permutations
from math import factorial, prod

from games.engine import State
from games.engine.actions import AVOID
from games.engine.cards import Card

EXACT_ORDERS = 24  # at most this many distinct orders: every one is solved, the figures are exact
ROOM_SIZE = 4


def unseen_count(state: State) -> int:
    """How many cards at the top of the dungeon were never seen.

    Rooms are filled from the top and an avoided room goes under the dungeon, so the unseen cards are always its
    top; while any are left no avoided card has been drawn again, so the avoided ones are four per avoid."""
    avoids = sum(1 for action in state.history if action.kind == AVOID)
    return max(0, len(state.dungeon) - ROOM_SIZE * avoids)


def _canonical(cards) -> list[Card]:
    return sorted(cards, key=lambda card: (card.kind, card.value, card.suit))


def visible(state: State) -> State:
    """``state`` as the player sees it: the unseen cards in a fixed order, no trace of the deal's real order."""
    u = unseen_count(state)
    dungeon = tuple(_canonical(state.dungeon[:u])) + state.dungeon[u:]
    return state._replace(dungeon=dungeon, start_deck=(), rng_seed=0)


def _seed(state: State, u: int) -> int:
    """A seed from what the player knows of the dungeon (the same for every move of a turn)."""
    text = "|".join([state.rules.key, " ".join(c.code for c in state.dungeon[:u]),
                     " ".join(c.code for c in state.dungeon[u:])])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def distinct_orders(cards: Sequence[Card]) -> int:
    """How many orders of ``cards`` differ for the game (cards of the same kind and value are alike)."""
    alike = Counter((card.kind, card.value) for card in cards)
    return factorial(len(cards)) // prod(factorial(c) for c in alike.values())


def every_order(state: State) -> bool:
    """Whether the coach judges every order of the unseen cards in ``state`` (then its figures are exact)."""
    u = unseen_count(state)
    return distinct_orders(state.dungeon[:u]) <= max(EXACT_ORDERS, 1)


def orders(state: State, samples: int) -> tuple[list[tuple[Card, ...]], bool]:
    """The dungeons the player could be facing (each as likely as another) and whether they are all of them.

    ``state`` must be ``visible``: its unseen cards in the fixed order."""
    u = unseen_count(state)
    unseen, known = state.dungeon[:u], state.dungeon[u:]
    if every_order(state):
        return [order + known for order in _all_orders(unseen)], True
    return drawn_orders(unseen, known, _seed(state, u), samples), False


def drawn_orders(unseen: Sequence[Card], known: tuple[Card, ...], seed: int, count: int
                 ) -> list[tuple[Card, ...]]:
    """``count`` dungeons: ``unseen`` shuffled by a generator seeded with ``seed``, then ``known`` under them."""
    rng = random.Random(seed)
    drawn = []
    for _ in range(count):
        order = list(unseen)
        rng.shuffle(order)
        drawn.append(tuple(order) + known)
    return drawn


def _all_orders(cards: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """Every order of ``cards`` that differs for the game, once each (one card stands for its alike ones)."""
    by_class: dict[tuple, list[Card]] = {}
    for card in cards:
        by_class.setdefault((card.kind, card.value), []).append(card)
    seen = set()
    for order in permutations(range(len(cards))):
        classes = tuple((cards[i].kind, cards[i].value) for i in order)
        if classes in seen:
            continue
        seen.add(classes)
        pools = {key: list(group) for key, group in by_class.items()}
        yield tuple(pools[key].pop(0) for key in classes)
