"""Solver speed side by side in one run: this checkout's solver compiled, the same forced to pure Python, and
(optionally) the solver of an earlier git revision, each solving the same fixed deals in turn.

    .venv/bin/python benchmarks/solver_compare.py                       # compiled vs pure, 40 classic deals
    .venv/bin/python benchmarks/solver_compare.py --revision ac28c10    # and the solver as it was at ac28c10
    .venv/bin/python benchmarks/solver_compare.py --health 8 --deals 20

Each solver runs in a process of its own (the same interpreter; ``SCOUNDREL_PURE_SOLVER=1`` for the pure one; an
earlier revision from ``git archive`` into a temporary directory), kept alive for the whole run; deal by deal the
driver asks each in turn, so a busy moment on a shared machine falls on all of them alike. The earlier revision is
compiled as its install would compile it if it has a ``setup.py`` (the line naming its ``search`` module shows
``.so`` or ``.py``). Every solver must find the same par on every deal. The deals are ``solver_bench.py``'s.
Printed: median and maximum seconds per solver.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# One solver process: reads deal indices, answers [index, par, seconds]; its first line names its solver modules.
WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from games.engine import PRESETS, deal
from games.engine.seeds import seed_from_bytes
from games.solver import solve
import games.solver.search as search
rules = PRESETS["classic"].with_health(int(sys.argv[2]))
print(json.dumps(search.__file__), flush=True)
for line in sys.stdin:
    i = int(line)
    cards = deal(rules, seed_from_bytes(f"solver-bench/{i}".encode()))
    started = time.perf_counter()
    solution = solve(rules, cards)
    print(json.dumps([i, solution.best_score, time.perf_counter() - started]), flush=True)
"""


def start(name: str, tree: Path, health: int, pure: bool) -> tuple[str, subprocess.Popen]:
    env = dict(os.environ)
    env.pop("SCOUNDREL_PURE_SOLVER", None)
    if pure:
        env["SCOUNDREL_PURE_SOLVER"] = "1"
    process = subprocess.Popen([sys.executable, "-c", WORKER, str(tree), str(health)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, env=env)
    module = json.loads(process.stdout.readline())
    print(f"{name}: {module}", flush=True)
    return name, process


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--health", type=int, default=20, help="starting (and maximum) health")
    parser.add_argument("--revision", help="also the solver of this git revision (git archive, compiled in place "
                                           "if the revision compiles its solver)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        solvers = []
        if args.revision:
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.revision], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            if (Path(tmp) / "setup.py").exists():  # built as an install would have built it (else: pure Python)
                subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tmp,
                               capture_output=True)
            solvers.append(start(f"at {args.revision}", Path(tmp), args.health, pure=False))
        solvers.append(start("now, pure Python", ROOT, args.health, pure=True))
        solvers.append(start("now", ROOT, args.health, pure=False))
        times: dict[str, list[float]] = {name: [] for name, _ in solvers}
        for i in range(args.deals):
            pars = {}
            for name, process in solvers:
                process.stdin.write(f"{i}\n")
                process.stdin.flush()
                _, par, seconds = json.loads(process.stdout.readline())
                times[name].append(seconds)
                pars[name] = par
            if len(set(pars.values())) != 1:
                print(f"deal {i}: the solvers disagree: {pars}")
                return 1
        for _, process in solvers:
            process.stdin.close()
            process.wait()
    print(f"classic at health {args.health}, {args.deals} deals, each solver in turn:")
    for name, found in times.items():
        print(f"  {name:24s} median {statistics.median(found):5.2f} s   max {max(found):5.2f} s   "
              f"total {sum(found):6.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
