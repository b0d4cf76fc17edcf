"""``open_store``: the store for the configured ``database``: a path (or ``sqlite:///path``) opens SQLite, a
``postgresql://…`` URL opens PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime

from storage.backends.base import redact
from storage.store import Store

SQLITE_PREFIX = "sqlite:///"


def is_postgres(target: str | os.PathLike) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def sqlite_path(target: str | os.PathLike) -> str | os.PathLike:
    """The file of a SQLite target (``sqlite:///relative`` or ``sqlite:////absolute``, or a plain path)."""
    if isinstance(target, str) and target.startswith(SQLITE_PREFIX):
        return target[len(SQLITE_PREFIX):]
    return target


async def open_store(target: str | os.PathLike, *, clock: Callable[[], datetime] | None = None,
                     wait: float | None = None) -> Store:
    """Open (creating or upgrading) the database ``target`` names; raises what ``Store.open`` raises. ``wait``:
    the seconds each store call may take before its caller gives up (``storage/time_limit.py``); None: no limit."""
    if is_postgres(target):
        from storage.backends.postgres import PostgresDb  # asyncpg is imported only by a bot that uses PostgreSQL

        return await Store.on(await PostgresDb.open(str(target)), clock=clock, wait=wait)
    return await Store.open(sqlite_path(target), clock=clock, wait=wait)


__all__ = ["is_postgres", "open_store", "redact", "sqlite_path"]
