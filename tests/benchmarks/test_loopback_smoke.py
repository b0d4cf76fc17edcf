"""benchmarks/loopback_load.py keeps working: a few players against the real bot process through the loopback
Discord, every interaction answered for real (a new game message, an edited one with its new picture), nothing
refused, no route the loopback Discord does not serve, no error in the bot's log. It measures nothing here."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import loopback_load  # noqa: E402


def a_few_players(tmp_path):
    return loopback_load.build_parser().parse_args([
        "--players", "3", "--seconds", "1", "--round", "0.5", "--warmup", "0.5", "--bursts", "1", "--paced", "0",
        "--stop-wait", "3", "--db-dir", str(tmp_path)])


def nothing_went_wrong(result: dict) -> bool:
    return result["problems"] == [] and result["refusals"] == {} and result["unknown_routes"] == {}


async def test_a_few_players_are_answered_through_the_real_transport(tmp_path):
    result = await loopback_load.measure(ROOT, "smoke", a_few_players(tmp_path), (None, None))
    assert nothing_went_wrong(result), result
    counts = result["counts"]
    assert counts["command sync"] == 1 and counts.get("unanswered", 0) == 0, counts
    assert counts["callback 4 (message)"] >= 3, counts  # each player's game
    assert counts.get("GET original", 0) == 0, counts  # a new message comes back with its answer: not fetched
    assert counts["callback 7 (update, picture)"] >= 3, counts  # clicks answered with the redrawn table
    # every edit has its gateway echo, sent when the bot's IDENTIFY asked for GUILD_MESSAGES
    echoed = counts.get("echo MESSAGE_UPDATE", 0) + counts.get("MESSAGE_UPDATE not sent (intent not asked for)", 0)
    assert echoed == counts["callback 7 (update, picture)"] + counts.get("PATCH original (after defer)", 0), counts
    outcomes = result["sat_outcomes"]
    assert outcomes.get("component → update", 0) > 0 and set(outcomes) <= {
        "command → message", "component → update", "component → edit"}, outcomes
    assert result["rate"] > 0 and result["cpu_ms"] > 0 and result["sat_p50"] > 0


async def test_the_floor_bot_answers_the_same_players(tmp_path):
    # benchmarks/loopback_floor.py, measured beside the bot with --floor: discord.py alone, no game
    result = await loopback_load.measure(ROOT, "floor", a_few_players(tmp_path), (None, None), str(loopback_load.FLOOR))
    assert nothing_went_wrong(result), result
    assert result["exit"] == 0, result
    counts = result["counts"]
    assert counts["command sync"] == 1 and counts.get("unanswered", 0) == 0, counts
    assert counts["callback 4 (message)"] >= 3 and counts["callback 7 (update, picture)"] >= 3, counts
    assert set(result["sat_outcomes"]) <= {"command → message", "component → update"}, result["sat_outcomes"]
