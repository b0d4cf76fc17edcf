"""The client's fixed words, translated on the server from the bot's own catalogues (``games/i18n/locales``).

The client never ships translations: it asks for ``words(tr)`` once and draws with them. Words the chat bot
already says keep its message ids (one translation for both); the others are in ``messages/web.po``.
"""

from __future__ import annotations

from games.engine import CARDS_FACED, CLASSIC, ROOM_SIZE
from games.i18n import N_, Messages

# key the client uses -> English source text (a catalogue message id)
WORDS = {
    "title": N_("Scoundrel"),
    "health": N_("Health"),
    "weapon": N_("Weapon"),
    "no_weapon": N_("no weapon"),
    "dungeon": N_("Dungeon"),
    "room": N_("Room"),
    "avoid": N_("Avoid"),
    "avoid_name": N_("Avoid this room: its cards go under the dungeon"),
    "fight_weapon": N_("Fight with the weapon"),
    "fight_bare": N_("Barehanded"),
    "fight_mode_name": N_("Fight mode: switch between the weapon and bare hands"),
    "hint": N_("Hint"),
    "show_hint": N_("Show the hint"),
    "review": N_("Review"),
    "replay": N_("Replay"),
    "share": N_("Share result"),
    "new_game": N_("New game"),
    "daily": N_("Play today's daily"),
    "played": N_("played"),
    "loading": N_("Opening the table…"),
    "stale": N_("The game had moved on: this is where it stands now."),
    "error": N_("Something went wrong; please try again."),
    "close": N_("Close"),
    "kills": N_("Slain with it"),
    "score": N_("Score"),
    "keys": N_("Keys: 1–4 play a card, A avoids, F switches the fight mode."),
    # the first screen and the rules
    "tagline": N_("A solo dungeon crawl with a deck of cards"),
    "how_to_play": N_("Each room deals {room} cards: play {faced} of them, or avoid the room. Fight monsters ♠ ♣, "
                      "equip weapons ♦, drink potions ♥, and get through the dungeon alive."),
    "daily_note": N_("The daily: the same deal for everyone today, and your first game counts."),
    "rules": N_("Rules"),
    "rules_title": N_("Scoundrel — the classic rules"),
    "together": N_("At this table"),
    "unfinished": N_("did not finish"),  # a friend's game given up, or ended by its challenge's close
}

# The classic rules as /scoundrel rules words them (the same message ids, so one translation serves both).
RULES = (
    N_("**The deck.** {deck} cards: a standard deck without jokers, red face cards and red aces.\n"
       "♠ ♣ **Monsters** 2–A, worth their value (J 11, Q 12, K 13, A 14).\n"
       "♦ **Weapons** 2–10. ♥ **Potions** 2–10."),
    N_("**Health** starts at {health} and never goes above {health}."),
    N_("**Each turn** the room is filled to {room} cards from the dungeon (a card left from the last room stays, "
       "leftmost). Then:\n"
       "• **Avoid** it: the {room} cards go under the dungeon in order. Not twice in a row, and not the final room.\n"
       "• **Face** it: play {faced} of the {room} cards, one at a time, in any order. The card left over stays for "
       "the next room."),
    N_("**Weapon ♦:** equipping one discards your old weapon and everything it slew.\n"
       "**Potion ♥:** heals its value, but only the first potion of a turn works.\n"
       "**Monster ♠♣ (value M):** fight it *barehanded* and take M damage, or with your *weapon* (value W) and "
       "take M − W (never below 0). A weapon that has slain something may only hit monsters **strictly lower** "
       "than its last kill."),
    N_("**The final room:** when the dungeon is empty the room cannot be avoided and every card in it is played."),
    N_("**Score.** Die (health 0) and you score minus the monsters still in the dungeon and the room. Clear the "
       "dungeon and you score your health — or, at full health with a potion as your last card, {health} plus "
       "that potion."),
)
NUMBERS = {"deck": len(CLASSIC.full_deck()), "health": CLASSIC.max_health, "room": ROOM_SIZE, "faced": CARDS_FACED}


def words(tr: Messages) -> dict[str, str]:
    """Every fixed word of the client in ``tr``'s language."""
    return {key: tr(text, **NUMBERS) for key, text in WORDS.items()}


def rules(tr: Messages) -> list[str]:
    """The classic rules in ``tr``'s language, a paragraph each (lines inside one split at its line breaks)."""
    return [line for text in RULES for line in tr(text, **NUMBERS).split("\n")]
