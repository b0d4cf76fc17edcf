"""Every game message fits a phone with the solver on: at most three rows of buttons at 390 px wide, in every
shipped language, and no text a player reads writes ♠ or ♣ (near-invisible on Discord's dark theme).

A button's width on a phone is estimated from its label in the picture's bold font, with the padding and emoji
measured on SimCord's preview ("💡 Hint" 78 px shown, 77 estimated; "🗡️ Fighting with ♦️5" 167 shown, 176
estimated): padding on both sides, the emoji, the label. Buttons of one action row
wrap onto as many lines as they need in the width a message has on a 390 px screen.
"""

from __future__ import annotations

import sys

import discord
from PIL import ImageFont

from cogs.game_message.view import BAREHANDED, WEAPON_MODE, render_game
from games.engine import PRESETS, apply, legal_actions, new_game, preset
from games.engine.state import AT_CROSSROADS, AT_MERCHANT, AT_NECROMANCER
from games.i18n.messages import SHIPPED, messages_for
from games.picture.draw import FONT_PATH
from games.solver.review import review

PHONE_ROW = 302  # px for buttons beside the avatar at 390 px wide (from x = 72 to the right margin)
GAP, PADDING, EMOJI, EMOJI_ONLY = 8, 24, 20, 44  # measured on SimCord's preview: "💡 Hint" is 78 px
FONT = ImageFont.truetype(str(FONT_PATH), 14)
LANGUAGES = ("en-US", *SHIPPED)
CLASSIC = PRESETS["classic"]


def width(button) -> float:
    if not button.label:
        return EMOJI_ONLY
    return PADDING + (EMOJI if button.emoji else 0) + FONT.getlength(button.label)


def phone_rows(view) -> int:
    """Lines of buttons a phone shows: each action row wraps its buttons into the row's width."""
    lines = 0
    for row in view.to_components():
        used = None
        for component in row["components"]:
            button = next(item.item if hasattr(item, "item") else item for item in view.children
                          if getattr(item, "custom_id", None) == component.get("custom_id"))
            needed = width(button)
            if used is None or used + GAP + needed > PHONE_ROW:
                lines, used = lines + 1, needed
            else:
                used += GAP + needed
    return lines


def line_to(rules, predicate, pick=lambda actions: actions[-1]):
    if predicate == "best":
        from games.solver import solve

        return 7, list(solve(rules, new_game(rules, seed=7).start_deck).actions)
    for seed in range(500):
        state = new_game(rules, seed=seed)
        while not state.over and not predicate(state):
            state = apply(state, pick(legal_actions(state)))
        if predicate(state):
            return seed, list(state.history)
    raise AssertionError("no deal reaches that state")


def fights_first(actions):
    fights = [a for a in actions if a.kind == "weapon"]
    return (fights or actions)[0]


def pending(phase):
    return lambda state: bool(state.pending) and state.pending[0] == phase


# (name, rules, kind, predicate, pick): each reached by playing from a deal
SCREENS = [
    ("first room", CLASSIC, "normal", lambda s: True, None),
    ("armed room", CLASSIC, "normal", lambda s: s.weapon is not None and any(a.kind == "weapon" for a in
                                                                             legal_actions(s)), fights_first),
    ("game over", CLASSIC, "normal", lambda s: s.over, None),
    ("won", CLASSIC, "normal", "best", None),  # par's line: a perfect game
    ("daily over", CLASSIC, "daily", lambda s: s.over, None),
    ("practice over", CLASSIC, "practice", lambda s: s.over, None),
    ("merchant", preset("expansion"), "normal", pending(AT_MERCHANT), None),
    ("necromancer", preset("expansion").with_health(40), "normal", pending(AT_NECROMANCER), None),
    ("crossroads", preset("expansion").with_health(60), "normal", pending(AT_CROSSROADS), fights_first),
]


def solver_on(monkeypatch):
    """Hint, Review and Best possible offered, as on a bot whose solver runs (the modules the bot loaded)."""
    monkeypatch.setitem(sys.modules["cogs.coach.advice"]._state, "hint", object())
    monkeypatch.setitem(sys.modules["cogs.coach.advice"]._state, "review", object())
    monkeypatch.setitem(sys.modules["cogs.coach.best_possible"]._state, "solver", object())


def texts(embed, view) -> list[str]:
    return [embed.title or "", embed.description or "", embed.footer.text or "",
            *[getattr(item, "item", item).label or "" for item in view.children]]


async def test_every_game_message_has_at_most_three_rows_of_buttons_on_a_phone(world, monkeypatch):
    solver_on(monkeypatch)
    records = []
    for name, rules, kind, predicate, pick in SCREENS:
        seed, line = line_to(rules, predicate, pick or (lambda actions: actions[-1]))
        state = new_game(rules, seed=seed)
        for action in line:
            state = apply(state, action)
        records.append((name, seed, line, rules, kind))
    checked = 0
    for number, (name, seed, line, rules, kind) in enumerate(records):
        user = 1000 + number  # one player each: a player has one game of a kind at a time
        record = await world.store.create_game(user, world.guild.id, world.channel.id, rules, seed=seed, kind=kind,
                                               day=None if kind == "normal" else 1)
        for action in line:
            record = await world.store.play(record.id, user, record.version, action)
        for language in LANGUAGES:
            tr = messages_for(language)
            for mode in (WEAPON_MODE, BAREHANDED):
                for hinted in (False, True):
                    embed, view = render_game(record, mode, par=30, tr=tr, hinted=hinted and kind != "daily",
                                              bot=world.bot)
                    assert phone_rows(view) <= 3, (name, language, mode, texts(embed, view))
                    shown = "\n".join(texts(embed, view))
                    assert "♠" not in shown and "♣" not in shown, (name, language, shown)
                    assert "a perfect game" not in shown or not hinted
                    checked += 1
    assert checked == len(SCREENS) * len(LANGUAGES) * 4


async def test_hint_says_hint_and_the_fight_switch_shows_which_mode_is_on_in_every_language(world, monkeypatch):
    """A first-time player reads what the buttons under a game in play do: Hint is the 💡 with its word, and the
    fight mode is a grey switch showing both modes (⚔️ and 👊, as the monsters' buttons do) with a tick on the one
    that is on, not a blue button that looks like one more move; all within three rows on a phone."""
    solver_on(monkeypatch)
    seed, line = line_to(CLASSIC, SCREENS[1][3], fights_first)  # armed: the weapon can be used
    record = await world.store.create_game(1, world.guild.id, world.channel.id, CLASSIC, seed=seed)
    for action in line:
        record = await world.store.play(record.id, 1, record.version, action)
    for language in LANGUAGES:
        tr = messages_for(language)
        ticks = {}
        for mode in (WEAPON_MODE, BAREHANDED):
            _, view = render_game(record, mode, tr=tr, bot=world.bot)
            items = [getattr(item, "item", item) for item in view.children]
            hint = next(item for item in items if item.custom_id.startswith("sc:hint:"))
            switch = next(item for item in items if item.custom_id.endswith(":mode"))
            assert hint.emoji.name == "💡" and hint.label == tr("Hint") and hint.label, language
            assert switch.style is discord.ButtonStyle.secondary and not switch.disabled, (language, mode)
            assert switch.label.count("✓") == 1 and hint.row == switch.row, (language, switch.label)
            ticks[mode] = switch.label
            assert phone_rows(view) <= 3, (language, mode, [item.label for item in items])
        # Both labels name the same two modes; only the tick moves.
        assert ticks[WEAPON_MODE] != ticks[BAREHANDED], language
        assert ticks[WEAPON_MODE].replace("✓", "").split() == ticks[BAREHANDED].replace("✓", "").split(), language
        assert ticks[WEAPON_MODE].index("✓") < ticks[BAREHANDED].index("✓") and "⚔️" in ticks[WEAPON_MODE], language


def test_the_coach_writes_readable_suits_in_every_language():
    from app.coach.advice import ReviewText
    from cogs.coach.advice import review_text
    from cogs.coach.best_possible import short_line_text

    deck = new_game(CLASSIC, seed=13).start_deck
    state, line = new_game(CLASSIC, deck=deck), []
    while not state.over:
        line.append(legal_actions(state)[-1])
        state = apply(state, line[-1])
    result = review(CLASSIC, deck, line)
    assert any("♠" in text for text in result.lines())  # the engine's labels, before the cog makes them readable
    text = ReviewText(result.summary(), result.lines(), result.machine_line())
    for language in LANGUAGES:
        shown = "\n".join(e.description for e in review_text(None, text, messages_for(language)))
        assert "♠" not in shown and "♣" not in shown and "♤" in shown and len(shown.split("\n")) <= 12
    best = "\n".join(short_line_text(CLASSIC, deck, line))
    assert "♠" not in best and "♣" not in best and "♤" in best
