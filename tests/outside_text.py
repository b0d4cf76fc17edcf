"""Text as it can come from outside, for the property tests of every parser: any Unicode at any length, and the
cases that broke parsers before: digits other than 0-9 (``①``, ``²``, ``٣``, full-width ``５``), more digits than
``int`` reads (4,300), and codes that look almost right."""

from __future__ import annotations

from hypothesis import strategies as st

# Digits that ``str.isdigit`` accepts but are not 0-9: circled, superscript, Arabic-Indic, full-width, Devanagari...
ODD_DIGITS = "①②⑨²³⁰₁٣٠۴५５𝟙"
DIGITS = "0123456789" + ODD_DIGITS

any_text = st.text(max_size=300)  # every code point (surrogates included), short
huge_digits = st.integers(min_value=4_000, max_value=100_000).map(lambda n: "9" * n)
digit_text = st.text(alphabet=DIGITS, min_size=1, max_size=25)


def code_like(prefixes: str) -> st.SearchStrategy[str]:
    """A letter the parser knows, then digits of any script: ``T①``, ``b²``, ``W٣``."""
    return st.builds(lambda head, tail, case: (head + tail).lower() if case else head + tail,
                     st.sampled_from(prefixes), digit_text, st.booleans())


def outside(prefixes: str = "") -> st.SearchStrategy[str]:
    """Any text: plain, digit-heavy, huge, and (with ``prefixes``) codes with odd digits."""
    choices = [any_text, digit_text, huge_digits, st.builds(str.__add__, st.sampled_from(["#", "-", " ", ""]),
                                                             digit_text)]
    if prefixes:
        choices.append(code_like(prefixes))
    return st.one_of(choices)
