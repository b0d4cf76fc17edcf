"""``scoundrel-bot maintenance``: integrity check, pruning on the documented policy, and compaction.

Safe while the bot runs (pruning and incremental vacuum work in short transactions); ``--vacuum`` rewrites the
whole file and holds the bot's writes back meanwhile, so run it with the bot stopped. Exits 1 if the check
finds damage (nothing is changed then). On PostgreSQL the same check and pruning, then ``VACUUM (ANALYZE)``
(``--vacuum``: ``VACUUM (FULL, ANALYZE)``), see storage/pg_maintenance.py.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.config import add_database_options, database_from
from storage import is_postgres
from storage.backends.base import redact
from storage.backup import remove_stale_partials
from storage.errors import StorageError
from storage.maintenance import Policy, run
from terminal.usage import prog


def _days(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more days")
    return value


def main(argv: list[str]) -> int:
    policy = Policy()
    parser = argparse.ArgumentParser(
        prog=prog("maintenance"),
        description="Check the database, prune what the policy allows and compact it. Safe while the bot runs, "
                    "except --vacuum.")
    add_database_options(parser)
    parser.add_argument("--quick", action="store_true", help="quick_check instead of the full integrity check")
    parser.add_argument("--check-only", action="store_true", help="check, change nothing")
    parser.add_argument("--vacuum", action="store_true",
                        help="rewrite the whole file (bot stopped): compacts an old file and switches it to "
                             "incremental vacuum (PostgreSQL: VACUUM FULL, every table rewritten)")
    parser.add_argument("--snapshot-days", type=_days, default=policy.snapshot_days, metavar="N",
                        help=f"drop finished games' snapshots N days after they ended (default {policy.snapshot_days})")
    parser.add_argument("--par-days", type=_days, default=policy.par_days, metavar="N",
                        help=f"drop cached par of deals after N days (default {policy.par_days})")
    parser.add_argument("--post-days", type=_days, default=policy.post_days, metavar="N",
                        help=f"drop daily-post and sent-reminder records after N days (default {policy.post_days})")
    args = parser.parse_args(argv)
    db = database_from(args)  # a ConfigError is reported by bot.cli (exit 2)
    policy = Policy(snapshot_days=args.snapshot_days, par_days=args.par_days, post_days=args.post_days)
    postgres = is_postgres(db)
    shown = redact(str(db)) if postgres else str(db)
    try:
        if postgres:
            from storage.pg_maintenance import run_postgres

            report = asyncio.run(run_postgres(
                str(db), policy=policy, vacuum=args.vacuum and not args.check_only, prune_rows=not args.check_only,
                compact=not args.check_only, progress=lambda step: print(f"{step}…", flush=True)))
        else:
            report = run(db, policy=policy, quick=args.quick, vacuum=args.vacuum and not args.check_only,
                         prune_rows=not args.check_only, compact=not args.check_only,
                         progress=lambda step: print(f"{step}…", flush=True))
    except StorageError as exc:
        print(f"maintenance failed: {exc}", file=sys.stderr)
        return 1
    leftovers = [] if postgres else remove_stale_partials(Path(db).parent)
    if report.problems:
        print(f"{shown} is damaged ({len(report.problems)} problems); nothing was changed:", file=sys.stderr)
        for problem in report.problems[:10]:
            print(f"  {problem}", file=sys.stderr)
        print("Restore the latest backup (see docs/OPERATIONS.md).", file=sys.stderr)
        return 1
    print("integrity: ok (every game's action log)" if postgres else
          f"integrity: ok ({'quick' if args.quick else 'full'} check)")
    if not args.check_only:
        pruned = report.pruned
        print(f"pruned: {pruned['snapshots']:,} finished games' snapshots, {pruned['par_cache']:,} cached pars, "
              f"{pruned['daily_posts']:,} daily-post records, {pruned['reminder_sends']:,} sent-reminder records")
        if postgres:
            print(f"vacuum: {'VACUUM (FULL, ANALYZE)' if report.vacuumed else 'VACUUM (ANALYZE)'} done")
        elif report.vacuumed:
            print("vacuum: whole file rewritten; auto_vacuum is now incremental")
        elif report.auto_vacuum == "incremental":
            print(f"vacuum: {report.freed_pages:,} free pages given back")
        else:
            print("vacuum: this file predates incremental vacuum; run once with --vacuum (bot stopped) to compact it")
    if leftovers:
        print(f"removed {len(leftovers)} unfinished backup file(s) left by a killed backup")
    print(f"size: {report.bytes_before:,} → {report.bytes_after:,} bytes in {report.seconds:.1f} s")
    return 0
