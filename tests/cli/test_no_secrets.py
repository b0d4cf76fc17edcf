"""No command prints a secret: not the database password, not the bot token, not an interaction's token, in its
messages, its log (at DEBUG, where discord.py prints every request it makes) or its tracebacks.

Each command runs as an operator runs it, in its own process, given a database URL with a password and a token,
and everything it prints is searched."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import COMMANDS
from tests.postgres_server import RawPostgres

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "secretpw"
URL = f"postgresql://u:{PASSWORD}@127.0.0.1:1/x"  # nothing listens on port 1: every command fails to connect
TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.a-token-that-must-never-be-printed-0000"


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCOUNDREL_", "DISCORD_"))}
    env.update(SCOUNDREL_DATABASE=URL, DISCORD_TOKEN=TOKEN, SCOUNDREL_LOG_LEVEL="DEBUG", NO_COLOR="1", **extra)
    return env


def secrets_in(text: str) -> list[str]:
    return [secret for secret in (PASSWORD, TOKEN, TOKEN.split(".")[-1]) if secret in text]


# Every command, with arguments that make it reach the database (or do its whole job): a new command needs a line.
ARGUMENTS = {
    "run": [[], ["--config", "{tmp}/config.toml"]],
    "play": [["--seed", "K7Q2-M9XD"]],
    "duel": [["--seed", "K7Q2-M9XD"]],
    "solve": [["--seed", "#5", "--health", "5"]],
    "review": [["--seed", "#5", "--moves", "1 2 3"]],
    "hint": [["--seed", "#5", "--moves", "1 2"]],
    "replay": [["--seed", "#5", "--moves", "1", "--out", "{tmp}/game.gif"]],
    "backup": [["{tmp}/copy"], ["{tmp}/copy", "--db", URL], ["{tmp}/copy", "--config", "{tmp}/config.toml"]],
    "restore": [["{tmp}/copy"], ["{tmp}/backup.pgdump", "--db", URL]],
    "maintenance": [[], ["--db", URL], ["--config", "{tmp}/config.toml"]],
    "copy-db": [[URL, "{tmp}/new.sqlite3"], ["{tmp}/old.sqlite3", URL], [URL, URL.replace("/x", "/y")]],
    "bench": [["--games", "1", "--rounds", "1"]],
    "invite": [["--app-id", "123456789012345678"]],
    "forget": [["--user", "42"], ["--user", "42", "--db", URL]],
    "web": [["--port", "0"], ["--port", "0", "--db", URL]],
}


def test_every_command_is_searched():
    assert set(ARGUMENTS) == set(COMMANDS)


@pytest.mark.parametrize("command, args", [(c, a) for c, runs in ARGUMENTS.items() for a in runs])
def test_no_command_prints_the_database_password_or_the_token(command, args, tmp_path):
    (tmp_path / "config.toml").write_text(f'[bot]\ntoken = "{TOKEN}"\ndatabase = "{URL}"\nlog_level = "DEBUG"\n')
    (tmp_path / "backup.pgdump").write_bytes(b"PGDMP" + bytes(64))
    argv = [part.replace("{tmp}", str(tmp_path)) for part in args]
    done = subprocess.run([sys.executable, "-m", "bot", command, *argv], capture_output=True, text=True,
                          input="q\n" * 5, timeout=120, env=environment(), cwd=tmp_path)
    printed = done.stdout + done.stderr
    assert secrets_in(printed) == [], printed[-3000:]
    assert "Traceback" not in printed, printed[-3000:]


BOOM = f"""
import sys, types
from bot import cli
module = types.ModuleType("boom")
def main(argv):
    raise RuntimeError("could not open {URL} with {TOKEN}")
module.main = main
sys.modules["boom"] = module
cli.COMMANDS["boom"] = ("boom", "fails")
sys.exit(cli.main(["boom"]))
"""


def test_a_traceback_that_holds_a_secret_is_printed_masked():
    # A fault nobody foresaw, whose message quotes the URL and the token: Python's own traceback prints them raw.
    done = subprocess.run([sys.executable, "-c", BOOM], capture_output=True, text=True, timeout=60,
                          env=environment(), cwd=ROOT)
    assert done.returncode == 1 and "Traceback" in done.stderr and "RuntimeError: could not open" in done.stderr
    assert secrets_in(done.stdout + done.stderr) == [] and "[token redacted]" in done.stderr


def test_the_running_bot_logs_no_secret_at_debug(postgres_server, tmp_path):
    """The real ``run`` process on PostgreSQL (a URL with a password) through a loopback Discord, at DEBUG: players
    start games and click; discord.py logs every request, whose URLs carry the interactions' tokens, and every
    gateway event, whose INTERACTION_CREATE carries the token too."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import loopback_load

    admin_url = postgres_server.create_database()
    database = admin_url.rsplit("/", 1)[1]
    admin = RawPostgres(postgres_server.url())
    try:
        admin.execute(f"CREATE ROLE bot_user LOGIN PASSWORD '{PASSWORD}'")
        admin.execute(f"ALTER DATABASE {database} OWNER TO bot_user")
        url = f"postgresql://bot_user:{PASSWORD}@127.0.0.1:{postgres_server.port}/{database}"
        log, tokens = asyncio.run(_play_at_debug(loopback_load, url, tmp_path))
    finally:
        postgres_server.drop_database(admin_url)
        admin.execute("DROP ROLE IF EXISTS bot_user")
        admin.close()
    assert "/interactions/" in log and "WebSocket Event" in log  # the request and event logs were written…
    assert len(tokens) == 6 and [t for t in tokens if t.split(":")[-1] in log] == []  # …without the tokens
    assert secrets_in(log) == [] and loopback_load.FAKE_TOKEN not in log, log[-3000:]


def start(argv: list[str], env: dict[str, str], log) -> subprocess.Popen:
    return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


async def _play_at_debug(loopback_load, url: str, tmp_path: Path) -> tuple[str, list[str]]:
    discord = loopback_load.FakeDiscord(loopback_load.FAKE_TOKEN, guilds=1, channels=2)
    await discord.start()
    config = tmp_path / "config.toml"
    config.write_text('[bot]\nlog_level = "DEBUG"\n\n[daily]\nenabled = false\n')
    env = environment(PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1", LOOPBACK_MODULE="bot")
    env.update(SCOUNDREL_DATABASE=url, DISCORD_TOKEN=loopback_load.FAKE_TOKEN)
    log_path = tmp_path / "bot.log"
    tokens: list[str] = []
    with log_path.open("wb") as log:
        proc = start([sys.executable, str(loopback_load.LAUNCHER), discord.base, discord.ws_url, "run", "--config",
                      str(config)], env, log)
        try:
            bot = type("Bot", (), {"proc": proc, "log_path": log_path})()
            await loopback_load.wait_ready(discord, bot)
            load = loopback_load.Load(discord, 2, ["en-US"])
            for _ in range(3):  # a new game, then clicks on it
                for seat in load.seats:
                    pending = load.next_interaction(seat)
                    tokens.append(pending.token)
                    await discord.send_interaction(pending)
                    await load.answer(seat, pending)
        finally:
            proc.terminate()
            await asyncio.to_thread(proc.wait, 20)
            await discord.close()
    return log_path.read_text(errors="replace"), tokens
