"""The two-player duel: the *other* game called Scoundrel, as a pure immutable engine (docs/RULES.md, The duel).

Rules decisions (the points a plain statement of the game leaves open):

- Deck: 52 cards, no jokers; ranks A..K wrap (K is next to A). Seeded deal: hands are cards 1-7 (player 1) and
  8-14 (player 2), bases 15-18 and 19-22, the rest is the stock, top first. The dealer (player 2 unless told)
  is the non-roller of the first turn.
- Dice come from the duel's seed and a roll counter, so a replay is exact. Three dice, minus one per pair
  whose two columns are both finished, never fewer than one. The roller places every die, each on a different
  pair that is not closed (both columns finished); placing is not optional.
- A die's count caps the cards one player builds on that pair in one play (each player has their own
  allowance); a 6 allows exactly one card of any rank and leaves the column directionless.
- "Either ... or": on one pair in one play a player builds or steals, never both, and steals at most once.
- Stealing needs a card of the same rank as the opponent's last card; the column and the stealing card go to the
  stolen pile. An empty column takes any card.
- Finishing a column (4+ cards) is allowed at any time during one's own play, on any pair (it needs no die),
  when the finished columns can still each be matched to a distinct target of 4+, 5+, 5+, 6+ (a longer column
  may stand for any target it reaches; every assignment is tried). Finishing all four wins at once.
- A player may end their play at any time ("Done"), also without playing a card.
- A player whose hand runs out during their play draws 7 at once. Drawing from an empty stock first shuffles
  the stolen pile into it; when both are empty, nobody draws and play goes on with smaller hands.
- Either player may resign at any time; the other wins.
"""

from games.duel.actions import DuelAction, IllegalDuelAction, build, done, finish, place, resign, steal
from games.duel.cards import Card, build_deck, step
from games.duel.game import (
    ANY_CARD_DIE,
    HAND_SIZE,
    OVER,
    PAIRS,
    PLACING,
    PLAYING,
    TARGETS,
    Column,
    DuelState,
    apply,
    dice_count,
    finish_fits,
    legal_actions,
    new_duel,
    refusal,
    replay,
)
from games.duel.serialize import DuelSnapshotError, from_json, to_json
from games.duel.text import PLAYER_NAMES, board_lines, event_text, hand_text, parse_command, phase_text, rules_text

__all__ = [
    "HAND_SIZE", "OVER", "PAIRS", "PLACING", "PLAYING", "TARGETS", "Card", "Column", "DuelAction",
    "DuelSnapshotError", "DuelState", "IllegalDuelAction", "apply", "build", "build_deck", "dice_count", "done",
    "finish", "finish_fits", "from_json", "legal_actions", "new_duel", "place", "refusal", "replay", "resign",
    "steal", "step", "to_json", "ANY_CARD_DIE", "PLAYER_NAMES", "board_lines", "event_text", "hand_text",
    "parse_command", "phase_text", "rules_text",
]
