"""``scoundrel-bot web``: one command serves the table on loopback with a local player, on the database asked for."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import urllib.request
from json import loads

from storage import open_store
from storage.models import NORMAL


def test_the_command_serves_the_table_and_plays(tmp_path):
    database = tmp_path / "local.sqlite3"
    server = subprocess.Popen([sys.executable, "-m", "bot", "web", "--port", "0", "--db", str(database)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = server.stdout.readline()  # "The table is at http://127.0.0.1:PORT/ (Ctrl-C stops it)"
        url = re.search(r"http://127\.0\.0\.1:\d+/", line).group(0)
        page = urllib.request.urlopen(url, timeout=10)
        assert page.status == 200 and "script" in page.read().decode()

        def call(path, body=None, token=None):
            request = urllib.request.Request(url + path, data=None if body is None else body.encode(),
                                             headers={"Authorization": f"Bearer {token}"} if token else {},
                                             method="POST" if body is not None else "GET")
            return loads(urllib.request.urlopen(request, timeout=10).read())

        token = call("api/token", '{"code": "mock_code"}')["access_token"]
        state = call("api/games", '{"kind": "normal"}', token)["state"]
        assert state["version"] == 0 and len(state["room"]) == 4
    finally:
        server.terminate()
        server.wait(10)
    assert server.returncode == 0  # SIGTERM stops it cleanly (the store closed)

    async def stored():
        store = await open_store(database)
        try:
            return await store.active_game(1, NORMAL)
        finally:
            await store.close()

    assert asyncio.run(stored()).id == state["id"]  # the game is in the database the command was given


def test_a_bad_port_is_a_usage_error():
    done = subprocess.run([sys.executable, "-m", "bot", "web", "--port", "70000"], capture_output=True, text=True)
    assert done.returncode == 2 and "--port" in done.stderr
