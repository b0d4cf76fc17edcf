"""What a challenge's standings show of each player: the same to everyone, and never a card.

While the challenge runs, a player is shown by the room they reached and their health, and by their score once
their game is over; nothing that gives the deal away (no card, no move, no line). Once it has closed, par and the
coach's score join them (``Final``), and each player's game may be replayed (``app.shown``).
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.challenges import ChallengeRecord, Entrant
from storage.models import DEAD, PLAYING, WON
from storage.store import Store

UNFINISHED = "unfinished"  # given up, or still playing when the challenge closed


@dataclass(frozen=True)
class Standing:
    user_id: int
    name: str
    gone: bool  # left the server
    outcome: str  # PLAYING, WON, DEAD or UNFINISHED
    room: int  # the room reached
    health: int
    score: int | None  # once the game is over (won or dead)
    place: int | None  # among the finished, best score first (ties: the earlier finish)
    game_id: int


@dataclass(frozen=True)
class Board:
    """The standings of one challenge at one moment."""

    challenge: ChallengeRecord
    rows: tuple[Standing, ...]

    @property
    def final(self) -> bool:
        return not self.challenge.running

    @property
    def finished(self) -> int:
        return sum(1 for row in self.rows if row.outcome in (WON, DEAD))


def _outcome(entrant: Entrant) -> str:
    game = entrant.game
    if game.status in (PLAYING, WON, DEAD):
        return game.status
    return UNFINISHED


def _row(entrant: Entrant, place: int | None) -> Standing:
    game = entrant.game
    state = None if game.damaged else game.state
    outcome = _outcome(entrant)
    return Standing(entrant.user_id, entrant.name, entrant.gone, outcome,
                    state.turn if state is not None else 0, max(0, state.health) if state is not None else 0,
                    game.score if outcome in (WON, DEAD) else None, place, game.id)


def ordered(entrants: list[Entrant]) -> list[Standing]:
    """Finished games first, best score first (the earlier finish on a tie); then the games being played, the
    furthest first; then the unfinished ones."""
    finished = sorted((e for e in entrants if _outcome(e) in (WON, DEAD)),
                      key=lambda e: (-(e.game.score or 0), e.game.ended_at or e.joined_at, e.user_id))
    others = sorted((e for e in entrants if _outcome(e) not in (WON, DEAD)),
                    key=lambda e: (_outcome(e) != PLAYING, -_row(e, None).room, -_row(e, None).health, e.joined_at))
    return [_row(e, n) for n, e in enumerate(finished, start=1)] + [_row(e, None) for e in others]


async def board(store: Store, challenge_id: int) -> Board:
    """The challenge and its standings, as stored now."""
    challenge = await store.challenges.get(challenge_id)
    return Board(challenge, tuple(ordered(await store.challenges.entrants(challenge_id))))
