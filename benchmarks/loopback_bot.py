"""``python -m bot`` pointed at the loopback Discord of benchmarks/loopback_load.py, for that benchmark only.

    cd TREE && PYTHONPATH=TREE python benchmarks/loopback_bot.py API_BASE GATEWAY_URL run --config CONFIG

discord.py reaches Discord through ``Route.BASE`` (REST) and ``DiscordWebSocket.DEFAULT_GATEWAY`` (the first
gateway connection of an unsharded client); both are set here before the bot's own entry point runs, so the bot's
code is the code of whichever tree is first on ``PYTHONPATH``, unchanged.

With ``LOOPBACK_GC_FILE`` set, the time the cyclic garbage collector takes (``gc.callbacks``) is written to that
file, as JSON, twice a second: py-spy shows no frame for it, only the frame whose allocation set it off.

The bot runs with the optional speed-ups its own ``pyproject.toml`` (in the working directory) depends on, not
with whatever else the virtualenv holds: discord.py uses orjson whenever it can import it, so for a tree that
does not list orjson it is made unimportable here.
"""

import gc
import json
import os
import re
import runpy
import sys
import threading
import time
import tomllib
from pathlib import Path

OPTIONAL = ("orjson",)  # picked up by discord.py by merely being installed


def listed(project: Path) -> set[str]:
    dependencies = tomllib.loads(project.read_text())["project"]["dependencies"]
    return {re.split(r"[<>=!~;\[ ]", d, maxsplit=1)[0].lower() for d in dependencies}


def time_collections(path: Path) -> None:
    spent = [0.0, 0.0, 0.0]
    runs = [0, 0, 0]
    started = [0.0]

    def on_collection(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.thread_time()
        else:
            spent[info["generation"]] += time.thread_time() - started[0]
            runs[info["generation"]] += 1

    def write() -> None:
        while True:
            time.sleep(0.5)
            path.with_suffix(".tmp").write_text(json.dumps({"seconds": spent, "collections": runs}))
            path.with_suffix(".tmp").replace(path)

    gc.callbacks.append(on_collection)
    threading.Thread(target=write, name="loopback-gc-stats", daemon=True).start()


if __name__ == "__main__":
    if os.environ.get("LOOPBACK_GC_FILE"):
        time_collections(Path(os.environ["LOOPBACK_GC_FILE"]))
    base, gateway, *args = sys.argv[1:]
    wanted = listed(Path("pyproject.toml"))
    for name in OPTIONAL:
        if name not in wanted:
            sys.modules[name] = None  # type: ignore[assignment]  # import raises ImportError
    print(f"loopback_bot: optional modules on: {[n for n in OPTIONAL if n in wanted]}", file=sys.stderr, flush=True)

    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    del sys.path[0]  # this folder: the bot's modules come from PYTHONPATH
    module = os.environ.get("LOOPBACK_MODULE", "bot")  # or a script's path (benchmarks/loopback_floor.py)
    sys.argv = [module, *args]
    if module.endswith(".py"):
        runpy.run_path(module, run_name="__main__")
    else:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
