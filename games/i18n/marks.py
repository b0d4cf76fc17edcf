"""``N_``: the mark for text kept in a constant and translated where it is shown (``games.i18n`` re-exports it)."""

from __future__ import annotations


def N_(text: str) -> str:  # noqa: N802 - gettext's own name for "mark, translate later"
    """Mark ``text`` for the catalogues without translating it (it is translated where it is shown)."""
    return text
