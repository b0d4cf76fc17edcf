"""``python -m bot play``: Scoundrel in a terminal. The game is started and played through the same application
functions as the bot's (``app.play.solo``), on a store that lasts as long as the game."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
import threading
from typing import TextIO

from app.play import solo
from app.play.scratch_store import scratch_store
from games.engine import (
    AT_CROSSROADS,
    AT_MERCHANT,
    AT_NECROMANCER,
    MONSTER,
    PLAYING,
    POTION,
    PRESETS,
    SEED_BITS,
    IllegalAction,
    Rules,
    RulesError,
    SeedError,
    State,
    apply,
    legal_actions,
    new_game,
    new_seed,
    preset,
    preview,
    readable,
    seed_from_text,
    seed_to_text,
    whole_number,
)
from games.engine import actions as A
from terminal.colour import for_terminal
from terminal.usage import SEED_HELP, invocation, prog

HELP = """Moves:
  1-4     take that room card (a monster is fought with your weapon when it can be)
  1b      fight monster 1 barehanded        1w  fight it with your weapon
  a       avoid the room (not twice in a row)"""
MERCHANT_HELP = "  b1..b6  buy merchant card, l leave"
NECROMANCER_HELP = "  r / d   raise the graveyard / decline the necromancer"
LOOP_HELP = "  o / e   loop again / retire with your score"
LAST_HELP = "  h       this help                         q   quit (prints the moves so far)"


def help_text(rules) -> str:
    """The moves this game can have: the expansion's only when its rules deal them."""
    lines = [HELP]
    lines += [MERCHANT_HELP] if rules.merchants else []
    lines += [NECROMANCER_HELP] if rules.necromancers else []
    lines += [LOOP_HELP] if rules.looping else []
    return "\n".join([*lines, LAST_HELP])


def health_bar(health: int, maximum: int, width: int = 20) -> str:
    filled = round(width * health / maximum) if maximum else 0
    return "█" * filled + "░" * (width - filled)


def weapon_line(s: State) -> str:
    if s.weapon is None:
        return "Weapon: none (barehanded)"
    if not s.kills:
        return f"Weapon: {s.weapon.label} — fresh, can hit any monster"
    last = s.kills[-1]
    limit = "up to" if s.rules.weapon_limit == "lower_or_equal" else "below"
    return f"Weapon: {s.weapon.label} — last slew {last.label}, can hit monsters {limit} {last.value}"


def render(s: State, seed_text: str) -> str:
    lines = [
        f"Room {s.turn} · Health {s.health}/{s.rules.max_health} {health_bar(s.health, s.rules.max_health)}"
        f" · Dungeon {len(s.dungeon)} cards" + (f" · Loop {s.loop}" if s.rules.looping else ""),
        weapon_line(s),
    ]
    # The death is said once, on the verdict line below.
    lines += [f"  · {e.text}" for e in s.events if e.kind != "death"]
    if s.status != PLAYING:
        verdict = "You survived the dungeon!" if s.status == "won" else "You died."
        lines.append(f"{verdict} Score: {s.score}. Seed {seed_text} · {s.rules.name}")
        return "\n".join(lines)
    phase = s.pending[0] if s.pending else None
    if phase == AT_MERCHANT:
        lines.append("The merchant offers:")
        for i, card in enumerate(s.pending[1]):
            action = A.buy(i)
            price = preview(s, action).short if action in legal_actions(s) else "not for sale"
            lines.append(f"  b{i + 1}) {card.label:<4} {price}")
        lines.append("  l) leave")
        return "\n".join(lines)
    if phase == AT_NECROMANCER:
        lines.append("The necromancer: r) raise the graveyard for 2 health   d) decline")
        return "\n".join(lines)
    if phase == AT_CROSSROADS:
        lines.append("Cleared! o) loop into the graveyard   e) retire with your score")
        return "\n".join(lines)
    if s.final_room:
        lines.append("FINAL ROOM — every card must be resolved.")
    legal = set(legal_actions(s))
    for i, card in enumerate(s.room):
        if card is None:
            lines.append(f"  {i + 1})  —  played")
            continue
        if card.kind == MONSTER:
            parts = []
            if A.fight_with_weapon(i) in legal:
                parts.append(f"{preview(s, A.fight_with_weapon(i)).short} with weapon")
            parts.append(f"{preview(s, A.take(i)).short} barehanded")
            detail = " / ".join(parts)
        else:
            detail = card_detail(preview(s, A.take(i)))
        lines.append(f"  {i + 1}) {card.label:<4} {detail}")
    lines.append("  a) avoid" if s.can_avoid else "  (avoid not available)")
    return "\n".join(lines)


def parse_seed(text: str) -> int:
    """A seed as shared (``K7Q2-M9XD``) or as a plain number (``#123`` or a number that is not 8 characters)."""
    cleaned = text.strip()
    if not cleaned:
        raise SeedError("the seed is empty: give one like K7Q2-M9XD or #5 (quoted in a shell: '#5'), or leave "
                        "--seed out for a new random deal")
    if cleaned.startswith("#") or (cleaned.isascii() and cleaned.isdigit() and len(cleaned) != 8):
        value = whole_number(cleaned.removeprefix("#"), digits=20)
        if value is None:
            raise SeedError(f"{quoted(text)} is not a seed number: write # and digits, like #5")
        if not 0 <= value < (1 << SEED_BITS):
            raise SeedError(f"a seed number is from 0 to 2^{SEED_BITS} - 1")
        return value
    return seed_from_text(cleaned)


def quoted(text: str, limit: int = 20) -> str:
    """What a player typed, as a message quotes it back: on one line and at most ``limit`` characters."""
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def card_detail(outcome) -> str:
    """What taking a card does, as the Discord buttons say it: a potion at full health is ``+0 (full)``."""
    if outcome.card is not None and outcome.card.kind == POTION and not outcome.heal and not outcome.wasted:
        return "+0 (full)"
    return outcome.short


def parse_move(s: State, text: str) -> A.Action | None:
    """A typed move as an action, or None for an unknown command (raises IllegalAction via apply later)."""
    t = text.strip().lower()
    if not t:
        return None
    simple = {"a": A.AVOID_ACTION, "l": A.LEAVE_ACTION, "r": A.RAISE_ACTION, "d": A.DECLINE_ACTION,
              "o": A.LOOP_ACTION, "e": A.RETIRE_ACTION}
    if t in simple:
        return simple[t]
    offer = whole_number(t[1:], digits=2) if t[0] == "b" else None
    if offer is not None:
        return A.buy(offer - 1)
    suffix = t[-1] if t[-1] in "wb" else ""
    number = whole_number(t[:-1] if suffix else t, digits=2)  # (0-9 only: ① and ² are not card numbers)
    if number is None:
        return None
    slot = number - 1
    if suffix == "b":
        return A.take(slot)
    if suffix == "w":
        return A.fight_with_weapon(slot)
    # A bare number: use the weapon on a monster when it can be used.
    weapon = A.fight_with_weapon(slot)
    return weapon if weapon in legal_actions(s) else A.take(slot)


def typed_move(s: State, action: A.Action) -> str:
    """What to type at the prompt for ``action`` in state ``s``: the inverse of ``parse_move``."""
    simple = {A.AVOID: "a", A.LEAVE: "l", A.RAISE: "r", A.DECLINE: "d", A.LOOP: "o", A.RETIRE: "e"}
    if action.kind in simple:
        return simple[action.kind]
    if action.kind == A.BUY:
        return f"b{action.index + 1}"
    if action.kind == A.FIGHT_WITH_WEAPON:
        return f"{action.index + 1}w"
    card = s.room[action.index] if 0 <= action.index < len(s.room) else None
    # A bare number on a monster would use the weapon, so barehanded fights say so.
    return f"{action.index + 1}b" if card is not None and card.kind == MONSTER else f"{action.index + 1}"


def moves_text(s: State, seed_text: str) -> str:
    """The game's moves as typed (what ``solve`` prints and ``review --moves`` reads), and how to review them."""
    start, typed = new_game(s.rules, seed=s.rng_seed, deck=s.start_deck), []
    for action in s.history:
        typed.append(typed_move(start, action))
        start = apply(start, action)
    if not typed:
        return "Moves: none yet."
    moves = " ".join(typed)
    preset_option = "" if s.rules.name == "classic" else f" --preset {s.rules.name}"
    return (f"Moves: {moves}\nReview them: {invocation()} review --seed {seed_text}{preset_option} "
            f'--moves "{moves}"')


PLAYER = 1  # the terminal's one player, as the store knows them
INTERRUPTED = 130  # the exit status of a command stopped with Ctrl-C (docs/OPERATIONS.md)


def _raise_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def ctrl_c_raises():
    """Ctrl-C raises KeyboardInterrupt wherever the game is, as in any Python program. (``asyncio.run`` would only
    cancel the game's task, which a read waiting for the keyboard does not see until Enter; it leaves a handler
    that is not Python's default alone.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def run(seed: int, rules_name: str, stdin: TextIO, stdout: TextIO) -> int:
    """Play one game of ``rules_name`` from ``seed``, read from ``stdin``. The game is started and moved by the
    application layer (``app.play.solo``), as the bot's are, on a store of its own that lasts as long as the
    game (``app.play.scratch_store``). Ctrl-C leaves as ``q`` does, with the moves so far (exit status 130)."""
    shown: list[State] = []  # the game as last shown, whose moves Ctrl-C prints wherever it lands
    with ctrl_c_raises():
        try:
            return asyncio.run(_run(seed, preset(rules_name), stdin, stdout, shown))
        except KeyboardInterrupt:
            if not shown:
                raise
            return interrupted(shown[-1], seed_to_text(seed), stdout)


async def _run(seed: int, rules: Rules, stdin: TextIO, stdout: TextIO, shown: list[State] | None = None) -> int:
    async with scratch_store() as store:
        return await _play(store, seed, rules, stdin, stdout, [] if shown is None else shown)


async def _play(store, seed: int, rules: Rules, stdin: TextIO, stdout: TextIO, shown: list[State]) -> int:
    seed_text = seed_to_text(seed)
    record = (await solo.start_game(store, PLAYER, rules, seed)).record
    print(f"Scoundrel — seed {seed_text} · {rules.name}. Type h for help.", file=stdout)
    show = lambda text: print(readable(text), file=stdout)  # noqa: E731 - cards as the bot and the duel write them
    show("\n" + render(record.state, seed_text))
    while True:
        s = record.state
        shown[:] = [s]
        if s.status != PLAYING:
            print(moves_text(s, seed_text), file=stdout)
            return 0
        print("> ", end="", file=stdout, flush=True)
        line = stdin.readline()
        command = line.strip().lower()
        if not line or command in ("q", "quit", "exit"):  # a game left early can still be reviewed
            print(("" if line else "\n") + moves_text(s, seed_text) + "\nBye.", file=stdout)
            return 0
        if not command:  # an empty line: ask again, quietly
            continue
        if command in ("h", "help", "?"):
            print(help_text(s.rules), file=stdout)
            continue
        action = parse_move(s, command)
        if action is None:
            print(f"I don't know {quoted(command)}. Type h for help.", file=stdout)
            continue
        try:
            record = (await solo.move(store, record.id, PLAYER, record.version, action, loaded=record)).record
        except IllegalAction as exc:
            show(f"Not allowed: {exc}")
            continue
        show("\n" + render(record.state, seed_text))


def interrupted(s: State, seed_text: str, stdout: TextIO) -> int:
    print("\n" + moves_text(s, seed_text) + "\nBye.", file=stdout, flush=True)
    return INTERRUPTED


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=prog("play"), description="Play Scoundrel in the terminal.")
    parser.add_argument("--seed", help=SEED_HELP + " (default: a new random deal)")
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    args = parser.parse_args(argv)
    try:
        seed = parse_seed(args.seed) if args.seed is not None else new_seed()  # (--seed '' is refused)
        preset(args.preset)
    except (SeedError, RulesError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return run(seed, args.preset, sys.stdin, for_terminal(sys.stdout))  # red and black cards, unless NO_COLOR
