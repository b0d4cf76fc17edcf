"""``scoundrel-bot duel``: the two-player duel hot-seat, two people at one terminal. Quitting exits 0.

The duel is challenged, accepted and moved through the application layer (``app.play.duels``), as the bot's are,
on a store of its own that lasts as long as the duel (``app.play.scratch_store``)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TextIO

from app.play import duels
from app.play.scratch_store import scratch_store
from games.duel import IllegalDuelAction, board_lines, event_text, hand_text, parse_command, phase_text, rules_text
from games.engine import SeedError, new_seed, readable, seed_to_text
from terminal.colour import for_terminal
from terminal.play import parse_seed
from terminal.usage import SEED_HELP, prog

HELP = """Moves (pairs and dice are numbered from 1):
  p DIE PAIR    place that die (in roll order) on a column pair     e.g. p 1 3
  b PAIR CARD   build: play CARD on your own column of PAIR          e.g. b 2 ♥J   (or b 2 jh)
  s PAIR CARD   steal your opponent's column of PAIR with CARD       e.g. s 4 ♤10  (or s 4 10s)
  f PAIR        declare your column of PAIR finished (4+ cards)
  d             done: end your play
  resign        give up (the other player wins)
  rules         the rules of the duel
  h             this help          q   quit"""


def wait_for_player(actor: int, stdin: TextIO, stdout: TextIO) -> bool:
    """Hot-seat: the next player's hand waits for Enter, so the other can look away first (False: input ended)."""
    stdout.write(f"Player {actor + 1}, press Enter to see your hand (Player {2 - actor}, look away).")
    stdout.flush()
    return bool(stdin.readline())


PLAYERS = (1, 2)  # the two players at the terminal, as the store knows them


def run(seed: int, stdin: TextIO, stdout: TextIO) -> int:
    return asyncio.run(_run(seed, stdin, stdout))


async def _run(seed: int, stdin: TextIO, stdout: TextIO) -> int:
    async with scratch_store() as store:
        return await _play(store, seed, stdin, stdout)


async def _play(store, seed: int, stdin: TextIO, stdout: TextIO) -> int:
    record = await duels.challenge(store, *PLAYERS, seed=seed)
    record = await duels.answer(store, record.id, PLAYERS[1], accept=True)
    state = record.state

    def out(text: str) -> None:  # cards as the solo game and the bot write them: ♥️J, ♤10
        stdout.write(readable(text))

    out(f"Scoundrel duel · seed {seed_to_text(seed)} · goal: finish one column of 4+, two of 5+, one of 6+\n"
        "(h for help; look away while the other player reads their hand)\n")
    hand_shown_to = state.actor  # the first player reads theirs at once
    while not state.over:
        out("\n" + "\n".join(board_lines(state)) + "\n")
        for event in state.events:
            out(f"  · {event_text(event)}\n")
        out(phase_text(state) + "\n")
        if state.actor != hand_shown_to:
            if not wait_for_player(state.actor, stdin, stdout):
                out("\nBye.\n")
                return 0
            hand_shown_to = state.actor
        out(f"Player {state.actor + 1}'s hand: {hand_text(state.hands[state.actor])}\n")
        out(f"Player {state.actor + 1}> ")
        stdout.flush()
        line = stdin.readline()
        if not line:  # end of input: the players have left
            out("\nBye.\n")
            return 0
        line = line.strip()
        if line.lower() in ("q", "quit", "exit"):
            out("Bye.\n")
            return 0
        if line.lower() in ("h", "help", "?"):
            out(HELP + "\n")
            continue
        if line.lower() == "rules":
            out(rules_text().replace("**", "") + "\n")
            continue
        try:
            code = duels.RESIGN if line.lower() == "resign" else parse_command(line).code
            record = (await duels.move(store, record.id, PLAYERS[state.actor], record.version, code)).record
        except (ValueError, IllegalDuelAction) as exc:
            out(f"  ✗ {exc}\n")
            continue
        state = record.state
    out("\n" + "\n".join(board_lines(state)) + "\n")
    for event in state.events:
        out(f"  · {event_text(event)}\n")
    out(f"{phase_text(state)} Moves: {' '.join(state.history)}\n")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=prog("duel"),
                                     description="Play the two-player Scoundrel duel at one terminal.")
    parser.add_argument("--seed", help=SEED_HELP + " (default: a new random deal)")
    args = parser.parse_args(argv)
    try:
        seed = parse_seed(args.seed) if args.seed is not None else new_seed()  # (--seed '' is refused)
    except (SeedError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return run(seed, sys.stdin, for_terminal(sys.stdout))  # red and black cards, unless NO_COLOR
