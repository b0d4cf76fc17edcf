"""The review's verdicts against the reference set (``coach_reference.py``): is a move it calls a mistake one, and
does a move that gave away more than the threshold ever go unmarked?

    .venv/bin/python benchmarks/review_quality.py                 # every move of every position, as the bot reviews
    .venv/bin/python benchmarks/review_quality.py --every 3       # a third of the positions (a shorter run)
    .venv/bin/python benchmarks/review_quality.py --budget 0      # each move judged until its verdict is sure

Every legal move of a position but the reference's best is judged as a review judges the move a player made
(``fair_review``: ``Coach.advise`` with the mistake threshold, the review's first orders and budget, then
``is_mistake``). The reference's verdict on the same move: what it gave away against the reference's best, paired
over the reference's orders, with its 95 % interval; a *mistake* where the interval lies at or above the threshold
(``MISTAKE_POINTS``), *not one* where it lies below, *too close to call* otherwise (not counted). Printed: the moves
judged, the review's false marks (called a mistake, the reference says not), its misses (a mistake left unmarked,
with what the worst of them gave away), and the CPU of one move's verdict.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from coach_quality import p95, reference  # noqa: E402
from coach_reference import load, state_of  # noqa: E402

from games.engine import PRESETS, legal_actions  # noqa: E402
from games.solver.fair import REVIEW_FIRST_ORDERS, REVIEW_MOVE_BUDGET, Coach  # noqa: E402
from games.solver.fair_review import MISTAKE_POINTS, is_mistake  # noqa: E402
from games.solver.racing import gap  # noqa: E402


def truth(row: dict, move: int) -> tuple[bool | None, float]:
    """The reference's verdict on ``move`` (None: too close to call) and what it gave away against the best."""
    means, best = reference(row)
    lost = means[best] - means[move]
    if row["exact"]:
        return lost >= MISTAKE_POINTS, lost
    g = gap([v[best] for v in row["values"]], [v[move] for v in row["values"]])
    if g.low >= MISTAKE_POINTS:
        return True, lost
    if g.high < MISTAKE_POINTS:
        return False, lost
    return None, lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1, help="judge every Nth position of the set")
    parser.add_argument("--budget", type=int, default=REVIEW_MOVE_BUDGET, help="the review's budget a move (0: none)")
    args = parser.parse_args()
    rules = PRESETS["classic"]
    rows = sorted(load().values(), key=lambda row: (row["deal"], row["turn"]))[:: args.every]
    judged, unclear, marks, false_marks, missed, cpus = 0, 0, 0, [], [], []
    for row in rows:
        state = state_of(row)
        _, best = reference(row)
        for action in legal_actions(state):
            move = row["actions"].index(action.code)
            if move == best:
                continue
            started = time.process_time()
            advice = Coach(rules).advise(state, judge=(action,), threshold=MISTAKE_POINTS, budget=args.budget or None,
                                         first=REVIEW_FIRST_ORDERS)
            called = is_mistake(advice, action)
            cpus.append(time.process_time() - started)
            real, lost = truth(row, move)
            judged += 1
            marks += called
            if real is None:
                unclear += 1
            elif called and not real:
                false_marks.append(lost)
            elif real and not called:
                missed.append(lost)
            if called != bool(real) and real is not None:
                print(f"deal {row['deal']:2d} room {row['turn']:2d}: {action.code:3} gave away {lost:5.1f}, "
                      f"called {'a mistake' if called else 'fine'} on {advice.orders} orders "
                      f"(best {row['actions'][best]})", flush=True)
    print(f"positions {len(rows)}; moves judged {judged} (too close to call by the reference: {unclear}); "
          f"called mistakes {marks}; review: budget {args.budget or 'none'}, first {REVIEW_FIRST_ORDERS} orders")
    print(f"false marks (called a mistake, gave away under {MISTAKE_POINTS:g}): {len(false_marks)}"
          + (f", the largest gave away {max(false_marks):.1f}" if false_marks else ""))
    print(f"missed (gave away {MISTAKE_POINTS:g} or more, left unmarked): {len(missed)}"
          + (f", the worst gave away {max(missed):.1f}" if missed else ""))
    print(f"CPU a move's verdict: median {statistics.median(cpus):.3f} s, p95 {p95(cpus):.3f} s, max {max(cpus):.2f} s")


if __name__ == "__main__":
    main()
