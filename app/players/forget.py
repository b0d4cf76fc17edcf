"""Forgetting a player, whoever asks (the player themselves, or an operator answering a deletion request).

Everything kept about the player goes in one transaction (``Store.forget_player``, storage/forget.py): every game
(the one in progress too), moves, daily attempts, kept names, share posts, the streak reminder, board rows and any
duel not finished; a finished duel stays for the other player, with this player's seat anonymous.
"""

from __future__ import annotations

import logging
from typing import NamedTuple

from storage.store import Store

log = logging.getLogger(__name__)


class Forgotten(NamedTuple):
    """What was deleted: a count per kind of record (``"games"``, ``"reminders"``, ``"duels deleted"``...)."""

    counts: dict[str, int]

    @property
    def anything(self) -> bool:
        """Something was kept about the player (and is gone now)."""
        return any(self.counts.values())


async def forget_player(store: Store, user_id: int) -> Forgotten:
    """Delete everything kept about ``user_id``; what went. Logged with the counts, never with anything else."""
    counts = await store.forget_player(user_id)
    log.info("user %s deleted their data: %s", user_id,
             ", ".join(f"{n} {name}" for name, n in counts.items() if n) or "nothing was kept")
    return Forgotten(counts)


__all__ = ["Forgotten", "forget_player"]
