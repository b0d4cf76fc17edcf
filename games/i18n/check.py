"""Check the message catalogues against the code: ``python -m games.i18n.check`` lists what is missing.

The code's text is found the way gettext tools find it: Babel extracts every ``tr("…")``,
``tr.plural("…", "…", n)`` and ``N_("…")`` from the sources. A catalogue is complete when it translates
each of those exactly once (across its ``messages/*.po`` files), keeps the same ``{fields}``, and holds
nothing the code no longer says.
"""

from __future__ import annotations

import ast
import string
import sys
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from games.i18n.messages import SHIPPED, catalogue_files

ROOT = Path(__file__).resolve().parents[2]
# folders under the project root whose Python files hold player text
SOURCES = ("bot", "cogs", "terminal", "web", "app", "games")
KEYWORDS = {"tr": None, "N_": None, "plural": (1, 2)}


def code_messages() -> dict[str | tuple[str, str], str]:
    """Every message the code marks -> where it is first marked (``path:line``)."""
    found: dict = {}
    for folder in SOURCES:
        extracted = extract_from_dir(ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS,
                                     comment_tags=(), strip_comment_tags=True)
        for filename, line, message, _comments, _context in extracted:
            found.setdefault(message, f"{folder}/{filename}:{line}")
    return found


def unreadable_marks() -> list[str]:
    """Marks Babel cannot read (an f-string, a joined string, or text given to a ``Messages`` that is not named
    ``tr``): their text would never reach the catalogues, so it would never be translated."""
    bad = []
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                if name in KEYWORDS and isinstance(node.args[0], (ast.JoinedStr, ast.BinOp)):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
                # for_reader(interaction)("…") translates text no tool extracts: name the Messages ``tr`` first.
                if isinstance(node.func, ast.Call) and isinstance(node.args[0], ast.Constant) \
                        and isinstance(node.args[0].value, str):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return bad


def fields(text: str) -> list[str]:
    """The ``str.format`` fields of ``text``, in a comparable form (``{}`` numbered as format does)."""
    names, auto = [], 0
    for _literal, name, _spec, _conversion in string.Formatter().parse(text):
        if name is None:
            continue
        if name == "":
            name, auto = str(auto), auto + 1
        names.append(name)
    return sorted(names)


@dataclass
class Report:
    locale: str
    missing: list = field(default_factory=list)
    stale: list = field(default_factory=list)
    untranslated: list = field(default_factory=list)
    duplicated: list = field(default_factory=list)
    bad_fields: list = field(default_factory=list)

    @property
    def problems(self) -> int:
        return sum(map(len, (self.missing, self.stale, self.untranslated, self.duplicated, self.bad_fields)))


def check(locale: str, wanted: dict | None = None) -> Report:
    wanted = code_messages() if wanted is None else wanted
    report = Report(locale)
    seen: dict = {}
    for file in catalogue_files(locale):
        with file.open("rb") as handle:
            catalogue = read_po(handle, locale=locale.replace("-", "_"))
        for message in catalogue:
            if not message.id:
                continue
            where = f"{file.name}:{message.lineno}"
            if message.id in seen:
                report.duplicated.append((message.id, seen[message.id], where))
                continue
            seen[message.id] = where
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.fuzzy or not all(forms):
                report.untranslated.append((message.id, where))
                continue
            sources = message.id if isinstance(message.id, tuple) else (message.id,)
            if any(fields(form) != fields(sources[-1]) for form in forms):  # type: ignore[arg-type]
                report.bad_fields.append((message.id, where))
    report.missing = [(m, where) for m, where in wanted.items() if m not in seen]
    report.stale = [(m, where) for m, where in seen.items() if m not in wanted]
    return report


def po_entry(message, where: str) -> str:
    """A ``.po`` entry for ``message`` with an empty translation, to be filled in."""
    def quoted(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(message, tuple):
        return (f"#: {where}\nmsgid {quoted(message[0])}\nmsgid_plural {quoted(message[1])}\n"
                f'msgstr[0] ""\nmsgstr[1] ""\n')
    return f'#: {where}\nmsgid {quoted(message)}\nmsgstr ""\n'


def main() -> int:
    if sys.argv[1:2] == ["--missing-po"]:  # python -m games.i18n.check --missing-po de: entries to translate
        for message, where in check(sys.argv[2]).missing:
            print(po_entry(message, where))
        return 0
    wanted = code_messages()
    status = 0
    for where in unreadable_marks():
        print(f"{where}: text marked for translation must be a plain string literal")
        status = 1
    for locale in SHIPPED:
        report = check(locale, wanted)
        for kind in ("missing", "stale", "untranslated", "duplicated", "bad_fields"):
            for entry in getattr(report, kind):
                print(f"{locale} {kind}: {entry!r}")
        status = status or int(report.problems > 0)
    print(f"{len(wanted)} messages in the code; catalogues: {', '.join(SHIPPED)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
