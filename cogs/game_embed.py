"""The game message's embed: what the player reads about a game, from a ``GameRecord`` alone.

Pure text building; the buttons live in ``cogs/game_view.py``, the picture of the table in ``bot.picture``.
The text says only what the picture cannot: what to do now and what the last move did.
"""

from __future__ import annotations

import dataclasses

import discord

from bot.daily import DAILY_RULES, day_end
from bot.engine import DEAD, WON, Rules, State, seed_to_text
from bot.engine.cards import JOKER, MERCHANT, MONSTER, NECROMANCER, POTION, WEAPON
from bot.engine.game import (
    AT_CROSSROADS,
    AT_MERCHANT,
    AT_NECROMANCER,
    CARDS_FACED,
    IN_UNDERWORLD,
    LOOP_BONUS,
    NECROMANCER_COST,
)
from bot.picture import FILENAME
from cogs.card_text import readable

ABANDONED = "abandoned"  # storage's status for a game given up with /scoundrel abandon

COLOUR_PLAYING = discord.Colour.blurple()
COLOUR_FINAL_ROOM = discord.Colour.gold()
COLOUR_WON = discord.Colour.green()
COLOUR_DEAD = discord.Colour.red()
COLOUR_ABANDONED = discord.Colour.dark_grey()

KIND_EMOJI = {MONSTER: "👹", WEAPON: "🗡️", POTION: "🧪", MERCHANT: "💰", JOKER: "🃏", NECROMANCER: "💀"}
BAR_BLOCKS = 10
EVENT_LINES = 3


def rules_label(rules: Rules) -> str:
    """The preset name, plus the health setting when it is not the preset's."""
    base = dataclasses.replace(rules, start_health=20, max_health=20)
    name = base.name
    if (rules.start_health, rules.max_health) != (20, 20):
        name += f" · health {rules.start_health}"
    return name


def replay_command(rules: Rules, seed: int) -> str:
    base = dataclasses.replace(rules, start_health=20, max_health=20)
    text = f"/scoundrel play seed:{seed_to_text(seed)}"
    if base.name not in ("classic", "custom"):
        text += f" preset:{base.name}"
    if rules.start_health != 20:
        text += f" health:{rules.start_health}"
    return text


def at_crossroads(state: State) -> bool:
    return bool(state.pending) and state.pending[0] == AT_CROSSROADS


def pending_text(state: State) -> str | None:
    """What the player must decide in an expansion sub-phase, or None."""
    if not state.pending:
        return None
    phase = state.pending[0]
    if phase == AT_MERCHANT:
        return "💰 **The merchant**: buy one card, or leave."  # the prices are on the buttons
    if phase == AT_NECROMANCER:
        return (f"💀 **A necromancer**: pay {NECROMANCER_COST} health to face 3 of 4 cards raised from the "
                f"graveyard ({len(state.discard)}), or decline.")
    if phase == IN_UNDERWORLD:
        return "⚰️ **The raised room**: play 3 of its 4 cards."  # the room above waits in the picture
    if phase == AT_CROSSROADS:
        return (f"🔁 **Loop {state.loop} cleared** with {state.health} health: descend again (+{LOOP_BONUS} if "
                f"you clear it) or retire.")
    return None  # pragma: no cover - every phase is listed above


def score_explanation(state: State) -> str:
    if state.status == DEAD:
        where = "the dungeon and the room" if state.rules.death_score == "dungeon_and_room" else "the dungeon"
        return f"minus the monsters left in {where}"
    parts = [f"{state.health} health"]
    last = state.last_card
    if state.health == state.rules.max_health and last is not None and last.kind == POTION:
        parts.append(f"{last.value} for ending on {readable(last.label)} at full health")
    if state.loop > 1:
        parts.append(f"{LOOP_BONUS} × {state.loop - 1} extra loop{'s' if state.loop > 2 else ''}")
    return " + ".join(parts)


def is_daily(record) -> bool:
    return record.kind in ("daily", "practice") and record.day is not None


def game_name(record) -> str:
    """What a game's title calls it: a daily says which day (or that it is a practice replay)."""
    if not is_daily(record):
        return "Scoundrel"
    return "Practice" if record.kind == "practice" else f"Daily #{record.day}"


def daily_intro(record) -> str | None:
    """A counted daily's first line before its first move: that this try counts and when the day ends (the
    title says which day), so the private first message needs no text of its own above the embed."""
    if not is_daily(record) or record.kind == "practice" or record.version or record.status != "playing":
        return None
    return f"This try counts · ends {discord.utils.format_dt(day_end(record.day), 'R')}"


def deal_footer(record) -> str | None:
    """The deal and its rules; none for a counted daily being played on the daily's rules (its title says which
    day, and its seed stays secret while the day runs: the daily post reveals it afterwards)."""
    state: State = record.state
    if not is_daily(record):
        deal = f"Seed {seed_to_text(record.seed)}" if record.seed is not None else "Custom deck"
    elif record.kind == "practice":
        deal = f"Daily #{record.day} practice · never counts"
    elif record.status == "playing" and not state.over and state.rules == DAILY_RULES:
        return None
    else:
        deal = f"Daily #{record.day}"
    return f"{deal} · {rules_label(state.rules)}"


def _title_and_colour(record) -> tuple[str, discord.Colour]:
    state: State = record.state
    name = game_name(record)
    if record.status == ABANDONED:
        if getattr(record, "ended_by", None) == "expired":
            return f"⌛ Time ran out · Score {record.score}", COLOUR_ABANDONED
        if record.score is not None:
            return f"🏳️ Given up · Score {record.score}", COLOUR_ABANDONED
        return "🏳️ Scoundrel — abandoned", COLOUR_ABANDONED
    # Short enough for one line on a phone: the picture's banner says the rest.
    if state.status == WON:
        return f"🏆 You survived! Score {state.score}", COLOUR_WON
    if state.status == DEAD:
        return f"💀 You died · Score {state.score}", COLOUR_DEAD
    if at_crossroads(state):
        return f"{name} — loop {state.loop} cleared!", COLOUR_WON
    if state.final_room:
        return f"{name} — room {state.turn}, the final room", COLOUR_FINAL_ROOM
    return f"{name} — room {state.turn}", COLOUR_PLAYING


def status_line(state: State) -> str:
    """The one line of what to do now: the picture shows the cards, health, weapon and dungeon."""
    note = pending_text(state)
    if note:
        return note
    left = sum(1 for c in state.room if c is not None)
    if state.final_room:
        return f"The final room: play {'every card' if left > 1 else 'the last card'}."  # nothing is carried
    to_play = left - 1  # the last card of a room stays for the next one
    if state.resolved_this_turn == 0:
        play = f"Play {min(CARDS_FACED, left)} of {left} cards"  # the last one stays for the next room
        return play + (", or avoid the room." if state.can_avoid else ".")
    return f"Play {to_play} more card{'s' if to_play != 1 else ''}."


def quiet_events(record) -> tuple[str, ...]:
    """The event kinds the rest of the message already tells: a finished game's title says how it ended; in the
    raised room the picture shows what rose and the health bar what it cost; at the merchant the picture shows
    the offer (and the buttons its prices)."""
    state: State = record.state
    if state.over or record.status == ABANDONED:
        return ("death", "clear")
    phase = state.pending[0] if state.pending else None
    return {IN_UNDERWORLD: ("necromancer",), AT_MERCHANT: ("merchant",)}.get(phase, ())


def game_embed(record, par: int | None = None) -> discord.Embed:
    """Title, one status line, this turn's events (at most three lines), the deal in the footer (a counted daily
    being played has none, and its first room a line saying it counts and when it ends); the table is the
    attached picture (``attachment://`` + ``bot.picture.FILENAME``). ``par``: the deal's best possible score,
    shown on a finished game when it is known."""
    state: State = record.state
    title, colour = _title_and_colour(record)
    embed = discord.Embed(title=title, colour=colour)
    over = state.over or record.status == ABANDONED
    lines = [status_line(state)] if not over else _game_over_lines(record, par)
    events = [] if record.status == ABANDONED else events_lines(state, quiet=quiet_events(record))
    lines[1:1] = events  # the last move's story right under the status (or score) line
    intro = daily_intro(record)
    if intro is not None:  # a first room has no events: the intro takes their place
        lines.insert(0, intro)
    embed.description = "\n".join(lines)
    embed.set_image(url=f"attachment://{FILENAME}")
    footer = deal_footer(record)
    if footer is not None:
        embed.set_footer(text=footer)
    return embed


def table_description(state: State) -> str:
    """The picture in words, as its alt text (screen readers, and clients that do not load images)."""
    room = " ".join(c.label if c is not None else "·" for c in state.room) or "empty"
    weapon = "no weapon" if state.weapon is None else f"weapon {state.weapon.label}" + (
        f" (last slew {state.last_kill.label})" if state.last_kill is not None else "")
    return (f"Room {state.turn}: {room}; health {state.health}/{state.rules.max_health}; {weapon}; "
            f"{len(state.dungeon)} cards in the dungeon")[:1000]


def events_lines(state: State, quiet: tuple[str, ...] = ()) -> list[str]:
    """What the last move did, newest last, at most ``EVENT_LINES``; the new room's cards are in the picture
    (and a finished game's title already says how it ended: ``quiet`` kinds are left out)."""
    lines = [readable(e.text) for e in state.events if e.kind != "room" and e.kind not in quiet]
    return lines[-EVENT_LINES:]


def _game_over_lines(record, par: int | None) -> list[str]:
    """The score line first (the status line of a finished game), then par and how to replay the deal."""
    state: State = record.state
    ended = getattr(record, "ended_at", None)
    when = f", {discord.utils.format_dt(ended, 'R')}" if ended is not None else ""
    if record.status == ABANDONED:
        lines = []
        if record.score is not None:  # a counted daily's forfeit
            lines.append(f"**Score: {record.score}**, as if you had died here: every monster not yet slain "
                         "counts against you.")
        if getattr(record, "ended_by", None) == "expired":
            lines.append(f"Daily #{record.day} ended at 00:00 UTC with this game in room {state.turn}.")
        else:
            lines.append(f"Given up in room {state.turn}{when}.")
    else:
        verb = "died" if state.status == DEAD else "finished"
        rooms = f"{state.turn} room{'s' if state.turn != 1 else ''}" + (f", {state.loop} loops" if state.loop > 1
                                                                          else "")
        lines = [f"**Score: {state.score}** ({score_explanation(state)}).", f"You {verb} after {rooms}{when}."]
        if par is not None:
            lines.append(f"Par {par}: " + ("a perfect game!" if state.score == par else
                                          f"{par - state.score} short of the best possible."))
    if record.seed is not None:
        lines.append(f"Replay this deal:\n`{replay_command(state.rules, record.seed)}`")
    return lines
