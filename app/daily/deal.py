"""Each day's challenge as the game needs it: the day's deal, recorded on first use, and the pars already known.

A daily game is created from the day's explicit deck, without its seed: a game shows its seed, and today's seed
would give today's deal away. The deal of a day comes from the bot's secret (``app.daily.days.daily_seed``).
"""

from __future__ import annotations

from app.daily.days import DAILY_RULES, daily_seed
from games.engine import deal, deck_codes
from games.engine.cards import Card
from storage.models import DailyChallenge, GameRecord
from storage.store import Store

# (rules key, deck codes) -> par: a fact about the deal, so it holds across databases and restarts. Filled when a
# day's challenge is read with its par or its par is solved; read where no I/O is wanted (a finished game's text).
KNOWN_PAR: dict[tuple[str, str], int] = {}


async def todays_challenge(store: Store, day: int) -> DailyChallenge:
    """The day's ``DailyChallenge``, recorded on first use (the seed comes from the bot's secret)."""
    challenge = await store.get_daily(day)
    if challenge is None:
        seed = daily_seed(await store.daily_secret(), day)
        challenge = await store.put_daily(day, seed, DAILY_RULES)
    if challenge.par is not None:
        remember_par(challenge, challenge.par)
    return challenge


async def day_seed(store: Store, day: int, challenge: DailyChallenge | None = None) -> int:
    """The seed of daily ``day``: as recorded (``challenge``, read here when not given), else from the secret.
    A day nobody played was never recorded; its seed is the same all the same."""
    if challenge is None:
        challenge = await store.get_daily(day)
    return challenge.seed if challenge is not None else daily_seed(await store.daily_secret(), day)


def daily_deck(challenge: DailyChallenge) -> tuple[Card, ...]:
    """The day's cards, top first: what every daily and practice game of that day is dealt from."""
    return deal(challenge.rules, challenge.seed)


def remember_par(challenge: DailyChallenge, par: int) -> None:
    KNOWN_PAR[(challenge.rules.key, deck_codes(daily_deck(challenge)))] = par


async def par_and_coach(store: Store, record: GameRecord) -> tuple[int | None, int | None]:
    """The deal's par if it was already solved (the day's par for a daily; the par cache otherwise), and for a
    daily the coach's score when the night's job stored it. Nothing is solved here; whether they may be shown yet
    is the caller's to decide."""
    if record.kind in ("daily", "practice") and record.day is not None:
        daily = await store.get_daily(record.day)
        if daily is not None and daily.par is not None:
            return daily.par, daily.coach_score
    found = await store.get_par(record.state.rules.key, record.state.start_deck)
    return (found[0] if found else None), None


def known_par(record: GameRecord) -> int | None:
    """The par of the game's deal if this process knows it already (no I/O)."""
    if record.rules is None:
        return None
    return KNOWN_PAR.get((record.rules.key, record.deck))
