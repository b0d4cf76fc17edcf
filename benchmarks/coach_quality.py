"""The coach's advice against the reference set (``coach_reference.py``): how often it picks the best move, how much
the others cost, whether the figures it shows are true, and what that costs in CPU.

    .venv/bin/python benchmarks/coach_quality.py                         # the bot's hint (its budget)
    .venv/bin/python benchmarks/coach_quality.py --budget 0              # judged until sure (up to 256 orders)
    .venv/bin/python benchmarks/coach_quality.py --samples 8             # a fixed 8 orders: the coach before
    .venv/bin/python benchmarks/coach_quality.py --curve                 # orders against mistakes, from the set
    .venv/bin/python benchmarks/coach_quality.py --most-unseen 14        # only the positions with few unseen cards
    .venv/bin/python benchmarks/coach_quality.py --refine --jobs 2       # more orders where a verdict is open

A move's reference figure is its mean best score over the reference's orders (every order, or 256 drawn apart from
the coach's); the best is the move with the highest. The coach's move *costs* the difference, but counts as best
where the reference cannot tell the two apart at 95 % (paired over the same orders). The figures shown are *true*
when the expected score, as the player reads it ("about 21 ± 3"), meets the reference's 95 % interval of that move;
likewise the chance to win (Wilson intervals).

``--curve`` needs no solving: it draws the coach's orders from the reference's own (20 draws a position and a count),
picks the move with the best mean on them, and scores that pick against all 256: the mistakes a fixed number of
orders makes, and the CPU that many orders cost (the reference's CPU a position, per order, judged every move
exactly: an upper bound of the coach's, which bounds the moves it can).

``--refine``: 256 orders do not always say whether the coach's move is more than 2 points below the best (a move that
dies on a few orders in a hundred moves by points from one 256 to another). Where the paired 99 % interval of some
move's lead over the pick straddles 2 points, the position is judged on twice as many orders of the reference's own
draw, again and again up to 4,096 (``coach_reference.refine``, either side of 2 alike), and the set keeps those rows.
The report is then made again against them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from coach_reference import MOST_REFINED, SETS, far_open, load, save, state_of, use_set  # noqa: E402
from coach_reference import refine as refine_row  # noqa: E402

from games.engine import PRESETS  # noqa: E402
from games.solver import HINT_BUDGET, fair, racing  # noqa: E402
from games.solver.fair import Coach  # noqa: E402
from games.solver.racing import gap, mean_and_margin, win_interval  # noqa: E402

CLOSE = 0.5
FAR = 2.0


def reference(row: dict) -> tuple[list[float], int]:
    """Each move's mean over the reference's orders, and the index of the best (the first of the highest)."""
    columns = list(zip(*row["values"], strict=True))
    means = [sum(column) / len(column) for column in columns]
    return means, max(range(len(means)), key=lambda i: (means[i], -i))


def cost(row: dict, chosen: int) -> float:
    """What picking move ``chosen`` costs against the reference's best: 0 where the reference cannot tell the two
    apart at 95 % (paired over its orders; every order judged, any difference is real)."""
    means, best = reference(row)
    if means[chosen] >= means[best]:
        return 0.0
    if not row["exact"] and gap([v[best] for v in row["values"]], [v[chosen] for v in row["values"]]).low <= 0:
        return 0.0
    return means[best] - means[chosen]


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def summary(costs: list[float]) -> str:
    n = len(costs)
    within = sum(c <= CLOSE for c in costs)
    return (f"within {CLOSE} of the best: {within}/{n} ({100 * within / n:.1f} %); more than {FAR} below: "
            f"{sum(c > FAR for c in costs)}; worst {max(costs):.1f}, mean cost {statistics.fmean(costs):.2f}")


def judge_coach(rows: list[dict], samples: int | None, budget: int | None) -> list[dict]:
    """The coach's advice at every position: its move, the figures the player reads, its CPU."""
    rules = PRESETS["classic"]
    picks = []
    for row in rows:
        state = state_of(row)
        started = time.process_time()
        advice = Coach(rules, samples).advise(state, budget=budget)
        cpu = time.process_time() - started
        shown = advice.best  # as the player reads it: "about 21 ± 3" (``hint_words.score_words``), or exact
        expected, said = ((round(shown.expected), max(1, round(shown.margin))) if shown.win_low is not None
                          else (shown.expected, 0.0))
        picks.append({"key": (row["deal"], row["moves"]), "action": shown.action.code, "expected": expected,
                      "said": said, "win_low": shown.win if shown.win_low is None else shown.win_low,
                      "win_high": shown.win if shown.win_high is None else shown.win_high,
                      "orders": advice.orders, "sure": advice.sure, "cpu": cpu})
        print(f"deal {row['deal']:2d} room {row['turn']:2d} unseen {row['unseen']:2d}: {shown.action.code:3} "
              f"cost {cost(row, row['actions'].index(shown.action.code)):5.1f}  {advice.orders:3d} orders"
              f"{' sure' if advice.sure else ''}  {cpu:5.2f} s", flush=True)
    return picks


def report(rows: dict, picks: list[dict], how: str) -> None:
    """The picks against the reference (``rows``, by position)."""
    costs, false_score, false_win = [], 0, 0
    for pick in picks:
        row = rows[pick["key"]]
        chosen = row["actions"].index(pick["action"])
        costs.append(cost(row, chosen))
        column = [v[chosen] for v in row["values"]]
        mean, margin = mean_and_margin(column)
        if row["exact"]:
            margin = 0.0
        if abs(pick["expected"] - mean) > margin + pick["said"] + 1e-9:
            false_score += 1
        low, high = win_interval(sum(v > 0 for v in column), len(column)) if not row["exact"] else (
            sum(v > 0 for v in column) / len(column),) * 2
        if pick["win_high"] < low - 1e-9 or pick["win_low"] > high + 1e-9:
            false_win += 1
    cpus = [pick["cpu"] for pick in picks]
    print(f"positions {len(picks)} from {len({pick['key'][0] for pick in picks})} deals; coach: {how}")
    print(summary(costs))
    print(f"figures outside the reference's 95 % interval: expected score {false_score}, chance to win {false_win}; "
          f"said sure on {sum(pick['sure'] for pick in picks)}")
    print(f"CPU a position: median {statistics.median(cpus):.2f} s, p95 {p95(cpus):.2f} s, max {max(cpus):.2f} s")


def refine(rows: dict, picks: list[dict], jobs: int) -> None:
    """Judge on more orders the positions where whether a pick is more than ``FAR`` below the best is not sure
    (``coach_reference.refine``), keep them in the set, and say what changed (``picks``: of one coach or several)."""
    picked: dict[tuple, list[str]] = {}
    for pick in picks:
        picked.setdefault(pick["key"], []).append(pick["action"])
    todo = [(rows[key], actions) for key, actions in picked.items() if rows[key]["orders"] < MOST_REFINED
            and any(far_open(rows[key], rows[key]["actions"].index(action)) for action in actions)]
    print(f"{len(todo)} positions where a pick's verdict is open at 99 %: judged on more orders", flush=True)
    with ProcessPoolExecutor(jobs) as pool:
        futures = {pool.submit(refine_row, row, actions): (row, actions) for row, actions in todo}
        for future in as_completed(futures):
            before, actions = futures[future]
            row = future.result()
            rows[(row["deal"], row["moves"])] = row
            save(rows)
            for action in sorted(set(actions)):
                chosen = row["actions"].index(action)
                print(f"deal {row['deal']:2d} room {row['turn']:2d}: {action:3} cost {cost(before, chosen):5.1f} on "
                      f"{before['orders']} orders, {cost(row, chosen):5.1f} on {row['orders']}"
                      f"{' (still open)' if far_open(row, chosen) else ''}  {row['cpu'] - before['cpu']:.0f} s",
                      flush=True)


def curve(rows: list[dict], draws: int = 20) -> None:
    rng = random.Random(1)
    sampled = [row for row in rows if not row["exact"]]
    print(f"{len(sampled)} positions whose orders are sampled; {draws} draws of the coach's orders each")
    print("orders | within 0.5 | more than 2 below | worst | CPU a position: median, p95 (reference's per order)")
    for n in (4, 8, 16, 32, 64, 128):
        costs, cpus = [], []
        for row in sampled:
            per_order = row["cpu"] / row["orders"]
            for _ in range(draws):
                picked = rng.sample(range(row["orders"]), n)
                means = [statistics.fmean(row["values"][k][i] for k in picked) for i in range(len(row["actions"]))]
                chosen = max(range(len(means)), key=lambda i: (means[i], -i))
                costs.append(cost(row, chosen))
            cpus.append(per_order * n)
        within = sum(c <= CLOSE for c in costs) / len(costs)
        print(f"{n:6d} | {100 * within:9.1f} % | {100 * sum(c > FAR for c in costs) / len(costs):16.2f} % | "
              f"{max(costs):5.1f} | {statistics.median(cpus):.2f} s, {p95(cpus):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=None, help="a fixed number of orders (the coach before: 8)")
    parser.add_argument("--budget", type=int, default=HINT_BUDGET,
                        help="tests a hint's searches may make (0: until sure)")
    parser.add_argument("--most-unseen", type=int, default=99, help="only positions with at most this many unseen")
    parser.add_argument("--curve", action="store_true", help="orders against mistakes, from the reference alone")
    parser.add_argument("--first", type=int, default=fair.FIRST_ORDERS, help="orders judged before the first look")
    parser.add_argument("--z", type=float, default=racing.Z, help="standard errors of the coach's intervals")
    parser.add_argument("--refine", action="store_true",
                        help="then judge on more orders where the pick's verdict is open (the set keeps them)")
    parser.add_argument("--jobs", type=int, default=1, help="processes judging more orders (--refine)")
    parser.add_argument("--set", choices=sorted(SETS), default="reference",
                        help="dev: the set a change is tried on (coach_reference.py)")
    args = parser.parse_args()
    use_set(args.set)
    fair.FIRST_ORDERS, racing.Z = args.first, args.z  # to try other settings against the same set
    everything = load()
    rows = sorted((row for row in everything.values() if row["unseen"] <= args.most_unseen),
                  key=lambda row: (row["deal"], row["turn"]))
    if args.curve:
        curve(rows)
        return
    picks = judge_coach(rows, args.samples, args.budget or None)
    how = f"samples {args.samples}" if args.samples else (
        f"until sure (first {fair.FIRST_ORDERS} orders, z {racing.Z}), "
        f"budget {f'{args.budget} tests' if args.budget else 'none'}")
    report(everything, picks, how)
    if args.refine:
        refine(everything, picks, args.jobs)
        report(everything, picks, how + "; the open verdicts judged on more orders")


if __name__ == "__main__":
    main()
