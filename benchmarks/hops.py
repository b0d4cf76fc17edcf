"""How many of our modules a card click and the daily post walk through, traced in the real bot under SimCord.

    .venv/bin/python benchmarks/hops.py                          # this checkout
    .venv/bin/python benchmarks/hops.py --compare /path/to/old    # and an older checkout (its own .venv), side by side
    .venv/bin/python benchmarks/hops.py --edges                  # also list every edge

Two walks, each on a real SQLite file with SimCord's virtual Discord, without par (no solver):

- **a card click**: alice starts a game on the deal 0000-0007, clicks one card untraced (warm-up: imports,
  caches), then clicks the next playable card traced, from the click until SimCord has settled (the edited
  message sent, every task the click started finished);
- **the daily post**: a server posts its daily at 09:30 UTC; alice plays day 1's daily to its end and the day-1
  post goes out untraced; the post of day 2 (with day 1's results) is traced from 09:29:59 to 09:30:01, the
  scheduled wake-up that posts it (the loop's sweep, par, post and finishing of share posts) included.

How it counts (``sys.setprofile`` in the event loop's thread and ``threading.setprofile`` in threads started
after the bot, e.g. the picture's worker):

- a *module* is a Python module of ours (top-level package ``bot``, ``cogs``, ``terminal``, ``web``, ``scoundrel``,
  ``storage`` or ``games``) in which at least one function (or comprehension) starts running during the walk;
  a coroutine or generator resuming is not a new call;
- a *hop* is a call from module X into module Y != X, where X is the module of the nearest caller on the stack
  that is ours (frames of discord.py, asyncio, SimCord and the standard library in between are skipped, so our
  code called back by discord.py counts as a hop from the module that called discord.py; a function started by
  the event loop or a thread pool with no caller of ours on its stack is an entry, not a hop);
- *edges* are the distinct (X -> Y) pairs; *hops* is every such call counted, in total;
- "only in threads": modules entered only outside the event loop's thread (a worker thread's);
  *packages*: the distinct parent packages of the modules (``games.engine``, ``cogs.plumbing``, ``storage`` ...).

Figures can move by a few calls between runs (what the event loop's other tasks do in the window); the
modules and edges are stable.

Layers, for both layouts: the process (``bot``), the surfaces (``cogs``, ``terminal``, ``web``), the application
layer (``scoundrel``), ``storage``, the games (``games``). On revisions before the layers had folders,
``bot.engine``, ``bot.solver``, ``bot.duel``, ``bot.picture``, ``bot.i18n`` count as the games; ``bot.coach``,
``bot.par``, ``bot.daily``, ``bot.clock``, ``bot.replays`` as the application layer (where that revision's
import contract put them); ``bot.terminal``, ``bot.term_colour``, ``bot.solve``, ``bot.review``,
``bot.duel_terminal``, ``bot.replay_cli`` as the terminal surface; the rest of ``bot`` as the process.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import dis
import json
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

OURS = ("bot", "cogs", "terminal", "web", "app", "storage", "games")
LAYERS = ("process", "surfaces", "application", "storage", "games")
OLD_GAMES = ("engine", "solver", "duel", "picture", "i18n")
OLD_APPLICATION = ("coach", "par", "daily", "clock", "replays")
OLD_TERMINAL = ("terminal", "term_colour", "solve", "review", "duel_terminal", "replay_cli")
FAKE_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.benchmark-token-not-real-00000000000"
GENERATOR_FLAGS = 0x20 | 0x80 | 0x200  # CO_GENERATOR, CO_COROUTINE, CO_ASYNC_GENERATOR
HOUR, MINUTE = 3600, 60


def layer(module: str) -> str:
    parts = module.split(".")
    top, second = parts[0], parts[1] if len(parts) > 1 else ""
    if top == "bot":
        if second in OLD_GAMES:
            return "games"
        if second in OLD_APPLICATION:
            return "application"
        return "surfaces" if second in OLD_TERMINAL else "process"
    return {"cogs": "surfaces", "terminal": "surfaces", "web": "surfaces", "app": "application",
            "storage": "storage", "games": "games"}[top]


class Tracer:
    """Records the modules entered and the module-to-module calls while ``on`` is set."""

    def __init__(self) -> None:
        self.on = False
        self.modules: collections.Counter[str] = collections.Counter()
        self.in_loop: set[str] = set()  # modules entered in the event loop's thread
        self.loop_thread = threading.get_ident()
        self.edges: collections.Counter[tuple[str, str]] = collections.Counter()
        self._first_resume: dict[object, int] = {}

    @staticmethod
    def ours(frame) -> str | None:
        name = frame.f_globals.get("__name__") or ""
        return name if name.split(".")[0] in OURS else None

    def resumed(self, frame) -> bool:
        """A generator or coroutine continuing after a yield or await, not a new call."""
        code = frame.f_code
        if not code.co_flags & GENERATOR_FLAGS:
            return False
        start = self._first_resume.get(code)
        if start is None:
            start = next(i.offset for i in dis.get_instructions(code) if i.opname == "RESUME")
            self._first_resume[code] = start
        return frame.f_lasti > start

    def __call__(self, frame, event, arg) -> None:
        if not self.on or event != "call":
            return
        module = self.ours(frame)
        if module is None or self.resumed(frame):
            return
        self.modules[module] += 1
        if threading.get_ident() == self.loop_thread:
            self.in_loop.add(module)
        caller = frame.f_back
        while caller is not None and (source := self.ours(caller)) is None:
            caller = caller.f_back
        if caller is not None and source != module:
            self.edges[(source, module)] += 1

    def result(self) -> dict:
        by_layer: dict[str, list[str]] = {name: [] for name in LAYERS}
        for module in sorted(self.modules):
            by_layer[layer(module)].append(module)
        return {"modules": sorted(self.modules), "entries": dict(self.modules), "by_layer": by_layer,
                "packages": sorted({m.rpartition(".")[0] or m for m in self.modules}),
                "only_in_threads": sorted(set(self.modules) - self.in_loop),
                "edges": [[a, b, n] for (a, b), n in sorted(self.edges.items())],
                "hops": sum(self.edges.values())}

    def reset(self) -> None:
        self.modules.clear()
        self.edges.clear()
        self.in_loop.clear()


def playable(message) -> list:
    """The card buttons a player can press (not the mode switch or avoiding the room)."""
    found = []
    for row in message.components:
        for item in row.children:
            code = (getattr(item, "custom_id", None) or "").split(":")
            if code[:2] == ["sc", "g"] and code[-1] not in ("mode", "A") and not item.disabled:
                found.append(item)
    return found


async def walks(root: Path) -> dict:
    import discord
    import simcord
    from bot_options import owning  # benchmarks/bot_options.py, beside this script

    from bot.client import ScoundrelBot
    from bot.config import Config

    tracer = Tracer()
    threading.setprofile(tracer)
    sys.setprofile(tracer)
    results = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            bot = ScoundrelBot(Config(token=FAKE_TOKEN, database=Path(tmp) / "hops.sqlite3"), par_solver=None,
                           **owning(ScoundrelBot))
            env = simcord.Env(bot)
            await env.start()
            try:
                guild = env.create_guild("Hops")
                channel = guild.create_text_channel("general")
                alice = guild.add_member(env.create_user("alice"))
                mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
                admin = guild.add_member(env.create_user("admin"), roles=[mods])

                message = (await alice.slash(channel, "scoundrel play", seed="0000-0007")).response.message
                await alice.click(message, custom_id=playable(message)[0].custom_id)  # warm-up
                await env.settle()
                message = channel.last_message
                tracer.reset()
                tracer.on = True
                await alice.click(message, custom_id=playable(message)[0].custom_id)
                await env.settle()
                tracer.on = False
                results["click"] = tracer.result()

                daily = guild.create_text_channel("daily")
                await admin.slash(channel, "scoundrel-admin daily", channel=daily, time="09:30")
                start = env.now()
                morning = start.replace(hour=9, minute=29, second=59, microsecond=0)
                await env.advance_time((morning - start).total_seconds() + (24 * HOUR if morning < start else 0))
                await env.advance_time(2 * MINUTE)  # day 1's post, untraced
                result = await alice.slash(channel, "scoundrel daily")
                message = result.response.message
                for _ in range(200):
                    moves = playable(message)
                    if not moves:
                        break
                    await alice.click(message, custom_id=moves[0].custom_id)
                    message = result.response.message
                await env.advance_time(24 * HOUR - 2 * MINUTE)  # 09:29:59 the next day
                tracer.reset()
                tracer.on = True
                await env.advance_time(2)
                await env.settle()
                tracer.on = False
                posts = [m for m in daily.history() if m.embeds and "#" in (m.embeds[0].title or "")]
                results["post"] = tracer.result() | {"posts": len(posts)}
            finally:
                await env.shutdown()
                await bot.close()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    return results


def show(columns: dict[str, dict], edges: bool) -> None:
    names = list(columns)
    for walk, title in (("click", "a card click"), ("post", "the daily post")):
        print(f"\n== {title} ==")
        print(f"{'':28}" + "".join(f"{name:>24}" for name in names))
        rows = [("modules of ours", lambda r: len(r["modules"])),
                ("  of which only in threads", lambda r: len(r["only_in_threads"])),
                ("packages (module's parent)", lambda r: len(r["packages"])),
                ("distinct edges X->Y", lambda r: len(r["edges"])),
                ("hops (calls X->Y, total)", lambda r: r["hops"])]
        rows += [(f"  modules: {name}", lambda r, name=name: len(r["by_layer"][name])) for name in LAYERS]
        for label, value in rows:
            print(f"{label:28}" + "".join(f"{value(columns[name][walk]):>24}" for name in names))
        for name in names:
            result = columns[name][walk]
            print(f"\n[{name}] {title}: modules by layer")
            for layer_name, modules in result["by_layer"].items():
                if modules:
                    print(f"  {layer_name:12} " + ", ".join(f"{m} ({result['entries'][m]})" for m in modules))
            if edges:
                print(f"[{name}] edges (calls)")
                for source, target, count in result["edges"]:
                    print(f"  {source} -> {target}  {count}")
            if walk == "post" and result.get("posts", 1) < 2:
                print(f"  (warning: {result.get('posts')} posts in the channel; the day-2 post did not go out)")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1],
                        help="the checkout to trace (default: this one)")
    parser.add_argument("--compare", type=Path, help="an older checkout, run first with its own .venv")
    parser.add_argument("--json", action="store_true", help="print the raw result as JSON only")
    parser.add_argument("--edges", action="store_true", help="list every edge with its number of calls")
    args = parser.parse_args(argv)
    columns = {}
    if args.compare is not None:
        old = subprocess.run([str(args.compare / ".venv" / "bin" / "python"), __file__, "--root", str(args.compare),
                              "--json"], cwd=args.compare, check=True, capture_output=True, text=True)
        columns[f"{args.compare.name} (old)"] = json.loads(old.stdout.strip().splitlines()[-1])
    sys.path.insert(0, str(args.root.resolve()))
    result = asyncio.run(walks(args.root))
    if args.json:
        print(json.dumps(result))
        return 0
    columns[f"{args.root.resolve().name}"] = result
    show(columns, args.edges)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
