"""``python -m bot`` pointed at the loopback Discord of benchmarks/loopback_load.py, for that benchmark only.

    python benchmarks/loopback_bot.py API_BASE GATEWAY_URL run --config CONFIG

discord.py reaches Discord through ``Route.BASE`` (REST) and ``DiscordWebSocket.DEFAULT_GATEWAY`` (the first
gateway connection of an unsharded client); both are set here before the bot's own entry point runs, so the bot's
code is the code of whichever tree is first on ``PYTHONPATH``, unchanged.
"""

import runpy
import sys

import discord.gateway
import discord.http
import yarl

if __name__ == "__main__":
    base, gateway, *args = sys.argv[1:]
    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    del sys.path[0]  # this folder: the bot's modules come from PYTHONPATH
    sys.argv = ["bot", *args]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)
