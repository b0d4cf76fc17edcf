"""The records the use cases hand the surfaces, and the names the surfaces switch on.

Storage defines them (``storage.models``); the surfaces import them from here, so none of them reaches into
storage: a stored game (``GameRecord``) and its kinds and statuses, a server's settings, a Share post waiting
for par, and ``Store``, the handle a surface passes to each use case without calling it.
"""

from __future__ import annotations

from storage import Store
from storage.models import (
    ABANDONED,
    DAILY,
    DEAD,
    EXPIRED,
    NORMAL,
    PLAYING,
    PRACTICE,
    WON,
    GameRecord,
    GuildSettings,
)
from storage.shares import SharePost

__all__ = ["ABANDONED", "DAILY", "DEAD", "EXPIRED", "NORMAL", "PLAYING", "PRACTICE", "WON", "GameRecord",
           "GuildSettings", "SharePost", "Store"]
