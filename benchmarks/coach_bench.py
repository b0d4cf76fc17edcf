"""The fair coach's speed: a hint at every position of a game, a whole game's review, and the coach's own play.

    .venv/bin/python benchmarks/coach_bench.py               # 30 classic deals
    .venv/bin/python benchmarks/coach_bench.py --deals 3     # a short run
    .venv/bin/python benchmarks/coach_bench.py --cold        # every hint from nothing (no orders kept)
    .venv/bin/python benchmarks/coach_bench.py --play-samples 4 --reviews 10   # a cheaper line, 10 reviews

For each deal the coach plays it (``coach_play``), then a hint is asked at every position of that line, in order,
as the bot's worker computes it (``app.coach.advice._hint_in_worker``: the worker keeps the orders it solved, so a
room's second hint reuses the first one's; ``--cold`` forgets them before each hint), then the line is reviewed
(``_review_in_worker``: par seeing every card, then each move judged fairly against the best). Times are the
process's CPU time (one core; the machine may be shared, so the wall-clock time is printed beside it). After each
request the benchmark waits, as the worker does until its next request, while the searches that request let go of
are freed (``app.solver.tidying``): that time is not in a request's figures, and its total is printed apart.

The deals are fixed (seed i is derived from the text ``solver-bench/i``, as in ``solver_bench.py``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.coach import advice as coach  # noqa: E402
from app.solver.tidying import TIDIER  # noqa: E402
from games.engine import PRESETS, apply, deal, encode, new_game, seed_to_text  # noqa: E402
from games.engine.seeds import seed_from_bytes  # noqa: E402
from games.solver import fair, native  # noqa: E402


def timed(fn, *args):
    cpu, wall = time.process_time(), time.perf_counter()
    result = fn(*args)
    return result, time.process_time() - cpu, time.perf_counter() - wall


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--cold", action="store_true", help="forget the solved orders before every hint")
    parser.add_argument("--times", help="append each deal's times to this file (JSON lines), to combine runs")
    parser.add_argument("--reviews", type=int, default=None, help="review only the first N deals' lines")
    parser.add_argument("--play-samples", type=int, default=fair.PLAY_SAMPLES,
                        help="orders a move of the coach's own play is judged on (the line the hints are asked along)")
    parser.add_argument("--budget", type=int, default=coach.HINT_BUDGET, help="tests a hint's searches may make")
    args = parser.parse_args()
    coach.HINT_BUDGET = args.budget  # the bot's hint reads it from there
    rules = PRESETS["classic"]
    hints, hints_wall, reviews, reviews_wall, plays, scores, spare = [], [], [], [], [], [], []
    firsts: list[float] = []  # hints at a room's first position
    for i in range(args.first, args.first + args.deals):
        seed = seed_from_bytes(f"solver-bench/{i}".encode())
        deck = deal(rules, seed)
        codes = " ".join(card.code for card in deck)
        game, cpu, _ = timed(fair.coach_play, rules, deck, args.play_samples)
        plays.append(cpu)
        scores.append(game.score)
        coach._coaches.clear()
        deal_hints = []
        state = new_game(rules, deck=tuple(deck))
        for n in range(len(game.moves)):
            first = all(card is not None for card in state.room)  # a room's first position: the costliest
            state = apply(state, game.moves[n])
            if args.cold:
                coach._coaches.clear()
            _, cpu, wall = timed(coach._hint_in_worker, rules.to_dict(), codes, encode(game.moves[:n]))
            deal_hints.append(cpu)
            hints_wall.append(wall)
            if first:
                firsts.append(cpu)
            spare.append(timed(TIDIER.wait, 600)[1])  # the worker's time until the next request
        hints += deal_hints
        reviewed = []
        line = f"deal {i:3d} {seed_to_text(seed)}  coach {game.score:5d} ({plays[-1]:5.1f} s)  hints: " \
               f"median {statistics.median(deal_hints):.2f} s, max {max(deal_hints):.2f} s over {len(deal_hints)}"
        if args.reviews is None or i - args.first < args.reviews:
            coach._coaches.clear()
            coach._positions.clear()
            _, cpu, wall = timed(coach._review_in_worker, rules.to_dict(), codes, encode(game.moves))
            spare.append(timed(TIDIER.wait, 600)[1])
            reviews.append(cpu)
            reviews_wall.append(wall)
            reviewed.append(cpu)
            line += f"  review {cpu:.1f} s"
        print(line, flush=True)
        if args.times:
            with open(args.times, "a") as out:
                out.write(json.dumps({"deal": i, "hints": deal_hints, "review": reviewed,
                                      "play": plays[-1], "score": game.score}) + "\n")
    print(f"deals={args.deals} (from {args.first}) solver={native.describe()} "
          f"hint budget={coach.HINT_BUDGET} tests play samples={args.play_samples} "
          f"exact up to {fair.EXACT_ORDERS} orders{' cold' if args.cold else ''}")
    print(f"hint CPU: median {statistics.median(hints):.2f} s, p95 {p95(hints):.2f} s, max {max(hints):.2f} s over "
          f"{len(hints)} positions (wall: median {statistics.median(hints_wall):.2f} s, p95 {p95(hints_wall):.2f} s)")
    print(f"  at a room's first position: median {statistics.median(firsts):.2f} s, p95 {p95(firsts):.2f} s, "
          f"max {max(firsts):.2f} s over {len(firsts)}")
    if reviews:
        print(f"review CPU: median {statistics.median(reviews):.1f} s, p95 {p95(reviews):.1f} s, max {max(reviews):.1f}"
              f" s (wall: median {statistics.median(reviews_wall):.1f} s)")
    print(f"freeing let-go searches between requests (the worker's spare time, not in the figures above): "
          f"{sum(spare):.1f} s CPU in all, at most {max(spare):.2f} s after one request")
    wins = sum(score > 0 for score in scores)
    print(f"coach play CPU: median {statistics.median(plays):.1f} s, max {max(plays):.1f} s; "
          f"wins {wins}/{len(scores)}, mean score {statistics.fmean(scores):.1f}")


if __name__ == "__main__":
    main()
