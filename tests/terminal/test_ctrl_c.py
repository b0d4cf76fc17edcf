"""Ctrl-C, as a terminal sends it (SIGINT to the command's whole process group): ``play`` leaves at once with the
moves and the review command, as ``q`` does; ``web`` stops within a second, even while a hint is being solved,
without a traceback. Both exit with 130, the status docs/OPERATIONS.md gives a command stopped with Ctrl-C."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

INTERRUPTED = 130


def started(*args: str, stdin=subprocess.PIPE) -> subprocess.Popen:
    """The command in a process group of its own, as a shell runs a job in the foreground."""
    return subprocess.Popen([sys.executable, "-m", "bot", *args], stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"})


def read_until(stream, marker: str, count: int = 1) -> str:
    seen = ""
    while seen.count(marker) < count:
        chunk = os.read(stream.fileno(), 4096).decode()
        assert chunk, f"the command ended before {marker!r}: {seen}"
        seen += chunk
    return seen


def ctrl_c(process: subprocess.Popen) -> float:
    """SIGINT to the process group; the seconds until the command has ended."""
    sent = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    process.wait(30)
    return time.monotonic() - sent


def test_ctrl_c_in_play_leaves_at_once_with_the_moves_and_the_review_command():
    game = started("play", "--seed", "K7Q2-M9XD")
    try:
        game.stdin.write("1\n")
        game.stdin.flush()
        read_until(game.stdout, "> ", count=2)  # the move made, waiting at the prompt for the next
        took = ctrl_c(game)
        out, err = game.stdout.read(), game.stderr.read()
    finally:
        game.kill()
        game.wait()
    assert game.returncode == INTERRUPTED and took < 2
    assert "Moves: 1b" in out and 'review --seed K7Q2-M9XD --moves "1b"' in out and out.rstrip().endswith("Bye.")
    assert err == ""


def test_ctrl_c_in_web_stops_within_a_second_without_a_traceback(tmp_path):
    server = started("web", "--port", "0", "--db", str(tmp_path / "table.sqlite3"), stdin=subprocess.DEVNULL)
    try:
        port = int(re.search(r"127\.0\.0\.1:(\d+)/", read_until(server.stdout, "\n")).group(1))

        def call(path: str, body: dict, token: str | None = None) -> dict:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            connection.request("POST", path, json.dumps(body), headers)
            return json.loads(connection.getresponse().read())

        token = call("/api/token", {"code": "local"})["access_token"]
        game = call("/api/games", {"kind": "normal"}, token)["state"]
        # A hint on the first move is a whole solve: the solver's worker process is busy with it when Ctrl-C comes.
        threading.Thread(target=lambda: _quietly(call, f"/api/games/{game['id']}/hint", {"confirm": True}, token),
                         daemon=True).start()
        time.sleep(1.0)
        sent = time.monotonic()
        os.killpg(server.pid, signal.SIGINT)
        while answers(port):  # the table stops answering...
            time.sleep(0.02)
        stopped = time.monotonic() - sent
        server.wait(30)  # ...and the process ends (the interpreter's own exit is slower on a busy machine)
        err = server.stderr.read()
    finally:
        server.kill()
        server.wait()
    assert server.returncode == INTERRUPTED and stopped < 1.0, (stopped, err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def _quietly(call, *args) -> None:
    try:
        call(*args)
    except (OSError, http.client.HTTPException):  # the server stopped under it: what this test does
        pass
