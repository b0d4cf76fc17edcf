"""Storage: the only code that talks to the database: SQLite through aiosqlite or PostgreSQL through asyncpg
(``storage/backends``), behind the one ``Store`` (``storage/store.py``); ``open_store`` picks the backend from the
configured ``database``."""

from storage.errors import (
    ActiveGameExists,
    AttemptAlreadyUsed,
    CorruptGame,
    DatabaseError,
    DatabaseFull,
    DatabaseUnavailable,
    GameNotFound,
    MoveRefused,
    SchemaTooNew,
    StorageError,
)
from storage.factory import is_postgres, open_store
from storage.models import (
    ABANDONED,
    DAILY,
    DEAD,
    EXPIRED,
    NORMAL,
    PLAYING,
    PRACTICE,
    WON,
    AllTimeEntry,
    DailyChallenge,
    DailyEntry,
    GameRecord,
    GuildSettings,
    RulesStats,
    UserStats,
    WeekEntry,
)
from storage.shares import SharePost
from storage.store import ALL_GUILDS, ALL_RULES, Store, rules_name
from storage.time_limit import StoreTimeout

__all__ = [
    "ABANDONED", "ALL_GUILDS", "ALL_RULES", "ActiveGameExists", "AllTimeEntry", "AttemptAlreadyUsed", "CorruptGame",
    "DAILY", "DEAD", "DailyChallenge", "DailyEntry", "DatabaseError", "DatabaseFull", "DatabaseUnavailable",
    "EXPIRED", "GameNotFound", "MoveRefused", "GameRecord", "GuildSettings", "NORMAL",
    "PLAYING", "PRACTICE", "RulesStats", "SchemaTooNew", "Store", "StorageError", "UserStats",
    "WON", "WeekEntry", "is_postgres", "open_store", "rules_name", "SharePost", "StoreTimeout",
]
