"""The game message's embed: what the player reads about a game, from a ``GameRecord`` alone.

Pure text building; the buttons live in ``cogs/game_view.py``.
"""

from __future__ import annotations

import dataclasses

import discord

from bot.engine import DEAD, WON, Rules, State, avoid, refusal, seed_to_text
from bot.engine.cards import JOKER, MERCHANT, MONSTER, NECROMANCER, POTION, WEAPON, Card
from bot.engine.game import (
    AT_CROSSROADS,
    AT_MERCHANT,
    AT_NECROMANCER,
    IN_UNDERWORLD,
    LOOP_BONUS,
    MERCHANT_HEAL,
    NECROMANCER_COST,
    weapon_price,
)
from bot.engine.rules import LOWER_OR_EQUAL, MAX_LOOPS

ABANDONED = "abandoned"  # storage's status for a game given up with /scoundrel abandon

COLOUR_PLAYING = discord.Colour.blurple()
COLOUR_FINAL_ROOM = discord.Colour.gold()
COLOUR_WON = discord.Colour.green()
COLOUR_DEAD = discord.Colour.red()
COLOUR_ABANDONED = discord.Colour.dark_grey()

KIND_EMOJI = {MONSTER: "👹", WEAPON: "🗡️", POTION: "🧪", MERCHANT: "💰", JOKER: "🃏", NECROMANCER: "💀"}
BAR_BLOCKS = 10
LOG_LIMIT = 1000  # an embed field holds 1024 characters


def card_text(card: Card | None) -> str:
    return "·" if card is None else card.label


def health_bar(health: int, maximum: int) -> str:
    filled = 0 if health <= 0 else max(1, round(BAR_BLOCKS * min(health, maximum) / maximum))
    return "█" * filled + "░" * (BAR_BLOCKS - filled)


def weapon_text(state: State) -> str:
    if state.weapon is None:
        return "None — monsters are fought barehanded"
    last = state.last_kill
    if last is None:
        return f"{state.weapon.label} — fresh: can hit anything"
    reach = f"{last.value} or below" if state.rules.weapon_limit == LOWER_OR_EQUAL else f"below {last.value}"
    return f"{state.weapon.label} — last slew {last.label}, can hit {reach}"


def avoid_text(state: State) -> str:
    if state.can_avoid:
        return "available"
    if state.avoided_last and not state.pending:
        return "not available (you avoided the last room)"
    if not state.dungeon:
        return "not available (the dungeon is empty)"
    if None in state.room:
        return "not available (you started facing this room)"
    reason = (refusal(state, avoid()) or "not now").rstrip(".")
    return f"not available ({reason[:1].lower()}{reason[1:]})"


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
        offer = " ".join(c.label for c in state.pending[1])
        return (f"💰 **The merchant** offers {offer}. Buy at most one: a potion heals {MERCHANT_HEAL} for free, "
                f"a weapon costs {weapon_price(state.loop)} health. Or leave.")
    if phase == AT_NECROMANCER:
        return (f"💀 **A necromancer** will raise 4 cards from the graveyard ({len(state.discard)} cards) for "
                f"{NECROMANCER_COST} health: you face 3 of them. Pay or decline.")
    if phase == IN_UNDERWORLD:
        above = " ".join(c.label for c in state.pending[1] if c is not None)
        return f"⚰️ **The raised room**: face 3 of these cards. The room above waits: {above or 'empty'}."
    if phase == AT_CROSSROADS:
        return (f"🔁 **Loop {state.loop} cleared** with {state.health} health. Descend again (the graveyard "
                f"becomes the dungeon, +{LOOP_BONUS} if you clear it) or retire with your score.")
    return None  # pragma: no cover - every phase is listed above


def score_explanation(state: State) -> str:
    if state.status == DEAD:
        where = "the dungeon and the room" if state.rules.death_score == "dungeon_and_room" else "the dungeon"
        return f"minus the monsters left in {where}"
    parts = [f"{state.health} health"]
    last = state.last_card
    if state.health == state.rules.max_health and last is not None and last.kind == POTION:
        parts.append(f"{last.value} for ending on {last.label} at full health")
    if state.loop > 1:
        parts.append(f"{LOOP_BONUS} × {state.loop - 1} extra loop{'s' if state.loop > 2 else ''}")
    return " + ".join(parts)


def _title_and_colour(record) -> tuple[str, discord.Colour]:
    state: State = record.state
    if record.status == ABANDONED:
        if getattr(record, "ended_by", None) == "expired":
            return f"⌛ Scoundrel — time ran out. Score {record.score}", COLOUR_ABANDONED
        if record.score is not None:
            return f"🏳️ Scoundrel — given up. Score {record.score}", COLOUR_ABANDONED
        return "🏳️ Scoundrel — abandoned", COLOUR_ABANDONED
    if state.status == WON:
        return f"🏆 Scoundrel — you survived! Score {state.score}", COLOUR_WON
    if state.status == DEAD:
        return f"💀 Scoundrel — you died. Score {state.score}", COLOUR_DEAD
    if at_crossroads(state):
        return f"Scoundrel — loop {state.loop} cleared!", COLOUR_WON
    if state.final_room:
        return f"Scoundrel — room {state.turn}, the final room", COLOUR_FINAL_ROOM
    return f"Scoundrel — room {state.turn}", COLOUR_PLAYING


def game_embed(record) -> discord.Embed:
    state: State = record.state
    title, colour = _title_and_colour(record)
    embed = discord.Embed(title=title, colour=colour)
    over = state.over or record.status == ABANDONED
    if over:
        embed.description = _game_over_text(record)
    else:
        room = "  ".join(card_text(c) for c in state.room)
        lines = [] if at_crossroads(state) else [f"**Room:** {room}" if state.room else "**Room:** empty"]
        if state.final_room and not at_crossroads(state):
            lines.append("This is the final room: every card must be resolved.")
        note = pending_text(state)
        if note:
            lines.append(note)
        embed.description = "\n".join(lines)
    health, maximum = state.health, state.rules.max_health
    embed.add_field(name="Health", value=f"**{health}**/{maximum}\n`{health_bar(health, maximum)}`")
    embed.add_field(name="Weapon", value=weapon_text(state))
    embed.add_field(name="Dungeon", value=f"{len(state.dungeon)} cards")
    if not over:
        embed.add_field(name="Room", value=str(state.turn))
        embed.add_field(name="Avoid", value=avoid_text(state))
    if state.rules.looping:
        embed.add_field(name="Loop", value=f"{state.loop} of {MAX_LOOPS}")
    events = _events_text(state)
    if events:
        embed.add_field(name="Last turn", value=events, inline=False)
    if record.kind in ("daily", "practice") and record.day is not None:
        # A daily's seed stays secret while the day runs (the daily post reveals it afterwards).
        deal = f"Daily #{record.day}" + (" (practice)" if record.kind == "practice" else "")
    else:
        deal = f"Seed {seed_to_text(record.seed)}" if record.seed is not None else "Custom deck"
    embed.set_footer(text=f"{deal} · {rules_label(state.rules)}")
    return embed


def _events_text(state: State) -> str:
    lines = [e.text for e in state.log]
    out: list[str] = []
    size = 0
    for line in reversed(lines):  # newest last, but keep the newest when the field is full
        if size + len(line) + 1 > LOG_LIMIT:
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(reversed(out))


def _game_over_text(record) -> str:
    state: State = record.state
    lines = []
    if record.status == ABANDONED:
        if getattr(record, "ended_by", None) == "expired":
            lines.append(f"Daily #{record.day} ended at 00:00 UTC with this game in room {state.turn}.")
        else:
            lines.append(f"Given up in room {state.turn}.")
        if record.score is not None:
            lines.append(f"**Score: {record.score}**, as if you had died here: every monster not yet slain "
                         "counts against you.")
    else:
        verb = "died" if state.status == DEAD else "finished"
        lines.append(f"You {verb} after {state.turn} room{'s' if state.turn != 1 else ''}"
                     + (f" and {state.loop} loops" if state.loop > 1 else "") + ".")
        lines.append(f"**Score: {state.score}** ({score_explanation(state)}).")
    started, ended = getattr(record, "started_at", None), getattr(record, "ended_at", None)
    if started is not None:
        lines.append(f"Started {discord.utils.format_dt(started, 'R')}"
                     + (f", ended {discord.utils.format_dt(ended, 'R')}." if ended is not None else "."))
    if record.seed is not None:
        lines.append(f"Replay this deal: `{replay_command(state.rules, record.seed)}`")
    return "\n".join(lines)
