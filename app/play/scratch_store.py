"""A store for games that need not outlast their process: a SQLite file in a temporary directory, removed at the
end. The terminal's ``play`` keeps its one game there, so it plays through the same application functions
(``app.play.solo``) and the same durable commit as the bot, without a database of the player's to set up."""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from storage.store import Store


@asynccontextmanager
async def scratch_store() -> AsyncIterator[Store]:
    with tempfile.TemporaryDirectory(prefix="scoundrel-") as folder:
        # One connection is plenty for one player (no read pools), and the file goes with the folder: no WAL
        # checkpointer either.
        store = await Store.open(Path(folder) / "games.sqlite3", checkpoint_every=None, separate_reads=False)
        try:
            yield store
        finally:
            await store.close()
