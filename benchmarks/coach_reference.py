"""The coach's reference set: fixed positions, every legal move judged exactly on at least 256 orders each.

    .venv/bin/python benchmarks/coach_reference.py build [--deals 30] [--jobs 2]   # build it, or go on building
    .venv/bin/python benchmarks/coach_reference.py extend [--jobs 2]              # more orders where it is unsure
    .venv/bin/python benchmarks/coach_reference.py status                         # how far it is, what it cost
    .venv/bin/python benchmarks/coach_reference.py build --set dev --deals 10     # the set to try changes on

The deals are classic deals that nothing is tuned on: deal *i* is the seed made from the text ``coach-reference/i``
(no benchmark, test or constant of the coach uses them otherwise). A second set, ``--set dev``, is built the same way
from the texts ``coach-dev/i``, into ``results/coach_dev.jsonl``: a change to the coach is tried and chosen on it, and
only then measured on the reference. The positions are every room's first position
(the room full, no card of it played yet) along par's line of each deal, where there is more than one move and more
than one order the unseen cards could be in: the positions players ask about most. For each, the orders of the cards
the player has not seen are judged, each as likely as another: every distinct order when there are at most
``ORDERS`` of them (the figures are then exact), else ``ORDERS`` orders drawn from a generator seeded apart from the
coach's own (so the coach is never judged on its own draws). On each order every legal move is solved exactly with
that order known, as the coach does on its own orders: so each move's mean over the orders is its expected score,
and two moves compare on the same orders (``coach_quality.py`` makes the paired comparison).

256 orders do not always settle a position: where a move risks a death on a few orders in a hundred (scores down to
-180 beside scores near 20), its mean swings by points from one 256 to another. ``extend`` judges such positions on
twice as many orders of the same draw (the first 256 unchanged), again and again up to ``MOST_ORDERS``, until every
move that might be within ``FAR`` points of the best is known to within ``CLOSE`` of it (the paired 95 % interval
of its gap to the best is at most that wide on each side), or is shown more than ``FAR`` below it.

``refine`` asks a narrower question of the moves coaches picked (``coach_quality.py --refine``): is some move more
than ``FAR`` points better than one of them? Where the answer is not yet sure at 99 % (the paired interval of the
gap straddles ``FAR``), the position is judged on twice as many orders of the same draw, up to ``MOST_REFINED``.
A verdict is looked at again after every doubling, hence 99 % rather than 95 % at each look. The question does not
lean either way: a pick the 256 orders put just above ``FAR`` below the best is judged further as surely as one
they put just under it, and the rows judged further serve every later coach.

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
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import PRESETS, apply, deal, decode, encode, legal_actions, new_game  # noqa: E402
from games.engine.seeds import seed_from_bytes  # noqa: E402
from games.solver import solve  # noqa: E402
from games.solver.fair import _all_orders, distinct_orders, drawn_orders, unseen_count, visible  # noqa: E402
from games.solver.position import Position  # noqa: E402
from games.solver.racing import Z, gap  # noqa: E402
from games.solver.search import gc_paused  # noqa: E402

ORDERS = 256
MOST_ORDERS = 1024  # ``extend`` judges an unsettled position on up to this many orders
MOST_REFINED = 4096  # ... and ``refine``, on up to this many
SURE_Z = 2.58  # standard errors of a 99 % interval (``refine``)
CLOSE, FAR = 0.5, 2.0  # as coach_quality.py judges the coach
CHEAP = 14  # unseen cards up to which a position is judged first
SETS = {"reference": ("coach-reference", "coach_reference.jsonl"), "dev": ("coach-dev", "coach_dev.jsonl")}
RESULTS = Path(__file__).resolve().parent / "results" / SETS["reference"][1]
RULES = PRESETS["classic"]


def deal_seed(i: int, name: str = "reference") -> int:
    return seed_from_bytes(f"{SETS[name][0]}/{i}".encode())


def use_set(name: str) -> None:
    """Build, load and save the set ``name`` (``SETS``) from now on."""
    global RESULTS, CURRENT
    RESULTS, CURRENT = RESULTS.with_name(SETS[name][1]), name


CURRENT = "reference"


def positions_of(i: int) -> list[dict]:
    """Every room's first position with a choice along par's line of deal ``i``: its moves so far, its size."""
    deck = deal(RULES, deal_seed(i, CURRENT))
    state = new_game(RULES, deck=tuple(deck))
    found = []
    line = tuple(solve(RULES, deck).actions)
    for n, action in enumerate(line):
        u = unseen_count(state)
        if (all(card is not None for card in state.room) and len(legal_actions(state)) > 1
                and distinct_orders(state.dungeon[:u]) > 1):
            found.append({"deal": i, "moves": encode(line[:n]), "turn": state.turn, "unseen": u}
                         | ({"set": CURRENT} if CURRENT != "reference" else {}))
        state = apply(state, action)
    return found


def state_of(item: dict):
    state = new_game(RULES, deck=tuple(deal(RULES, deal_seed(item["deal"], item.get("set", "reference")))))
    for action in decode(item["moves"]):
        state = apply(state, action)
    return state


def reference_orders(seen, count: int = ORDERS) -> tuple[list[tuple], bool]:
    """The orders judged: every distinct one when they are few, else ``count`` drawn apart from the coach's (the
    first ``ORDERS`` of any count are the same)."""
    u = unseen_count(seen)
    unseen, known = seen.dungeon[:u], seen.dungeon[u:]
    if distinct_orders(unseen) <= ORDERS:
        return [order + known for order in _all_orders(unseen)], True
    text = "reference|" + " ".join(c.code for c in unseen) + "|" + " ".join(c.code for c in known)
    return drawn_orders(unseen, known, int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"), count), False


def judge(item: dict, count: int = ORDERS) -> dict:
    """Every legal move of the position, solved exactly on each reference order (those beyond the ones it has)."""
    started = time.process_time()
    seen = visible(state_of(item))
    actions = legal_actions(seen)
    dungeons, exact = reference_orders(seen, count)
    room = tuple(card for card in seen.room if card is not None)
    values = list(item.get("values", []))
    with gc_paused():
        for dungeon in dungeons[len(values):]:
            position = Position(RULES, room + dungeon)
            here = seen._replace(dungeon=dungeon)
            top = position.value(here)
            values.append([position.value(apply(here, action), at_most=top) for action in actions])
            position.release(10**9)
    return {**item, "actions": [a.code for a in actions], "exact": exact, "orders": len(dungeons),
            "values": values, "cpu": round(item.get("cpu", 0) + time.process_time() - started, 2)}


def unsettled(row: dict) -> bool:
    """Whether some move might be within ``FAR`` of the best but its gap to it is known only to more than
    ``CLOSE`` either way (see the module's text)."""
    if row["exact"]:
        return False
    columns = list(zip(*row["values"], strict=True))
    best = max(range(len(columns)), key=lambda i: (sum(columns[i]), -i))
    for i, column in enumerate(columns):
        if i != best:
            g = gap(columns[best], column)
            if g.margin > CLOSE and g.low < FAR:
                return True
    return False


def doubled(row: dict, still_open: Callable[[dict], bool], most: int) -> dict:
    """``row`` on twice as many orders, again and again, while ``still_open(row)`` and it has fewer than ``most``."""
    while still_open(row) and row["orders"] < most:
        row = judge(row, 2 * row["orders"])
    return row


def settle(row: dict) -> dict:
    """``row`` on twice as many orders, again and again, until it is settled or on ``MOST_ORDERS``."""
    return doubled(row, unsettled, MOST_ORDERS)


def far_open(row: dict, chosen: int) -> bool:
    """Whether some move might, at 99 %, be more than ``FAR`` points better than move ``chosen``, or might not."""
    if row["exact"]:
        return False
    columns = list(zip(*row["values"], strict=True))
    for i, column in enumerate(columns):
        if i != chosen:
            g = gap(column, columns[chosen])
            margin = g.margin * SURE_Z / Z
            if g.mean - margin < FAR < g.mean + margin:
                return True
    return False


def refine(row: dict, actions: list[str]) -> dict:
    """``row`` on twice as many orders, again and again, until whether some move is more than ``FAR`` points better
    than each of ``actions`` is sure at 99 %, or on ``MOST_REFINED`` orders."""
    chosen = [row["actions"].index(action) for action in actions]
    return doubled(row, lambda r: any(far_open(r, i) for i in chosen), MOST_REFINED)


def save(done: dict[tuple[int, str], dict]) -> None:
    """The whole file again (a stop loses only what is unwritten)."""
    RESULTS.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in done.values()))


def extend(jobs: int) -> None:
    done = load()
    todo = [row for row in done.values() if unsettled(row) and row["orders"] < MOST_ORDERS]
    print(f"{len(done)} positions, {len(todo)} unsettled", flush=True)
    with ProcessPoolExecutor(jobs) as pool:
        for future in as_completed([pool.submit(settle, row) for row in todo]):
            row = future.result()
            done[(row["deal"], row["moves"])] = row
            save(done)  # the settled row in place of the old
            print(f"deal {row['deal']:2d} room {row['turn']:2d} unseen {row['unseen']:2d} orders {row['orders']:4d}"
                  f"{'' if not unsettled(row) else ' (still unsettled)'} {row['cpu']:7.1f} s", flush=True)


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
    parser.add_argument("command", choices=["build", "extend", "status"])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--set", choices=sorted(SETS), default="reference")
    args = parser.parse_args()
    use_set(args.set)
    if args.command == "build":
        build(args.deals, args.jobs)
    elif args.command == "extend":
        extend(args.jobs)
    else:
        status(args.deals)


if __name__ == "__main__":
    main()
