"""Table picture speed and size: ``render_room`` over real game states of every rule set, in every language.

    .venv/bin/python benchmarks/picture_bench.py                  # 250 states of each rule set in each language
    .venv/bin/python benchmarks/picture_bench.py --states 1000 --rules expansion
    .venv/bin/python benchmarks/picture_bench.py --locale de     # only the German pictures
    .venv/bin/python benchmarks/picture_bench.py --revision aa6e932   # that revision's renderer, then this one

The rule sets are the presets, each expansion card alone, and the whole expansion at 99 health (long games: loops
cleared, so the crossroads; the widest health numbers). States come from games played to the end (seeded, so every
run draws the same states): a third at random, a third preferring weapon fights, so kills pile up under the weapon,
and a third playing par's line where the solver takes the rules (dungeons cleared, loops up to the crossroads),
else the move that keeps the most health. Every state of a game is kept, from the deal to the last move: early
rooms, fanned kills, the merchant, the necromancer, the underworld, the crossroads and the game-over banners are
all in the mix, and every tenth state still in play is drawn a second time given up. The same states are drawn in
English, German, French and Spanish, whose words differ in length.

Each picture is rendered once, timed alone (one core: the cogs draw on the event loop). Printed per rule set, per
language and overall: median, p99 and max milliseconds, the same for the CPU time of the rendering thread (which
waiting for a busy machine's cores does not inflate), and the median and largest PNG in bytes; then the largest
pictures, each with the state it shows, and how many states of each kind the sample holds. Tiles are cached after
their first drawing, as in the bot; the first render of each state is the timed one (no picture cache).

With ``--revision`` the same states are rendered first by that git revision's code (``git archive`` into a
temporary directory, its own process) and then by this checkout's, and the two summaries are printed side by side.

Goals: median <= 0.6 ms, p99 <= 15 ms, every picture <= 16 KB (16,000 bytes).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]) if "--tree" in sys.argv else ROOT  # whose code is timed
sys.path.insert(0, str(TREE))

from games.engine import DEAD, PLAYING, PRESETS, WON, Rules, apply, legal_actions, new_game  # noqa: E402
from games.i18n.messages import SHIPPED, SOURCE, messages_for  # noqa: E402
from games.picture import render_room  # noqa: E402
from games.solver import SolverRefused, solve  # noqa: E402

GOAL_BYTES = 16_000
RULE_SETS: dict[str, Rules] = {
    **PRESETS,
    "merchants": Rules(merchants=True),
    "jokers": Rules(jokers=True),
    "necromancers": Rules(necromancers=True),
    "looping": Rules(looping=True),
    "expansion-99": PRESETS["expansion"].with_health(99),
}
LANGUAGES = (SOURCE, *SHIPPED)
LARGEST = 8  # how many of the largest pictures are listed


class Sample(NamedTuple):
    rules: str
    seed: int
    move: int  # moves played since the deal
    state: object
    abandoned: bool

    def kind(self) -> str:
        """What the picture shows, in a few words."""
        state = self.state
        if self.abandoned:
            what = "given up"
        elif state.status == WON:
            what = "won"
        elif state.status == DEAD:
            what = "dead"
        else:
            what = state.pending[0] if state.pending else "room"
        return f"{what}, {len(state.kills)} kills, health {state.health}/{state.rules.max_health}"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def samples(name: str, count: int, first_seed: int = 1000) -> list[Sample]:
    """``count`` states of games played at random to their end, with every tenth state in play also given up."""
    rules, found, seed = RULE_SETS[name], [], first_seed
    while len(found) < count:
        state, rng, move = new_game(rules, seed=seed), random.Random(seed), 0
        line = par_line(rules, state) if seed % 3 == 2 else []
        while True:
            found.append(Sample(name, seed, move, state, False))
            if state.status == PLAYING and len(found) % 10 == 0:
                found.append(Sample(name, seed, move, state, True))
            if state.over or len(found) >= count:
                break
            state = apply(state, line.pop(0)) if line else PLAYERS[seed % 3](state, rng)
            move += 1
        seed += 1
    return found[:count]


def at_random(state, rng: random.Random):
    return apply(state, rng.choice(legal_actions(state)))


def fighting(state, rng: random.Random):
    """Mostly weapon fights when there are any: kills pile up under the weapon."""
    actions = legal_actions(state)
    fights = [a for a in actions if a.kind == "weapon"]
    return apply(state, rng.choice(fights if fights and rng.random() < 0.8 else actions))


def careful(state, rng: random.Random):
    """A move that leaves the most health: games that clear the dungeon, so the crossroads and won games."""
    after = [apply(state, action) for action in legal_actions(state)]
    best = max(s.health for s in after)
    return rng.choice([s for s in after if s.health == best])


PLAYERS = (at_random, fighting, careful)  # by the game's seed; the third kind plays par's line first


def par_line(rules: Rules, state) -> list:
    """An optimal line of the deal without looping (the same until the dungeon is cleared, so such a game reaches
    the crossroads), or nothing where the solver refuses the rules (chance in them)."""
    try:
        return list(solve(replace(rules, looping=False), state.start_deck).actions)
    except SolverRefused:
        return []


class Result(NamedTuple):
    sample: Sample
    language: str
    ms: float
    cpu_ms: float
    size: int


def measure(found: list[Sample], language: str) -> list[Result]:
    tr, results = messages_for(language), []
    for sample in found:
        start, start_cpu = time.perf_counter(), time.thread_time()
        png = render_room(sample.state, abandoned=sample.abandoned, tr=tr)
        cpu = (time.thread_time() - start_cpu) * 1000
        results.append(Result(sample, language, (time.perf_counter() - start) * 1000, cpu, len(png)))
    return results


def summary(results: list[Result]) -> dict:
    times, cpu, sizes = [r.ms for r in results], [r.cpu_ms for r in results], [r.size for r in results]
    return {"states": len(results), "median": statistics.median(times), "p99": percentile(times, 0.99),
            "max": max(times), "cpu_median": statistics.median(cpu), "cpu_p99": percentile(cpu, 0.99),
            "bytes_median": int(statistics.median(sizes)), "bytes_max": max(sizes),
            "over_goal": sum(size > GOAL_BYTES for size in sizes)}


def line(name: str, s: dict) -> str:
    return (f"{name:<15} states={s['states']:>5}  median={s['median']:5.2f} ms  p99={s['p99']:5.2f} ms  "
            f"max={s['max']:6.2f} ms  cpu median={s['cpu_median']:5.2f} p99={s['cpu_p99']:5.2f} ms  "
            f"bytes median={s['bytes_median']:,} max={s['bytes_max']:,} over {GOAL_BYTES:,}={s['over_goal']}")


def describe(r: Result) -> str:
    s = r.sample
    return f"{r.size:>7,} B  {s.rules:<14} {r.language:<6} seed {s.seed} move {s.move:>3}: {s.kind()}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=250, help="states of each rule set (default 250)")
    parser.add_argument("--rules", "--preset", choices=sorted(RULE_SETS), help="only this rule set")
    parser.add_argument("--locale", choices=LANGUAGES, help="only this language (default: all four)")
    parser.add_argument("--revision", help="first time this git revision's renderer on the same states")
    parser.add_argument("--tree", help=argparse.SUPPRESS)  # read before the imports above
    parser.add_argument("--summary", help=argparse.SUPPRESS)  # where a side-by-side run's figures go
    args = parser.parse_args(argv)
    if args.revision:
        return side_by_side(args.revision, [a for a in argv if a not in ("--revision", args.revision)])
    names = [args.rules] if args.rules else list(RULE_SETS)
    languages = [args.locale] if args.locale else list(LANGUAGES)
    for language in languages:  # load the font, the catalogues and the palette before timing
        render_room(new_game(PRESETS["classic"], seed=0), tr=messages_for(language))
    found = {name: samples(name, args.states) for name in names}
    results = [r for language in languages for name in names for r in measure(found[name], language)]
    for name in names:
        print(line(name, summary([r for r in results if r.sample.rules == name])))
    if len(languages) > 1:
        for language in languages:
            print(line(language, summary([r for r in results if r.language == language])))
    overall = summary(results)
    print(line("all", overall))
    largest = sorted(results, key=lambda r: -r.size)[:LARGEST]
    print("largest:")
    for r in largest:
        print("  " + describe(r))
    kinds = Counter(r.sample.kind().split(",")[0] for r in results)
    print("states drawn: " + ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items())))
    if args.summary:
        overall["largest"] = [describe(r) for r in largest[:3]]
        Path(args.summary).write_text(json.dumps(overall))
    return 0


def side_by_side(revision: str, argv: list[str]) -> int:
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True)
        tree = Path(tmp) / "tree"
        tree.mkdir()
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
        solver = next(tree / p / "solver" for p in ("games", "bot") if (tree / p / "solver").is_dir())
        for built in (ROOT / "games" / "solver").glob("*.so*"):  # par's lines in the same time (unused if stale)
            shutil.copy(built, solver)
        for name, code in ((revision, tree), ("this checkout", ROOT)):
            print(f"--- {name}", flush=True)
            out = Path(tmp) / "summary.json"
            subprocess.run([sys.executable, __file__, *argv, "--tree", str(code), "--summary", str(out)], check=True)
            figures[name] = json.loads(out.read_text())
    print("--- side by side (all states)")
    rows = (("median ms", "median", "{:.2f}"), ("p99 ms", "p99", "{:.2f}"), ("cpu median ms", "cpu_median", "{:.2f}"),
            ("bytes median", "bytes_median", "{:,}"), ("bytes max", "bytes_max", "{:,}"),
            (f"over {GOAL_BYTES:,} B", "over_goal", "{}"))
    print(f"{'':<15}" + "".join(f"{name:>16}" for name in figures))
    for label, key, form in rows:
        print(f"{label:<15}" + "".join(f"{form.format(f[key]):>16}" for f in figures.values()))
    for name, f in figures.items():
        print(f"largest, {name}:")
        for described in f["largest"]:
            print("  " + described)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
