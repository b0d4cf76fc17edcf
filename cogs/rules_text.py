"""The text of ``/scoundrel rules``: one embed page each, in reading order.

The expansion page states the details the engine decided (bot/engine/game.py); a test checks its numbers
against the engine's constants so the two cannot drift apart.
"""

from __future__ import annotations

from bot.engine.game import LOOP_BONUS, MERCHANT_HEAL, MERCHANT_OFFER, NECROMANCER_COST
from bot.engine.rules import MAX_LOOPS, PRESET_BLURBS, PRESETS

CLASSIC = """\
**The deck.** 44 cards: a standard deck without jokers, red face cards and red aces.
♠ ♣ **Monsters** 2–A, worth their value (J 11, Q 12, K 13, A 14).
♦ **Weapons** 2–10. ♥ **Potions** 2–10.

**Health** starts at 20 and never goes above 20.

**Each turn** the room is filled to 4 cards from the dungeon (a card left from the last room stays, leftmost). Then:
• **Avoid** it: the 4 cards go under the dungeon in order. Not twice in a row, and not the final room.
• **Face** it: play 3 of the 4 cards, one at a time, in any order. The 4th stays for the next room.

**Weapon ♦:** equipping one discards your old weapon and everything it slew.
**Potion ♥:** heals its value, but only the first potion of a turn works.
**Monster ♠♣ (value M):** fight it *barehanded* and take M damage, or with your *weapon* (value W) and take \
M − W (never below 0). A weapon that has slain something may only hit monsters **strictly lower** than \
its last kill.

**The final room:** when the dungeon is empty the room cannot be avoided and every card in it is played.

**Score.** Die (health 0) and you score minus the monsters still in the dungeon and the room. Clear the \
dungeon and you score your health — or, at full health with a potion as your last card, 20 plus that potion.
"""

BUTTONS = """\
**Card buttons** say what a card would do *now*: `♤J −3` costs 3 health, `♤4 0 dmg` is a free kill, `♥️6 +6` \
heals 6 (`+0 (full)` at full health), `♦️8 equip` takes the weapon, `☠️ … lethal` would kill you, a grey `wasted` \
is a second potion this room. Red buttons are monsters, blue weapons, green potions. The picture above them is \
the table: the room, your weapon with the monsters it slew, health, the dungeon and whether you may avoid.
**Fight mode** (🗡️ / 👊) switches the monster buttons between your weapon and your bare hands. It is disabled \
when no monster in the room can be hit with your weapon.
**Avoid** is greyed out when avoiding is not allowed.
Only the player of a game can press its buttons. If a message is out of date the bot says so and points to \
the current one; `/scoundrel resume` posts your game again.
"""


def options_page() -> str:
    lines = [
        "A game keeps the exact rules it started with; leaderboards only compare games with the same rules.",
        "",
        "**Options** (classic first):",
        "• Weapon limit: strictly lower than the last kill — or lower *or equal*.",
        "• Ending: the final room played in full — or won as soon as a room can no longer be filled to 4.",
        "• Death score: monsters in the dungeon and the room — or in the dungeon only.",
        "• Avoided rooms: kept in order — or shuffled before going under.",
        "• Deck: 44 cards, aces high — or all 52 cards, aces low (weapons and potions 1–13).",
        "• Health: 20 / 20 — `/scoundrel play health:` sets any start from 1 to 99.",
        "",
        "**Presets** (`/scoundrel play preset:`):",
    ]
    lines += [f"• `{name}` — {PRESET_BLURBS.get(name, '')}" for name in PRESETS]
    return "\n".join(lines)


def expansion_page() -> str:
    return f"""\
Played with the `expansion` preset (44-card deck, never in the daily).

💰 **Merchant** (♦K, ♥K): the discard pile is shuffled and {MERCHANT_OFFER} cards are offered. Buy at most \
one: a ♥ potion heals {MERCHANT_HEAL} for free; a ♦ weapon costs 3 health (4 in the second loop, at most 5) \
and must cost less than your health; it replaces your weapon. Other cards are not for sale.
🃏 **Joker** (two of them): the dungeon is shuffled.
💀 **Necromancer** (♦J, ♥J): pay {NECROMANCER_COST} health (you need more than {NECROMANCER_COST} and at least \
4 cards in the graveyard) to face a room of 4 cards raised from the shuffled graveyard: play 3 of them, the 4th \
returns to the graveyard. Raised merchants, jokers and necromancers do nothing. Or decline.
🔁 **Looping:** after a clear, choose to **descend again** — the graveyard becomes the new dungeon, you keep \
your health and weapon — or **retire** with your score. Up to {MAX_LOOPS} loops; each extra loop cleared adds \
{LOOP_BONUS} to the score. Dying in a later loop scores like any death.
"""


DAILY = """\
**Daily challenge:** one deal a day for everyone (classic rules), new at 00:00 UTC. Your first game of the day \
counts; replays are practice. Servers can have the daily posted in a channel at a time of their choice.
**The day is the deadline:** a daily ends at 00:00 UTC. An attempt still unfinished then is closed — no move \
is made on it afterwards — and scored as if you had died at that point: minus every monster not yet slain. \
That is never better than dying, so giving up or waiting out the clock never beats playing on; such results \
are marked ⌛ on the boards. The day's seed and par are revealed once it is over.
**Leaderboards:** the daily board ranks that day's counted scores; \
weekly and all-time boards and `/scoundrel stats` add up your games. Only games with the same rules are compared.
"""

PAGES: list[tuple[str, str]] = [
    ("Scoundrel — the classic rules", CLASSIC),
    ("Playing with buttons", BUTTONS),
    ("Rule options and presets", options_page()),
    ("The expansion cards", expansion_page()),
    ("Daily challenge and leaderboards", DAILY),
]
