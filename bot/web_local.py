"""``scoundrel-bot web``: the table in a browser on this machine, one local player, no Discord needed.

It serves the same client and routes as the Activity (``web/``) at ``http://127.0.0.1:PORT/``, on the bot's usual
database (``--db``, ``--config`` or ``SCOUNDREL_DATABASE``, else ``scoundrel.sqlite3`` here). Any code the client
presents is exchanged for this server's own token: the player is the one local player.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys

from aiohttp import web

from bot.config import add_database_options, database_from
from storage.errors import StorageError
from terminal.usage import prog

log = logging.getLogger(__name__)
DEFAULT_PORT = 8765
EXIT_OK, EXIT_INTERRUPTED = 0, 130  # (docs/OPERATIONS.md: exit statuses)
GRACE = 0.25  # seconds the requests in flight are given to finish once the table is told to stop


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog("web"), description="Play at the table in your browser: serves "
                                     "the Discord Activity's client locally, with one local player.")
    parser.add_argument("--port", "-p", type=int, default=DEFAULT_PORT, help=f"the port (default {DEFAULT_PORT}; "
                        "0: any free one)")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: loopback only)")
    add_database_options(parser)
    return parser


async def start(database, host: str, port: int) -> tuple[web.AppRunner, object, str]:
    """Open the store and serve the table: (the runner, the store, the address it answers on)."""
    from storage import open_store
    from web.http import Runner
    from web.identity import LocalIdentity
    from web.routes import Table, add_routes

    store = await open_store(database)
    app = web.Application()
    add_routes(app, Table(store=lambda: store, identity=LocalIdentity()))
    runner = Runner(app, access_log=None, shutdown_timeout=GRACE)  # (a request it cannot parse: refused in JSON)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    bound = runner.addresses[0][1]
    return runner, store, f"http://{host if ':' not in host else '[' + host + ']'}:{bound}/"


async def serve(database, host: str, port: int) -> int:
    """Serve until SIGTERM (exit status 0) or Ctrl-C (130, as every command stopped with Ctrl-C), then stop within
    a second: requests still running are given ``GRACE`` seconds, a hint or review being solved is dropped."""
    runner, store, url = await start(database, host, port)
    print(f"The table is at {url} (Ctrl-C stops it)", flush=True)
    loop = asyncio.get_running_loop()
    stopped: asyncio.Future[int] = loop.create_future()

    def stop(status: int) -> None:
        if not stopped.done():
            stopped.set_result(status)

    with contextlib.suppress(NotImplementedError):  # (no signal handlers on Windows: Ctrl-C still stops it)
        loop.add_signal_handler(signal.SIGTERM, stop, EXIT_OK)
        loop.add_signal_handler(signal.SIGINT, stop, EXIT_INTERRUPTED)
    try:
        return await stopped
    finally:
        from app.replays.gifs import close_replays
        from app.solver.worker import close_par

        await runner.cleanup()  # (a request still running after GRACE is cancelled)
        await close_par(at_once=True)  # the solver's worker (hints and reviews), mid-solve or not
        await close_replays()  # the replays' thread, when started
        await store.close()  # type: ignore[attr-defined]


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        build_parser().error("--port must be between 0 and 65535")
    database = database_from(args)  # a ConfigError is reported by bot.cli (exit 2)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(serve(database, args.host, args.port))
    except KeyboardInterrupt:  # Ctrl-C before the signal handlers were set (or where there are none)
        return EXIT_INTERRUPTED
    except StorageError as exc:  # a database that cannot be opened: one line saying why, not a traceback
        print(f"{prog('web')}: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 2
    except OSError as exc:  # the port is taken, or the address is not this machine's
        print(f"{prog('web')}: cannot serve on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
