"""The Scoundrel game engine: pure, immutable, no Discord and no I/O.

The API follows OpenSpiel's shape: a state, its legal actions, ``apply``, and the
history that rebuilds it (``replay``). The state and its events are ``state.py``; what may be done (legal actions,
refusals, previews) ``legal.py``; ``new_game``, ``apply`` and ``replay`` are ``playing.py``, made of the steps in
``turns.py`` (rooms and turns) and ``expansion.py`` (the expansion's cards and phases).
"""

from games.engine.actions import Action, ActionParseError, avoid, buy, decode, encode, fight_with_weapon, take
from games.engine.cards import (
    JOKER,
    MERCHANT,
    MONSTER,
    NECROMANCER,
    POTION,
    WEAPON,
    Card,
    CardParseError,
    deck_codes,
    parse_deck,
    readable,
)
from games.engine.digits import whole_number
from games.engine.forfeit import forfeit_score
from games.engine.legal import IllegalAction, Outcome, legal_actions, preview, refusal
from games.engine.playing import apply, deal, new_game, replay
from games.engine.rules import (
    CLASSIC,
    FULL_52,
    MAX_HEALTH,
    MAX_LOOPS,
    MIN_HEALTH,
    PRESET_BLURBS,
    PRESETS,
    Rules,
    RulesError,
    preset,
)
from games.engine.seeds import SEED_BITS, SeedError, new_seed, seed_from_text, seed_to_text
from games.engine.serialize import SnapshotError, from_json, to_json
from games.engine.state import (
    AT_CROSSROADS,
    AT_MERCHANT,
    AT_NECROMANCER,
    CARDS_FACED,
    DEAD,
    IN_UNDERWORLD,
    LOOP_BONUS,
    MERCHANT_HEAL,
    MERCHANT_OFFER,
    NECROMANCER_COST,
    PLAYING,
    ROOM_SIZE,
    WON,
    Event,
    State,
    all_cards,
    score,
    weapon_price,
)
from games.engine.tally import DAY_FLOOR

__all__ = [
    "Action", "ActionParseError", "Card", "CardParseError", "DEAD", "Event", "IllegalAction", "Outcome", "PLAYING",
    "PRESETS", "Rules", "RulesError", "SeedError", "SnapshotError", "State", "WON", "all_cards", "apply", "avoid",
    "buy", "deal", "deck_codes", "decode", "encode", "fight_with_weapon", "forfeit_score", "from_json",
    "legal_actions", "new_game", "new_seed", "parse_deck", "preset", "preview", "refusal", "replay", "score",
    "seed_from_text", "seed_to_text", "take", "to_json", "JOKER", "MERCHANT", "MONSTER", "NECROMANCER", "POTION",
    "WEAPON", "readable", "CLASSIC", "FULL_52", "MAX_HEALTH", "MAX_LOOPS", "MIN_HEALTH", "PRESET_BLURBS",
    "SEED_BITS", "AT_CROSSROADS", "AT_MERCHANT", "AT_NECROMANCER", "CARDS_FACED", "IN_UNDERWORLD", "LOOP_BONUS",
    "MERCHANT_HEAL", "MERCHANT_OFFER", "NECROMANCER_COST", "ROOM_SIZE", "weapon_price", "DAY_FLOOR", "whole_number",
]
