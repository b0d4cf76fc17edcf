"""The Scoundrel game engine: pure, immutable, no Discord and no I/O.

The API follows OpenSpiel's shape: a state, its legal actions, ``apply``, and the
history that rebuilds it (``replay``). The state and its events are ``state.py``; what may be done (legal actions,
refusals, previews) ``legal.py``; ``new_game``, ``apply`` and ``replay`` are ``playing.py``, made of the steps in
``turns.py`` (rooms and turns) and ``expansion.py`` (the expansion's cards and phases).
"""

from games.engine.actions import Action, ActionParseError, avoid, buy, decode, encode, fight_with_weapon, take
from games.engine.cards import Card, CardParseError, deck_codes, parse_deck
from games.engine.forfeit import forfeit_score
from games.engine.legal import IllegalAction, Outcome, legal_actions, preview, refusal
from games.engine.playing import apply, deal, new_game, replay
from games.engine.rules import PRESETS, Rules, RulesError, preset
from games.engine.seeds import SeedError, new_seed, seed_from_text, seed_to_text
from games.engine.serialize import SnapshotError, from_json, to_json
from games.engine.state import DEAD, PLAYING, WON, Event, State, all_cards, score

__all__ = [
    "Action", "ActionParseError", "Card", "CardParseError", "DEAD", "Event", "IllegalAction", "Outcome",
    "PLAYING", "PRESETS", "Rules", "RulesError", "SeedError", "SnapshotError", "State", "WON", "all_cards",
    "apply", "avoid", "buy", "deal", "deck_codes", "decode", "encode", "fight_with_weapon", "forfeit_score",
    "from_json", "legal_actions", "new_game", "new_seed", "parse_deck", "preset", "preview", "refusal", "replay",
    "score", "seed_from_text", "seed_to_text", "take", "to_json",
]
