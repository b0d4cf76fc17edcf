"""What a player is told when the database is at fault: out of reach, or full (nothing saved), in every language."""

from __future__ import annotations

import pytest

from cogs.plumbing.errors import DATABASE_DOWN, DATABASE_FULL, friendly_message
from games.i18n.messages import ENGLISH, messages_for
from storage import DatabaseFull, DatabaseUnavailable


def test_an_unreachable_database_says_it_cannot_be_reached():
    text, logged = friendly_message(DatabaseUnavailable("server hung"))
    assert text == ENGLISH(DATABASE_DOWN) and "can't reach" in text and logged


def test_a_full_database_says_nothing_was_saved_not_that_it_is_out_of_reach():
    # (the store raises DatabaseFull for a full disk or a read-only database: see storage/errors.py)
    text, logged = friendly_message(DatabaseFull("disk full"))
    assert "could not save anything" in text and "can't reach" not in text and logged


@pytest.mark.parametrize("locale", ["de", "fr", "es-ES"])
def test_both_database_messages_are_translated(locale):
    tr = messages_for(locale)
    for error, source in ((DatabaseUnavailable("x"), DATABASE_DOWN), (DatabaseFull("x"), DATABASE_FULL)):
        text, _ = friendly_message(error, tr)
        assert text and text != ENGLISH(source)
