"""The par cache: the best score (and an optimal line) of any deal the solver has already solved."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from games.engine import Card, deck_codes
from storage.backends.base import Db, Tx
from storage.models import to_micros

GET_PAR = "SELECT best_score, line FROM par_cache WHERE rules_key = $1 AND deck = $2"
PUT_PAR = ("INSERT INTO par_cache (rules_key, deck, best_score, line, created_at) VALUES ($1, $2, $3, $4, $5) "
           "ON CONFLICT (rules_key, deck) DO UPDATE SET best_score = excluded.best_score, line = excluded.line, "
           "created_at = excluded.created_at")


class Pars:
    def __init__(self, db: Db, now: Callable[[], datetime]) -> None:
        self.db = db
        self.now = now

    async def get_par(self, rules_key: str, deck: str | tuple[Card, ...]) -> tuple[int, str] | None:
        codes = deck if isinstance(deck, str) else deck_codes(deck)
        rows = await self.db.read(GET_PAR, (rules_key, codes))
        return (rows[0][0], rows[0][1]) if rows else None

    async def put_par(self, rules_key: str, deck: str | tuple[Card, ...], best_score: int, line: str) -> None:
        codes = deck if isinstance(deck, str) else deck_codes(deck)
        now_us = to_micros(self.now())

        async def body(tx: Tx) -> None:
            await tx.execute(PUT_PAR, (rules_key, codes, best_score, line, now_us))

        await self.db.write(body)


__all__ = ["Pars"]
