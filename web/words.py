"""The client's fixed words, translated on the server from the bot's own catalogues (``games/i18n/locales``).

The client never ships translations: it asks for ``words(tr)`` once and draws with them. Words the chat bot
already says keep its message ids (one translation for both); the others are in ``messages/web.po``.
"""

from __future__ import annotations

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
}


def words(tr: Messages) -> dict[str, str]:
    """Every fixed word of the client in ``tr``'s language."""
    return {key: tr(text) for key, text in WORDS.items()}
