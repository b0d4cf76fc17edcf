"""Every message the code shows has a translation in every shipped catalogue, and nothing else does."""

from __future__ import annotations

import pytest

from games.i18n import check
from games.i18n.messages import ENGLISH, SHIPPED, Messages, locale_code, messages_for, read_catalogue


@pytest.fixture(scope="module")
def wanted():
    return check.code_messages()


@pytest.mark.parametrize("locale", SHIPPED)
def test_every_catalogue_translates_exactly_what_the_code_shows(locale, wanted):
    report = check.check(locale, wanted)
    assert report.missing == [], f"{locale} lacks translations (python -m games.i18n.check)"
    assert report.stale == [], f"{locale} translates text the code no longer shows"
    assert report.untranslated == [], f"{locale} has empty or fuzzy entries"
    assert report.duplicated == [], f"{locale} translates the same text in two files"
    assert report.bad_fields == [], f"{locale} entries whose {{fields}} differ from the English"


def test_marked_text_is_a_literal_the_catalogue_tools_can_read():
    assert check.unreadable_marks() == []


def test_the_code_marks_text_for_translation(wanted):
    # The check above would pass vacuously if extraction found nothing.
    assert len(wanted) > 0


def test_fields_compare_positional_and_named_placeholders():
    assert check.fields("Fought {} with {}: took {}.") == ["0", "1", "2"]
    assert check.fields("{1} then {0}") == ["0", "1"]
    assert check.fields("Health {health}/{max}") == ["health", "max"]


def test_locales_without_a_catalogue_read_english():
    assert locale_code("ja") == "en-US"
    assert locale_code("en-GB") == "en-US"
    assert locale_code("es-419") == "es-ES"  # Latin American Spanish reads the Spanish catalogue
    assert messages_for("ja") is ENGLISH
    assert ENGLISH("Health {health}", health=3) == "Health 3"


@pytest.mark.parametrize("locale", SHIPPED)
def test_a_shipped_locale_reads_every_entry_of_its_files(locale):
    reader = Messages(locale)
    entries = list(read_catalogue(locale))[1:]  # [0] is the header
    assert entries, f"{locale} has no messages"
    for entry in entries:
        if isinstance(entry.id, tuple):
            one, many = entry.string[0], entry.string[-1]
            # Fields besides {n} (plural(..., n, day=3)) are filled with their own names.
            others = {name: f"<{name}>" for name in check.fields(entry.id[0]) if name != "n"}
            assert reader.plural(*entry.id, 1, **others) == one.format(n=1, **others)
            assert reader.plural(*entry.id, 7, **others) == many.format(n=7, **others)
        elif not check.fields(entry.id):
            assert reader(entry.id) == entry.string
