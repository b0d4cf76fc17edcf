"""Secrets kept out of everything the process prints: its messages, its log lines and its tracebacks.

Three kinds of secret can reach an output:

* the bot token (``DISCORD_TOKEN`` or ``[bot] token``), e.g. in a traceback of a failed login;
* a database password, inside a ``postgresql://user:password@host/db`` URL (``SCOUNDREL_DATABASE``, ``--db``,
  ``copy-db``'s arguments), e.g. in an error that quotes the URL;
* an interaction's token: discord.py's request log (DEBUG) prints every URL it calls, and the URLs that answer an
  interaction (``/interactions/ID/TOKEN/callback``, ``/webhooks/APP/TOKEN/...``) carry it; the gateway's event
  log (DEBUG) prints each INTERACTION_CREATE with its ``token`` field. Whoever reads one can answer as the bot for
  15 minutes.

``scrub(text)`` replaces all three: the secrets this process knows (``remember``), any password in a database URL
and any interaction token in those two shapes. ``ScrubSecrets`` applies it to every log record a handler sees
(message, arguments, traceback); ``bot.cli`` routes the process's stdout and stderr through it as well.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable, Mapping
from typing import TextIO
from urllib.parse import quote, unquote, urlsplit

REDACTED = "[token redacted]"
MASK = "***"
_MIN_SECRET = 4  # shorter "secrets" (an empty or one-letter password) would mask ordinary text

_URL_PASSWORD = re.compile(r"(?P<head>\bpostgres(?:ql)?://[^\s:/@'\"]*:)(?P<secret>[^\s@'\"]+)(?=@)")
_CALLBACK = re.compile(r"(?P<head>/(?:interactions|webhooks)/\d+/)(?P<secret>[^/\s?'\"]+)")
_TOKEN_FIELD = re.compile(r"(?P<head>['\"]token['\"]\s*:\s*['\"])(?P<secret>[^'\"]+)")

_known: set[str] = set()
_lock = threading.Lock()


def remember(*secrets: str | None) -> None:
    """Mask these wherever they appear from now on (and their URL-encoded and decoded spellings)."""
    with _lock:
        for secret in secrets:
            if secret and len(secret) >= _MIN_SECRET:
                _known.update({secret, quote(secret, safe=""), unquote(secret)})


def remember_urls(values: Iterable[str | None]) -> None:
    """The password of each database URL among ``values`` (command-line arguments, settings)."""
    for value in values:
        if not value or "://" not in value:
            continue
        try:
            password = urlsplit(value.strip()).password
        except ValueError:  # not a URL after all
            continue
        remember(password)


def remember_environment(environ: Mapping[str, str]) -> None:
    """The token and the database password the process may be given through its environment."""
    remember(environ.get("DISCORD_TOKEN", "").strip() or None)
    remember_urls([environ.get("SCOUNDREL_DATABASE")])


def scrub(text: str) -> str:
    """``text`` with every secret masked."""
    with _lock:
        known = sorted(_known, key=len, reverse=True)  # a longer secret first: one may contain another
    for secret in known:
        if secret in text:
            text = text.replace(secret, REDACTED)
    if "://" in text:
        text = _URL_PASSWORD.sub(lambda m: m["head"] + MASK, text)
    if "/interactions/" in text or "/webhooks/" in text:
        text = _CALLBACK.sub(lambda m: m["head"] + REDACTED, text)
    if "token" in text:
        text = _TOKEN_FIELD.sub(lambda m: m["head"] + REDACTED, text)
    return text


class ScrubSecrets(logging.Filter):
    """On a handler: every record it writes has its secrets masked (message with its arguments, traceback, stack).

    A handler's filter sees the records of every logger that propagates to it (discord.py's, asyncpg's, ours)."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        remember(*secrets)

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        clean = scrub(text)
        if clean != text:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = scrub(record.stack_info)
        return True


class ScrubbedStream:
    """A text stream that masks secrets in what is written to it, and is the wrapped stream in every other way
    (``isatty``, ``fileno``, ``encoding``…). One ``write`` is scrubbed at a time: ``print`` writes each argument
    whole, so a secret is never split between two writes."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(scrub(text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    @property
    def wrapped(self) -> TextIO:
        return self._stream

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


__all__ = ["MASK", "REDACTED", "ScrubSecrets", "ScrubbedStream", "remember", "remember_environment",
           "remember_urls", "scrub"]
