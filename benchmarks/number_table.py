"""The table of benchmarks/coach_numbers.py: win rates with Wilson 95 % intervals, mean scores with normal 95 %
intervals, par's distribution, over the deals every player has finished (so each row is on the same deals)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence

from app.solver.worker import DEFAULT_TIMEOUT

Z95 = 1.959964  # the normal distribution's two-sided 95 % point
NIGHT_LIMIT = DEFAULT_TIMEOUT  # seconds the night's job gives par and the coach's game together (app/daily/par.py)

NAMES = {"par": ("par (exact solver)", "every card, the deck order too"),
         "coach": ("coach", "what a player sees"),
         "greedy": ("greedy one-room lookahead", "the room"),
         "smallest": ("smallest monster first", "the room")}
PAR_BUCKETS = ((30, 30, "30 (the most there is)"), (21, 29, "21–29"), (11, 20, "11–20"), (1, 10, "1–10"),
               (-50, 0, "−50 to 0 (not winnable)"), (-10_000, -51, "below −50 (not winnable)"))


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion: sound near 0 % and 100 %, where the normal one is not."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean and its normal 95 % interval (the sample's standard deviation over the square root of n)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``share`` of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def percent(x: float) -> str:
    if x == 0:
        return "0 %"
    return f"{100 * x:.1f} %" if x >= 0.01 else f"{100 * x:.2f} %"


def complete_deals(done: dict, seeds: Iterable[int], players: Sequence[str]) -> list[int]:
    return [seed for seed in seeds if all((seed, p) in done for p in players)]


def table(done: dict, seeds: Iterable[int], players: Sequence[str], command: str,
          versions: dict[str, str] | None = None, rules: str = "classic") -> str:
    seeds = list(seeds)
    deals = complete_deals(done, seeds, players)
    n = len(deals)
    lines = [f"{n} of {len(seeds)} {rules} deals measured by every player (seed numbers #{seeds[0]}–#{seeds[-1]}).",
             ""]
    if n == 0:
        return "\n".join(lines + [f"Command: `{command}`"])
    lines += ["| player | sees | wins | win rate (95 % CI) | mean score (95 % CI) | median | CPU s a deal: median, "
              "max |", "|---|---|---|---|---|---|---|"]
    for player in players:
        records = [done[(seed, player)] for seed in deals]
        scores = [r["score"] for r in records]
        wins = sum(r["won"] for r in records)
        low, high = wilson(wins, n)
        mean, mean_low, mean_high = mean_interval(scores)
        times = [r["seconds"] for r in records]
        name, sees = NAMES[player]
        lines.append(f"| {name} | {sees} | {wins} / {n} | {percent(wins / n)} ({percent(low)}–{percent(high)}) | "
                     f"{mean:.1f} ({mean_low:.1f} to {mean_high:.1f}) | {statistics.median(scores):g} | "
                     f"{statistics.median(times):.2f}, {max(times):.2f} |")
    if "par" in players:
        pars = [done[(seed, "par")]["score"] for seed in deals]
        lines += ["", "Par's distribution (the best score seeing every card):", "", "| par | deals | share |",
                  "|---|---|---|"]
        for low_score, high_score, label in PAR_BUCKETS:
            count = sum(low_score <= par <= high_score for par in pars)
            lines.append(f"| {label} | {count} | {percent(count / n)} |")
        winnable = [seed for seed in deals if done[(seed, "par")]["score"] > 0]
        for player in (p for p in players if p != "par"):
            wins = sum(done[(seed, player)]["won"] for seed in winnable)
            if winnable:
                low, high = wilson(wins, len(winnable))
                lines.append("")
                lines.append(f"{NAMES[player][0].capitalize()} wins {wins} of the {len(winnable)} winnable deals: "
                             f"{percent(wins / len(winnable))} ({percent(low)}–{percent(high)}).")
    if "par" in players and "coach" in players:
        night = [done[(seed, "par")]["seconds"] + done[(seed, "coach")]["seconds"] for seed in deals]
        over = sum(seconds > NIGHT_LIMIT for seconds in night)
        lines += ["", f"The night's job of a daily (par, then the coach's game, within par's {NIGHT_LIMIT:g} s): CPU "
                      f"median {statistics.median(night):.1f} s, 95th percentile {percentile(night, 0.95):.1f} s, "
                      f"max {max(night):.1f} s; over the limit on {over} of {n} deals."]
    lines += ["", f"Command: `{command}`"]
    if versions:
        lines.append("Players' versions (a hash of their module): "
                     + ", ".join(f"{player} {versions[player]}" for player in players) + ".")
    return "\n".join(lines)


__all__ = ["complete_deals", "mean_interval", "table", "wilson"]
