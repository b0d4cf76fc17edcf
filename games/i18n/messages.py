"""What players read, in their language: the ``messages/*.po`` catalogues of every shipped locale.

``messages_for(locale)`` gives a ``Messages`` for a Discord locale (``discord.Locale`` or its value).
Locales without a catalogue read the English source text. Text is a ``str.format`` template with named
fields (``tr("Health {health}", health=h)``); the engine's event templates have positional fields and are
translated with ``Messages.event``. Pure: no Discord, so the picture renderer and the terminal can use it.
"""

from __future__ import annotations

import gettext
from functools import cache
from importlib import resources
from io import BytesIO

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from games.engine.words import template_of

SOURCE = "en-US"
# Discord locales with a catalogue (their folder names under locales/ are Discord's locale values).
SHIPPED = ("de", "fr", "es-ES")
# Discord locales read in a shipped catalogue of the same language.
_ALIASES = {"es-419": "es-ES"}


def locale_code(locale) -> str:
    """The shipped locale whose catalogue ``locale`` reads, or ``SOURCE`` (English)."""
    value = getattr(locale, "value", locale) or SOURCE
    value = _ALIASES.get(value, value)
    return value if value in SHIPPED else SOURCE


def catalogue_files(code: str) -> list:
    """The ``.po`` files that together make the message catalogue of ``code``."""
    folder = resources.files(__package__).joinpath("locales", code, "messages")
    if not folder.is_dir():
        return []
    return sorted((f for f in folder.iterdir() if f.name.endswith(".po")), key=lambda f: f.name)


def read_catalogue(code: str) -> Catalog:
    """Every translated, non-fuzzy message of ``code``'s catalogue files, merged into one catalogue."""
    merged = Catalog(locale=code.replace("-", "_"), domain="messages")
    for file in catalogue_files(code):
        with file.open("rb") as handle:
            part = read_po(handle, locale=code.replace("-", "_"))
        for message in part:
            if message.id and message.string and not message.fuzzy:
                merged.add(message.id, message.string)
    return merged


@cache
def _translations(code: str) -> gettext.NullTranslations:
    if code == SOURCE:
        return gettext.NullTranslations()
    compiled = BytesIO()
    write_mo(compiled, read_catalogue(code))
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


class Messages:
    """The text of one locale. Call it with English text (and its fields) to get the reader's text."""

    __slots__ = ("locale", "_gettext", "_ngettext")

    def __init__(self, locale: str) -> None:
        self.locale = locale
        translations = _translations(locale)
        self._gettext = translations.gettext
        self._ngettext = translations.ngettext

    def __call__(self, text: str, /, **fields) -> str:
        translated = self._gettext(text)
        return translated.format(**fields) if fields else translated

    def plural(self, singular: str, plural: str, n: int, /, **fields) -> str:
        """The form of ``singular``/``plural`` that suits ``n`` in this language (``{n}`` is filled in)."""
        return self._ngettext(singular, plural, n).format(n=n, **fields)

    def event(self, event) -> str:
        """An engine event's text: its template translated, then its cards and numbers filled in."""
        return self.engine_text(event.text, event.template)

    def engine_text(self, text: str, template: tuple | None = None) -> str:
        """Text the game engine wrote (an event, a refusal), translated by the template it was made from
        (``games.engine.words``); text from no known template reads as it was written."""
        if template is None:
            template = template_of(text)
        if template is None:
            return text
        return self._gettext(template[0]).format(*template[1:])

    def __repr__(self) -> str:
        return f"Messages({self.locale!r})"


def messages_for(locale) -> Messages:
    """The ``Messages`` of a Discord locale (unknown locales read English)."""
    return _messages(locale_code(locale))


@cache
def _messages(code: str) -> Messages:
    return Messages(code)


ENGLISH = messages_for(SOURCE)
