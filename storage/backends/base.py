"""``Db``: the one interface the storage areas are written against; SQLite and PostgreSQL implement it as siblings.

What a backend gives: plain reads (``read``), a write transaction (``write``: ``body(tx)`` committed on return,
rolled back on an exception, shielded from cancellation), and the few operations whose best form differs by
database: the grouped commit of moves, game creation, the integrity check, a backup, and the table-by-table access
``copy-db`` needs. Each backend maps its driver's exceptions to storage's own errors (``storage.errors``) at this
boundary: no ``sqlite3`` or ``asyncpg`` type leaves it.

Statements: a ``str`` is one text both databases take (placeholders ``$1, $2, …``, which SQLite reads as named
parameters and PostgreSQL as positional ones); where the dialects differ, an ``Sql`` holds both texts, written out.
Nothing is rewritten at run time.
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar
from urllib.parse import parse_qs, unquote, urlsplit, urlunsplit

from games.engine import whole_number
from games.engine.tally import Tally
from storage.errors import DatabaseError
from storage.sql import Sql, Statement

Row = Sequence[Any]


class ConstraintViolation(DatabaseError):
    """A write broke a unique or foreign key constraint (e.g. two processes creating a game at the same instant)."""


class Tx(ABC):
    """A connection inside a write transaction."""

    @abstractmethod
    async def execute(self, sql: Statement, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: Statement, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement per row (in one round trip where the driver can)."""

    @abstractmethod
    async def execute_each(self, sql: Statement, rows: Sequence[Sequence[Any]]) -> int:
        """Run one statement per row; the number of rows changed in all."""

    @abstractmethod
    async def fetch(self, sql: Statement, params: Sequence[Any] = ()) -> list[Row]:
        """Run one statement and return its rows."""

    async def fetchone(self, sql: Statement, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None


@dataclass(slots=True, eq=False)
class Move:
    """One move waiting for its group commit."""

    game_id: int
    expected: int  # the version the move was made on; it becomes expected + 1
    code: str
    snapshot: str
    status: str
    score: int | None
    at_us: int
    ended_us: int | None
    tally: Tally  # what the move adds to the boards when it ends a counted game (left out if the game is hinted)
    expiry: tuple | None = None  # a daily's (deadline, day, forfeit score, tally of the forfeit)
    future: asyncio.Future | None = None
    hinted: bool | None = None  # the game's hint flag as its commit read it (where the commit reads it)


Outcomes = list[Exception | None]  # per move: None (written) or the exception its caller gets
CheckedWrite = Callable[[Tx, list[Move], int], Awaitable[Outcomes]]  # moves written one by one inside a transaction
ReadTable = Callable[[str, list[str]], AsyncIterator[list[tuple]]]
WriteTable = Callable[[str, list[str], list[tuple]], Awaitable[None]]


def redact(url: str) -> str:
    """The URL without its password, for messages and logs (a URL too broken to read shows no credentials)."""
    try:
        parts = urlsplit(url)
    except ValueError:  # e.g. an unclosed [ in the host: whatever stands before an @ may be a password
        scheme, _, rest = url.partition("://")
        return f"{scheme}://***@{rest.rpartition('@')[2]}" if "@" in rest else url
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))


def url_problem(url: str) -> str | None:
    """What keeps a ``postgresql://`` URL from being used, in a few words, else None: a host list or port the
    driver cannot read (it would fail with a bare ValueError of its own), or a query string that is not
    ``name=value&...``."""
    try:
        parts = urlsplit(url)
    except ValueError as bad:  # "Invalid IPv6 URL"
        return f"it is not a URL ({bad})"
    for host in parts.netloc.rpartition("@")[2].split(","):
        if not host and "," in parts.netloc:
            return "a host in its list of hosts is empty"
        ipv6 = host.startswith("[")
        if ipv6 and "]" not in host:
            return "an IPv6 address is written [address]:port"
        tail = host.rpartition("]")[2] if ipv6 else host
        if ":" in tail:
            port = unquote(tail.partition(":")[2])
            if port and not _port(port):  # (empty: the default port)
                return f"the port must be a number from 1 to 65535, not {port[:12]!r}"
    try:
        query = parse_qs(parts.query, strict_parsing=True) if parts.query else {}
    except ValueError:
        return "its query string must be name=value pairs joined by &"
    if any(not _port(port) for value in query.get("port", ()) for port in value.split(",")):
        return "the port must be a number from 1 to 65535"
    return None


def _port(text: str) -> bool:
    number = whole_number(text, digits=5)
    return number is not None and 0 < number < 65536


class Db(ABC):
    """A database the store runs on."""

    dialect: ClassVar[str]  # "sqlite" or "postgres"
    move_flushers: ClassVar[int] = 1  # group commits of moves that may be on their way at once
    remembers_games: ClassVar[bool] = False  # a move on a game held in memory at its version skips reading it
    shown: str  # the file or the URL without its password, for messages and logs

    @abstractmethod
    async def read(self, sql: Statement, params: Sequence[Any] = (), *, board: bool = False) -> list[Row]:
        """One query outside any transaction. ``board``: a board or stats query (kept out of a click's way)."""

    @abstractmethod
    async def transaction(self, body: Callable[[Tx], Awaitable[Any]], writes: int = 1, *, slow: bool = False) -> Any:
        """``body(tx)`` in one write transaction, as if it ran alone; ``writes``: how many writes it holds;
        ``slow``: an operator's repair over every row, given as long as it takes."""

    async def write(self, body: Callable[[Tx], Awaitable[Any]], *, slow: bool = False) -> Any:
        """``transaction`` shielded: a cancelled caller does not cut it in half; it commits or rolls back anyway."""
        return await asyncio.shield(self.transaction(body, slow=slow))

    async def commit_moves(self, group: list[Move], now_us: int, checked: CheckedWrite) -> Outcomes:
        """Write a group of moves in one commit: ``checked`` in one transaction (a backend may do better)."""
        return await self.transaction(lambda tx: checked(tx, group, now_us), len(group))

    async def start_game(self, values: Sequence[Any], checked: Callable[[Tx], Awaitable[tuple[str, Any]]]
                         ) -> tuple[str, Any]:
        """Insert a new game unless the player has one running in the slot or (a counted daily) has used the day:
        ("new", id), ("active", the running game's row) or ("used", the attempt's game id). ``values``: user, guild,
        channel, kind, slot, day, rules_json, rules key, rules name, seed, deck codes, snapshot, now (us).
        ``checked``: the same done statement by statement in one transaction (a backend may do better)."""
        return await self.write(checked)

    @abstractmethod
    async def integrity_check(self) -> str:
        """"ok", or what is wrong."""

    @abstractmethod
    async def backup(self, target: Any, *, with_secret: bool = False) -> dict:
        """A checked copy of the live database at ``target``; raises ``DatabaseError`` where the backend has none."""

    @abstractmethod
    async def tables(self) -> list[str]:
        """The bot's tables (not the backend's own bookkeeping), by name."""

    @abstractmethod
    async def columns(self, table: str) -> list[str]:
        """The table's columns, in order."""

    @abstractmethod
    def snapshot(self) -> contextlib.AbstractAsyncContextManager[ReadTable]:
        """``read(table, columns)``: chunks of rows, all from one consistent view of the database."""

    @abstractmethod
    def loading(self) -> contextlib.AbstractAsyncContextManager[WriteTable]:
        """``write(table, columns, rows)`` in one transaction, committed when the block ends without error."""

    @abstractmethod
    async def close(self) -> None:
        """Finish what is on its way and close every connection."""


__all__ = ["CheckedWrite", "ConstraintViolation", "Db", "Move", "Outcomes", "ReadTable", "Row", "Sql", "Statement",
           "Tx", "WriteTable", "redact"]
