"""What a player is told when the database is at fault: out of reach, or full (nothing saved), in every language."""

from __future__ import annotations

import sqlite3

import pytest

from bot.i18n.messages import ENGLISH, messages_for
from cogs.errors import DATABASE_DOWN, DATABASE_FULL, friendly_message
from storage import DatabaseFull, DatabaseUnavailable


def disk_full_error(tmp_path) -> sqlite3.OperationalError:
    """The error SQLite really raises when it cannot grow the file (a page limit stands in for a full disk)."""
    db = sqlite3.connect(tmp_path / "full.sqlite3")
    try:
        db.execute("CREATE TABLE t (x BLOB)")
        db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
        with pytest.raises(sqlite3.OperationalError) as raised:
            db.execute("INSERT INTO t VALUES (zeroblob(100000))")
        return raised.value
    finally:
        db.close()


def test_an_unreachable_database_says_it_cannot_be_reached():
    text, logged = friendly_message(DatabaseUnavailable("server hung"))
    assert text == ENGLISH(DATABASE_DOWN) and "can't reach" in text and logged


@pytest.mark.parametrize("make", [lambda tmp: DatabaseFull("disk full"), disk_full_error])
def test_a_full_database_says_nothing_was_saved_not_that_it_is_out_of_reach(make, tmp_path):
    text, logged = friendly_message(make(tmp_path))
    assert "could not save anything" in text and "can't reach" not in text and logged


@pytest.mark.parametrize("locale", ["de", "fr", "es-ES"])
def test_both_database_messages_are_translated(locale):
    tr = messages_for(locale)
    for error, source in ((DatabaseUnavailable("x"), DATABASE_DOWN), (DatabaseFull("x"), DATABASE_FULL)):
        text, _ = friendly_message(error, tr)
        assert text and text != ENGLISH(source)
