"""The coach's reference set: fixed positions, every legal move judged exactly on at least 256 orders each.

    .venv/bin/python benchmarks/coach_reference.py build [--deals 30] [--jobs 2]   # build it, or go on building
    .venv/bin/python benchmarks/coach_reference.py status                         # how far it is, what it cost

The deals are classic deals that nothing is tuned on: deal *i* is the seed made from the text ``coach-reference/i``
(no benchmark, test or constant of the coach uses them otherwise). The positions are every room's first position
(the room full, no card of it played yet) along par's line of each deal, where there is more than one move and more
than one order the unseen cards could be in: the positions players ask about most. For each, the orders of the cards
the player has not seen are judged, each as likely as another: every distinct order when there are at most
``ORDERS`` of them (the figures are then exact), else ``ORDERS`` orders drawn from a generator seeded apart from the
coach's own (so the coach is never judged on its own draws). On each order every legal move is solved exactly with
that order known, as the coach does on its own orders: so each move's mean over the orders is its expected score,
and two moves compare on the same orders (``coach_quality.py`` makes the paired comparison).

Each position is appended to ``benchmarks/results/coach_reference.jsonl`` as soon as it is done, so a stopped build
loses nothing and a rerun does only what is missing. Cheap positions (few unseen cards) go first, then the rest deal by
deal, so a partial set already holds every late position and whole deals. The CPU time of each position is kept with it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import PRESETS, apply, deal, decode, encode, legal_actions, new_game  # noqa: E402
from games.engine.seeds import seed_from_bytes  # noqa: E402
from games.solver import solve  # noqa: E402
from games.solver.fair import _all_orders, distinct_orders, drawn_orders, unseen_count, visible  # noqa: E402
from games.solver.position import Position  # noqa: E402
from games.solver.search import gc_paused  # noqa: E402

ORDERS = 256
CHEAP = 14  # unseen cards up to which a position is judged first
RESULTS = Path(__file__).resolve().parent / "results" / "coach_reference.jsonl"
RULES = PRESETS["classic"]


def deal_seed(i: int) -> int:
    return seed_from_bytes(f"coach-reference/{i}".encode())


def positions_of(i: int) -> list[dict]:
    """Every room's first position with a choice along par's line of deal ``i``: its moves so far, its size."""
    deck = deal(RULES, deal_seed(i))
    state = new_game(RULES, deck=tuple(deck))
    found = []
    line = tuple(solve(RULES, deck).actions)
    for n, action in enumerate(line):
        u = unseen_count(state)
        if (all(card is not None for card in state.room) and len(legal_actions(state)) > 1
                and distinct_orders(state.dungeon[:u]) > 1):
            found.append({"deal": i, "moves": encode(line[:n]),
                          "turn": state.turn, "unseen": u})
        state = apply(state, action)
    return found


def state_of(item: dict):
    state = new_game(RULES, deck=tuple(deal(RULES, deal_seed(item["deal"]))))
    for action in decode(item["moves"]):
        state = apply(state, action)
    return state


def reference_orders(seen) -> tuple[list[tuple], bool]:
    """The orders judged: every distinct one when they are few, else ``ORDERS`` drawn apart from the coach's."""
    u = unseen_count(seen)
    unseen, known = seen.dungeon[:u], seen.dungeon[u:]
    if distinct_orders(unseen) <= ORDERS:
        return [order + known for order in _all_orders(unseen)], True
    text = "reference|" + " ".join(c.code for c in unseen) + "|" + " ".join(c.code for c in known)
    return drawn_orders(unseen, known, int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"), ORDERS), False


def judge(item: dict) -> dict:
    """Every legal move of the position, solved exactly on each reference order."""
    started = time.process_time()
    seen = visible(state_of(item))
    actions = legal_actions(seen)
    dungeons, exact = reference_orders(seen)
    room = tuple(card for card in seen.room if card is not None)
    values = []
    with gc_paused():
        for dungeon in dungeons:
            position = Position(RULES, room + dungeon)
            here = seen._replace(dungeon=dungeon)
            top = position.value(here)
            values.append([position.value(apply(here, action), at_most=top) for action in actions])
            position.release(10**9)
    return {**item, "actions": [a.code for a in actions], "exact": exact, "orders": len(dungeons),
            "values": values, "cpu": round(time.process_time() - started, 2)}


def load() -> dict[tuple[int, str], dict]:
    done = {}
    if RESULTS.exists():
        for line in RESULTS.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done[(row["deal"], row["moves"])] = row
    return done


def build(deals: int, jobs: int) -> None:
    done = load()
    todo = [p for i in range(deals) for p in positions_of(i) if (p["deal"], p["moves"]) not in done]
    # The cheap positions first (few unseen cards: seconds each), then deal by deal, so that a partial set holds every
    # late position and whole deals, their first rooms included (a first room's 256 orders cost minutes).
    todo.sort(key=lambda p: (p["unseen"] > CHEAP, p["deal"] if p["unseen"] > CHEAP else 0, p["unseen"]))
    print(f"{len(done)} positions done, {len(todo)} to judge", flush=True)
    RESULTS.parent.mkdir(exist_ok=True)
    with ProcessPoolExecutor(jobs) as pool, RESULTS.open("a") as out:
        for future in as_completed([pool.submit(judge, p) for p in todo]):
            row = future.result()
            out.write(json.dumps(row, separators=(",", ":")) + "\n")
            out.flush()
            print(f"deal {row['deal']:2d} room {row['turn']:2d} unseen {row['unseen']:2d} "
                  f"orders {row['orders']:3d}{' (all)' if row['exact'] else ''} {row['cpu']:7.1f} s", flush=True)


def status(deals: int) -> None:
    done = load()
    wanted = [p for i in range(deals) for p in positions_of(i)]
    have = [done[(p["deal"], p["moves"])] for p in wanted if (p["deal"], p["moves"]) in done]
    print(f"{len(have)} of {len(wanted)} positions from {deals} deals judged "
          f"({len({row['deal'] for row in have})} deals with at least one)")
    if have:
        cpu = [row["cpu"] for row in have]
        print(f"CPU a position: median {statistics.median(cpu):.1f} s, max {max(cpu):.1f} s, total {sum(cpu):.0f} s; "
              f"every order judged in {sum(row['exact'] for row in have)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["build", "status"])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if args.command == "build":
        build(args.deals, args.jobs)
    else:
        status(args.deals)


if __name__ == "__main__":
    main()
