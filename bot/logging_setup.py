"""Logging for the bot process: secrets scrubbed from every record (bot/redaction.py), plain or JSON lines,
colour only on a TTY.

discord.py's own helper turns colour on whenever it guesses it runs in Docker, which fills log files with escape
codes, so the formatter is chosen here: colour only when the stream is a terminal and ``NO_COLOR`` is unset.
The voice-support warnings discord.py prints at start-up are switched off: the bot never joins voice.
"""

from __future__ import annotations

import json
import logging
import os
from datetime import UTC, datetime

import discord

from bot.redaction import ScrubSecrets
from web.http import quiet_refusals

DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


class JsonLines(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, and the traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
                 "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False)


def wants_colour(stream) -> bool:
    return hasattr(stream, "isatty") and stream.isatty() and not os.environ.get("NO_COLOR")


def make_formatter(log_format: str, stream) -> logging.Formatter:
    if log_format == "json":
        return JsonLines()
    if wants_colour(stream):
        return discord.utils._ColourFormatter()
    return logging.Formatter("[{asctime}] [{levelname:<8}] {name}: {message}", DATE_FORMAT, style="{")


def setup_logging(level: int, token: str, handler: logging.Handler | None = None,
                  log_format: str = "text") -> logging.Handler:
    """A stream handler on the root logger (stderr unless given), filtered and formatted; returns the handler."""
    handler = handler or logging.StreamHandler()
    handler.addFilter(ScrubSecrets(token))  # on the handler: it sees records from every logger
    handler.setFormatter(make_formatter(log_format, getattr(handler, "stream", None)))
    root = logging.getLogger()
    root.setLevel(level)
    for old in list(root.handlers):
        if getattr(old, "_scoundrel", False):
            root.removeHandler(old)
    handler._scoundrel = True  # type: ignore[attr-defined]  # marks ours, to replace on a second call
    root.addHandler(handler)
    quiet_refusals()  # a request the service's aiohttp cannot read: one line, not a traceback (web/http.py)
    # No voice: the bot never joins a voice channel, so the "PyNaCl/davey is not installed" warnings are noise.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    return handler
