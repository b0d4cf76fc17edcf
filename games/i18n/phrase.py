"""Text built by pure code (the duel engine, the solver) that is translated later, where a reader sees it.

A ``Phrase`` is the English text itself (a ``str``, so terminals, logs and English tests read it as before)
that also remembers its ``N_``-marked template and named fields; ``phrase.translated(tr)`` builds it again in
``tr``'s language. A field may itself be a ``Phrase`` (a move's words inside a review sentence): it is
translated too; a tuple field is its items, each translated, joined by spaces (a room's mistakes). Phrases
pickle, so they cross the solver's process boundary.
"""

from __future__ import annotations

from games.i18n.messages import ENGLISH, Messages


class Phrase(str):
    """English text with its template and fields kept for translation (``Phrase(N_("Room {n}"), n=3)``)."""

    template: str
    fields: dict
    plural_template: str | None
    sentence: bool

    def __new__(cls, template: str, /, *, _plural: str | None = None, _sentence: bool = False, **fields) -> Phrase:
        text = _build(ENGLISH, template, _plural, _sentence, fields)
        phrase = super().__new__(cls, text)
        phrase.template, phrase.plural_template, phrase.sentence, phrase.fields = template, _plural, _sentence, fields
        return phrase

    @classmethod
    def plural(cls, singular: str, plural: str, n: int, /, **fields) -> Phrase:
        """The singular or plural form by ``n`` (filled in as ``{n}``), chosen per language when translated."""
        return cls(singular, _plural=plural, n=n, **fields)

    @classmethod
    def sentence_of(cls, template: str, /, **fields) -> Phrase:
        """A sentence: its first letter is a capital in every language, whatever field it starts with."""
        return cls(template, _sentence=True, **fields)

    def translated(self, tr: Messages) -> str:
        return _build(tr, self.template, self.plural_template, self.sentence, self.fields)

    def __reduce__(self):
        return _restore, (self.template, self.plural_template, self.sentence, self.fields)


def _restore(template, plural, sentence, fields) -> Phrase:
    return Phrase(template, _plural=plural, _sentence=sentence, **fields)


def _build(tr: Messages, template: str, plural: str | None, sentence: bool, fields: dict) -> str:
    values = {name: _value(value, tr) for name, value in fields.items()}
    if plural is not None:
        n = values.pop("n")
        text = tr.plural(template, plural, n, **values)
    else:
        text = tr(template, **values) if values else tr(template)
    return text[:1].upper() + text[1:] if sentence else text


def _value(value, tr: Messages):
    if isinstance(value, Phrase):
        return value.translated(tr)
    if isinstance(value, tuple):
        return " ".join(str(_value(item, tr)) for item in value)
    return value


def translated(text: str, tr: Messages) -> str:
    """``text`` in ``tr``'s language: a ``Phrase`` is rebuilt, plain marked text is looked up as it is."""
    return text.translated(tr) if isinstance(text, Phrase) else tr(text)
