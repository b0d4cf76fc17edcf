"""Logging through discord.py's own setup, with the bot token scrubbed from every record."""

from __future__ import annotations

import logging

import discord

REDACTED = "[token redacted]"


class RedactToken(logging.Filter):
    """Replaces the token wherever it would appear in a log line (message, arguments or traceback)."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.token:
            return True
        text = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if self.token in text or (record.exc_text and self.token in record.exc_text):
            record.msg, record.args = text.replace(self.token, REDACTED), None
            if record.exc_text:
                record.exc_text = record.exc_text.replace(self.token, REDACTED)
        return True


def setup_logging(level: int, token: str, handler: logging.Handler | None = None) -> logging.Handler:
    """discord.py's coloured stream logging on the root logger, filtered; returns the handler."""
    handler = handler or logging.StreamHandler()
    handler.addFilter(RedactToken(token))  # on the handler: it sees records from every logger
    discord.utils.setup_logging(handler=handler, level=level, root=True)
    return handler
