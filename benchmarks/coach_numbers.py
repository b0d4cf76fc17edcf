"""How well can Scoundrel be played? Par (seeing every card), the coach (seeing only what a player sees) and two
plain players, on the same classic deals (the daily's rules), with 95 % confidence intervals.

    .venv/bin/python benchmarks/coach_numbers.py --deals 500 --jobs 2     # measure (resumes where it stopped)
    .venv/bin/python benchmarks/coach_numbers.py --deals 500 --table      # only print the table of what is done
    .venv/bin/python benchmarks/coach_numbers.py --deals 20 --players par,greedy --results /tmp/r.jsonl
    .venv/bin/python benchmarks/coach_numbers.py --deals 500 --players par,coach --rules lenient   # other rules

Deal i is seed number #i (``scoundrel-bot solve --seed #i`` solves the same deal). Each measured result (a deal, a
player, its score and time) is appended to ``--results`` as one JSON line as soon as it is known, so a run that is
stopped loses nothing and a rerun measures only what is missing. A progress bar goes to stderr, the table (in
Markdown, as docs/COACH.md shows it) and the command that reproduces it to stdout.

Players: ``par`` is the exact solver (``games.solver.solve``) with the deck order known; ``coach`` plays move by move
seeing only what a player sees; ``smallest`` and ``greedy`` are the plain players of ``baselines.py``. ``--rules``
plays the same seeds under a preset of other rules (``lenient``: a weapon may hit a monster equal to its last kill, as
other published players of the game allow), for a like-for-like comparison.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import multiprocessing
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import baselines  # noqa: E402
from number_table import table  # noqa: E402
from tqdm import tqdm  # noqa: E402

from app.daily.days import DAILY_RULES  # noqa: E402
from games.engine import PRESETS, Rules, deal, replay  # noqa: E402

PLAYERS = ("par", "coach", "greedy", "smallest")
DEFAULT_RESULTS = Path(__file__).resolve().parent / "results" / "coach_numbers.jsonl"


def measure(task: tuple[int, str, Rules]) -> dict:
    """One player on one deal (run in a worker process): its score, whether it won, and its time."""
    seed, player, rules = task
    deck = deal(rules, seed)
    started = time.process_time()
    if player == "par":
        from games.solver import solve

        solution = solve(rules, deck)
        score = solution.best_score
        assert replay(rules, deck, solution.actions).score == score  # the line reaches par
    elif player == "coach":
        score = coach_score(rules, deck)
    else:
        score = baselines.play(baselines.PLAYERS[player], rules, deck).score
    seconds = time.process_time() - started  # CPU time: what it costs whatever else the machine runs
    return {"rules": rules.key, "seed": seed, "player": player, "score": score, "won": score > 0,
            "seconds": round(seconds, 3)}


COACH_MODULE = "games.solver.fair"  # the fair coach: coach_play plays a whole deal seeing only what a player sees


def coach_score(rules, deck) -> int:
    return importlib.import_module(COACH_MODULE).coach_play(rules, deck).score


def version(player: str) -> str:
    """Which code played: a hash of the player's module (par is exact: any correct solver gives the same). A
    result measured by another version of the coach or of a plain player is measured again, never mixed in."""
    if player == "par":
        return "exact"
    module = COACH_MODULE if player == "coach" else "baselines"
    source = Path(importlib.import_module(module).__file__ or "").read_text()
    # Import lines are left out: moving a module the player imports does not change how it plays.
    code = "\n".join(line for line in source.splitlines() if not line.startswith(("from ", "import ")))
    return hashlib.sha256(code.encode()).hexdigest()[:12]


def read_results(path: Path, rules_key: str, versions: dict[str, str]) -> dict[tuple[int, str], dict]:
    """What is already measured under these rules by these versions of the players; a line cut short by a stopped
    run is ignored."""
    done: dict[tuple[int, str], dict] = {}
    if not path.exists():
        return done
    for line in path.read_text().splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if record.get("rules") == rules_key and record.get("version") == versions.get(record.get("player")):
            done[(record["seed"], record["player"])] = record
    return done


def run(path: Path, tasks: list[tuple[int, str, Rules]], jobs: int, versions: dict[str, str]) -> None:
    """Measure ``tasks``, appending each result to ``path`` as it comes (in any order), marked with the version of
    its player as this run started (the workers start with the same code)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+") as out:
        out.seek(0, 2)
        if out.tell():  # a run stopped mid-line leaves no newline: start on a line of our own
            out.seek(out.tell() - 1)
            if out.read(1) != "\n":
                out.write("\n")
        bar = tqdm(total=len(tasks), unit="result", file=sys.stderr, mininterval=1.0, smoothing=0.05)
        results = _results(tasks, jobs)
        try:
            for record in results:
                record = {**record, "version": versions[record["player"]]}
                out.write(json.dumps(record) + "\n")
                out.flush()
                bar.set_postfix_str(f"#{record['seed']} {record['player']} {record['score']}", refresh=False)
                bar.update()
        finally:
            bar.close()


def _results(tasks, jobs):
    if jobs == 1:
        yield from map(measure, tasks)
        return
    signal.signal(signal.SIGTERM, _stop)  # a plain `kill` ends the workers too (the pool is left by an exception)
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap_unordered(measure, tasks)


def _stop(signum, frame):
    raise KeyboardInterrupt


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="deals #first to #first+deals-1 (default 500)")
    parser.add_argument("--first", type=int, default=1, help="the first seed number (default 1)")
    parser.add_argument("--players", default=",".join(PLAYERS), help=f"comma-separated, of {', '.join(PLAYERS)}")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--results", type=Path, default=DEFAULT_RESULTS, help="the JSON lines file (appended to)")
    parser.add_argument("--table", action="store_true", help="measure nothing: print the table of what is done")
    parser.add_argument("--version", action="append", default=[], metavar="PLAYER=HASH",
                        help="with --table: show a player's results of that version of its code (as the table "
                             "printed it) instead of the current one")
    parser.add_argument("--rules", choices=sorted(PRESETS), default=None,
                        help="a preset of rules to play instead of the daily's (classic)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    unknown = sorted(set(players) - set(PLAYERS))
    if unknown or not players:
        print(f"error: unknown players {', '.join(unknown) or '(none)'}; choose from {', '.join(PLAYERS)}",
              file=sys.stderr)
        return 2
    if args.deals < 1 or args.first < 0 or args.jobs < 1:
        print("error: --deals and --jobs must be at least 1, --first at least 0", file=sys.stderr)
        return 2
    seeds = range(args.first, args.first + args.deals)
    versions = {player: version(player) for player in players}
    chosen = dict(item.partition("=")[::2] for item in args.version)
    if chosen and (not args.table or not set(chosen) <= set(players) or not all(chosen.values())):
        print("error: --version PLAYER=HASH goes with --table, for players of --players", file=sys.stderr)
        return 2
    versions.update(chosen)
    rules = PRESETS[args.rules] if args.rules else DAILY_RULES
    done = read_results(args.results, rules.key, versions)
    if not args.table:
        todo = [(seed, player, rules) for seed in seeds for player in players if (seed, player) not in done]
        if todo:
            run(args.results, todo, args.jobs, versions)
        done = read_results(args.results, rules.key, versions)
    command = f"python benchmarks/coach_numbers.py --deals {args.deals} --first {args.first} --players " \
              f"{','.join(players)}" + (f" --rules {args.rules}" if args.rules else "") \
              + "".join(f" --table --version {p}={h}" for p, h in chosen.items())
    print(table(done, seeds, players, command, versions, args.rules or "classic"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
