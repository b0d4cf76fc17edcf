"""The text of ``/scoundrel rules``: one embed page each, in reading order, in the reader's language.

Each page is a few paragraphs, each one ``N_``-marked template translated whole (a paragraph keeps its
sentences together, and a changed paragraph only asks for that paragraph to be translated again). The
numbers come from the engine's constants through named fields (``RULE_NUMBERS``); a test checks the
pages against the engine so the two cannot drift apart. Command names are the reader's own (``slash``).
"""

from __future__ import annotations

from dataclasses import dataclass

from cogs.text.command_text import slash
from games.engine import (
    CARDS_FACED,
    FULL_52,
    LOOP_BONUS,
    MAX_HEALTH,
    MAX_LOOPS,
    MERCHANT_HEAL,
    MERCHANT_OFFER,
    MIN_HEALTH,
    NECROMANCER_COST,
    PRESET_BLURBS,
    PRESETS,
    ROOM_SIZE,
    Rules,
    weapon_price,
)
from games.engine import CLASSIC as CLASSIC_RULES
from games.i18n import ENGLISH, N_, Messages

# The engine's one-line preset blurbs (games/engine/rules.py PRESET_BLURBS), marked here where they are
# shown so the catalogues translate them; a test keeps this tuple equal to the engine's.
PRESET_BLURB_MARKS = (
    N_("The classic rules: strictly lower weapon limit, the final room played in full."),
    N_("Weapons may also hit a monster equal to their last kill."),
    N_("All 52 cards, aces low."),
    N_("Won as soon as a room can no longer be filled to 4 cards."),
    N_("The 2011 rules sheet read literally: lower-or-equal weapons, death counts the dungeon only."),
    N_("Avoided rooms are shuffled before going under the dungeon."),
    N_("Merchants, jokers, necromancers and looping dungeons."),
)

# Every number the pages state, by field name.
RULE_NUMBERS = {
    "deck": len(CLASSIC_RULES.full_deck()),
    "full_deck": len(Rules(deck=FULL_52).full_deck()),
    "health": CLASSIC_RULES.max_health,
    "min_health": MIN_HEALTH,
    "max_health": MAX_HEALTH,
    "room": ROOM_SIZE,
    "faced": CARDS_FACED,
    "offer": MERCHANT_OFFER,
    "heal": MERCHANT_HEAL,
    "price": weapon_price(1),
    "price_next": weapon_price(2),
    "price_max": max(weapon_price(loop) for loop in range(1, MAX_LOOPS + 1)),
    "raise_cost": NECROMANCER_COST,
    "loops": MAX_LOOPS,
    "loop_bonus": LOOP_BONUS,
}


@dataclass(frozen=True)
class Page:
    title: str
    paragraphs: tuple[str, ...]  # joined by line breaks; "" is a blank line


CLASSIC = Page(N_("Scoundrel — the classic rules"), (
    N_("**The deck.** {deck} cards: a standard deck without jokers, red face cards and red aces.\n"
       "♠ ♣ **Monsters** 2–A, worth their value (J 11, Q 12, K 13, A 14).\n"
       "♦ **Weapons** 2–10. ♥ **Potions** 2–10."),
    "",
    N_("**Health** starts at {health} and never goes above {health}."),
    "",
    N_("**Each turn** the room is filled to {room} cards from the dungeon (a card left from the last room stays, "
       "leftmost). Then:\n"
       "• **Avoid** it: the {room} cards go under the dungeon in order. Not twice in a row, and not the final room.\n"
       "• **Face** it: play {faced} of the {room} cards, one at a time, in any order. The card left over stays for "
       "the next room."),
    "",
    N_("**Weapon ♦:** equipping one discards your old weapon and everything it slew.\n"
       "**Potion ♥:** heals its value, but only the first potion of a turn works.\n"
       "**Monster ♠♣ (value M):** fight it *barehanded* and take M damage, or with your *weapon* (value W) and "
       "take M − W (never below 0). A weapon that has slain something may only hit monsters **strictly lower** "
       "than its last kill."),
    "",
    N_("**The final room:** when the dungeon is empty the room cannot be avoided and every card in it is played."),
    "",
    N_("**Score.** Die (health 0) and you score minus the monsters still in the dungeon and the room. Clear the "
       "dungeon and you score your health — or, at full health with a potion as your last card, {health} plus "
       "that potion."),
))

BUTTONS = Page(N_("Playing with buttons"), (
    N_("**Card buttons** say what a card would do *now*: `♤J −3` costs 3 health, `♤4 {free}` is a free kill, "
       "`♥️6 +6` heals 6 (`+0 {full}` at full health), `♦️8 {equip}` takes the weapon, `☠️ … {lethal}` would "
       "kill you, a grey `{wasted}` is a second potion this room. Red buttons are monsters, blue weapons, green "
       "potions. The picture above them is the table: the room, your weapon with the monsters it slew, health, "
       "the dungeon and whether you may avoid."),
    N_("**Fight mode** (🗡️ / 👊) switches the monster buttons between your weapon and your bare hands. It is "
       "disabled when no monster in the room can be hit with your weapon."),
    N_("**{avoid}** is greyed out when avoiding is not allowed."),
    N_("Only the player of a game can press its buttons. If a message is out of date the bot says so and points "
       "to the current one; `{resume}` posts your game again."),
))

OPTIONS = Page(N_("Rule options and presets"), (
    N_("A game keeps the exact rules it started with; leaderboards only compare games with the same rules."),
    "",
    N_("**Options** (classic first):\n"
       "• Weapon limit: strictly lower than the last kill — or lower *or equal*.\n"
       "• Ending: the final room played in full — or won as soon as a room can no longer be filled to {room}.\n"
       "• Death score: monsters in the dungeon and the room — or in the dungeon only.\n"
       "• Avoided rooms: kept in order — or shuffled before going under.\n"
       "• Deck: {deck} cards, aces high — or all {full_deck} cards, aces low (weapons and potions 1–13).\n"
       "• Health: {health} / {health} — `{play_health}` sets any start from {min_health} to {max_health}."),
    "",
    N_("**Presets** (`{play_preset}`):"),
))

EXPANSION = Page(N_("The expansion cards"), (
    N_("Played with the `expansion` preset ({deck}-card deck, never in the daily)."),
    "",
    N_("💰 **Merchant** (♦K, ♥K): the discard pile is shuffled and {offer} cards are offered. Buy at most one: a ♥ "
       "potion heals {heal} for free; a ♦ weapon costs {price} health ({price_next} in the second loop, at most "
       "{price_max}) and must cost less than your health; it replaces your weapon. Other cards are not for sale."),
    N_("🃏 **Joker** (two of them): the dungeon is shuffled."),
    N_("💀 **Necromancer** (♦J, ♥J): pay {raise_cost} health (you need more than {raise_cost} and at least {room} "
       "cards in the graveyard) to face a room of {room} cards raised from the shuffled graveyard: play {faced} of "
       "them, the card left over returns to the graveyard. Raised merchants, jokers and necromancers do nothing. "
       "Or decline."),
    N_("🔁 **Looping:** after a clear, choose to **descend again** — the graveyard becomes the new dungeon, you "
       "keep your health and weapon — or **retire** with your score. Up to {loops} loops; each extra loop cleared "
       "adds {loop_bonus} to the score. Dying in a later loop scores like any death."),
))

DAILY = Page(N_("Daily challenge and leaderboards"), (
    N_("**Daily challenge:** one deal a day for everyone (classic rules), new at 00:00 UTC. Your first game of "
       "the day counts; replays are practice. Servers can have the daily posted in a channel at a time of their "
       "choice."),
    N_("**The day is the deadline:** a daily ends at 00:00 UTC. An attempt still unfinished then is closed — no "
       "move is made on it afterwards — and scored as if you had died at that point: minus every monster not yet "
       "slain. That is never better than dying, so giving up or waiting out the clock never beats playing on; such "
       "results are marked ⌛ on the boards. The day's seed and par are revealed once it is over."),
    N_("**Leaderboards:** the daily board ranks that day's counted scores; weekly and all-time boards and "
       "`{stats}` add up your games. Only games with the same rules are compared."),
))

RULE_PAGES = (CLASSIC, BUTTONS, OPTIONS, EXPANSION, DAILY)


# The words on the card buttons (cogs/game_message/view.py) that the buttons page quotes: looked up in the reader's
# catalogue as the buttons write them (not marked here, the game view marks them), English when not found.
BUTTON_WORDS = {"free": "0 dmg", "full": "(full)", "equip": "equip", "lethal": "lethal", "wasted": "wasted",
                "avoid": "Avoid"}


def _fields(tr: Messages) -> dict:
    translate = tr  # an unmarked call: these words are the game view's to mark
    return RULE_NUMBERS | {name: translate(word) for name, word in BUTTON_WORDS.items()} | {
        "resume": slash(tr, "resume"), "stats": slash(tr, "stats"),
        "play_health": slash(tr, "play", "health"), "play_preset": slash(tr, "play", "preset"),
    }


def page_text(page: Page, tr: Messages = ENGLISH) -> str:
    fields = _fields(tr)
    return "\n".join(tr(paragraph, **fields) if paragraph else "" for paragraph in page.paragraphs)


def preset_lines(tr: Messages = ENGLISH) -> list[str]:
    """One line per preset: its name (the game's own word, never translated) and its blurb."""
    return [f"• `{name}` — {tr(PRESET_BLURBS[name]) if name in PRESET_BLURBS else ''}" for name in PRESETS]


def options_page(tr: Messages = ENGLISH) -> str:
    return "\n".join([page_text(OPTIONS, tr), *preset_lines(tr)])


def expansion_page(tr: Messages = ENGLISH) -> str:
    return page_text(EXPANSION, tr)


def pages(tr: Messages = ENGLISH) -> list[tuple[str, str]]:
    """Every page as (title, text) in ``tr``'s language."""
    return [(tr(page.title), options_page(tr) if page is OPTIONS else page_text(page, tr)) for page in RULE_PAGES]


PAGES = pages(ENGLISH)
