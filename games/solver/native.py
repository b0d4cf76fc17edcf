"""Loads the solver's compiled modules (``search``, ``rooms``: Cython builds of the same ``.py`` files) or the
pure-Python ones, and never a compiled module older than its source.

``setup.py`` builds each listed module into an extension next to its ``.py`` and records beside it
(``<extension>.sources.json``) the SHA-256 of the ``.py`` and ``.pxd`` it came from. Python would import an
extension in preference to the ``.py`` even after the ``.py`` was edited, so ``load()`` (run by the package's
``__init__`` before anything imports those modules) checks every extension against its sources first:
- all match: the extensions are imported;
- any source changed since (or an extension without a record of its own, as ``cythonize -i`` leaves it, is
  older than its ``.py``/``.pxd``), or an extension fails to import: every one of them runs from its ``.py``
  instead, with one warning that says how to rebuild. All or none: a compiled module may call another one's
  C functions;
- ``SCOUNDREL_PURE_SOLVER=1`` in the environment: the ``.py`` files, silently (to compare the two).

``compiled()`` names the modules that run compiled, for the benchmark and ``python -m bot solve`` to print.

The exact search also has a C build of its own (``_exact.c``, no Python twin of that name): ``exact_search`` gives a
position the C search while its build matches ``_exact.c`` (the same record), else ``search.Search``; both answer
the same questions with the same results (``tests/solver/test_exact_core.py``).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import logging
import os
import sys
from pathlib import Path

log = logging.getLogger(__name__)

PURE_ENV = "SCOUNDREL_PURE_SOLVER"
RECORD = ".sources.json"  # suffix added to an extension's file name (setup.py writes it)
REBUILD = "rebuild it with `pip install -e .` (or set SCOUNDREL_PURE_SOLVER=1 to run pure Python on purpose)"

PACKAGE = __name__.rpartition(".")[0]
HERE = Path(__file__).resolve().parent

_compiled: tuple[str, ...] = ()
_why_pure = "no compiled build (no C compiler or no Cython at install)"


def extension_files(folder: Path = HERE) -> dict[str, Path]:
    """Module name -> the extension Python's import would pick for it, for every module of ``folder`` that has
    both a ``.py`` and an extension built for this interpreter."""
    found: dict[str, Path] = {}
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:  # in the order the import system tries them
        for path in sorted(folder.glob("*" + suffix)):
            name = path.name[: -len(suffix)]
            if "." not in name and (folder / f"{name}.py").exists():
                found.setdefault(name, path)
    return dict(sorted(found.items()))


def source_digests(folder: Path, name: str) -> dict[str, str]:
    """SHA-256 of the files module ``name`` is compiled from: its ``.py`` and its ``.pxd`` if there is one (or its
    ``.c``)."""
    paths = [folder / f"{name}.py", folder / f"{name}.pxd", folder / f"{name}.c"]
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in paths if path.exists()}


def stale_reason(folder: Path, name: str, extension: Path) -> str | None:
    """Why the extension may not match module ``name``'s sources, or None when it was built from them."""
    record = extension.with_name(extension.name + RECORD)
    current = source_digests(folder, name)
    built = extension.stat().st_mtime
    # setup.py writes the record just after the extension: an older record belongs to an earlier build.
    if record.exists() and record.stat().st_mtime >= built:
        try:
            built_from = json.loads(record.read_text())
        except (OSError, ValueError):
            return f"{record.name} is unreadable"
        if built_from != current:
            changed = sorted(set(built_from.items()) ^ set(current.items()))
            return f"{', '.join(sorted({file for file, _ in changed}))} changed since {extension.name} was built"
        return None
    # Built some other way (e.g. `cythonize -i`): trust it only if it is newer than every source.
    newer = [file for file in current if (folder / file).stat().st_mtime > built]
    if newer:
        return f"{', '.join(newer)} is newer than {extension.name}"
    return None


def load_pure(names: list[str], folder: Path = HERE) -> None:
    """Import the modules ``names`` of this package from their ``.py`` files, whatever extensions lie beside."""
    for name in names:
        sys.modules.pop(f"{PACKAGE}.{name}", None)
    finder = _SourceFinder({f"{PACKAGE}.{name}": folder / f"{name}.py" for name in names})
    sys.meta_path.insert(0, finder)  # while they import each other (search imports rooms)
    try:
        for name in names:
            importlib.import_module(f"{PACKAGE}.{name}")
    finally:
        sys.meta_path.remove(finder)


class _SourceFinder:
    def __init__(self, sources: dict[str, Path]):
        self.sources = sources

    def find_spec(self, fullname, path=None, target=None):
        source = self.sources.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def load() -> tuple[str, ...]:
    """Import the compiled modules if they are current, else their ``.py`` files; return the compiled ones."""
    global _compiled, _why_pure
    extensions = extension_files()
    if not extensions:
        return _compiled
    names = list(extensions)
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        load_pure(names)
        _compiled, _why_pure = (), f"{PURE_ENV}=1"
        return _compiled
    reasons = [reason for name, path in extensions.items() if (reason := stale_reason(HERE, name, path))]
    if not reasons:
        try:
            for name in names:
                importlib.import_module(f"{PACKAGE}.{name}")
        except ImportError as exc:
            reasons.append(f"a compiled module does not import ({exc})")
    if reasons:
        log.warning("Not using the compiled solver (%s): running the pure-Python one, slower; %s.",
                    "; ".join(reasons), REBUILD)
        load_pure(names)
        _compiled, _why_pure = (), "the build is not used: " + "; ".join(reasons)
    else:
        _compiled, _why_pure = tuple(names), ""
    return _compiled


def compiled() -> tuple[str, ...]:
    """The solver's Cython modules that run compiled (empty: all pure Python); the C search is ``exact_type``."""
    return tuple(name for name in _compiled if _is_extension(sys.modules.get(f"{PACKAGE}.{name}")))


def _is_extension(module) -> bool:
    loader = getattr(getattr(module, "__spec__", None), "loader", None)
    return isinstance(loader, importlib.machinery.ExtensionFileLoader)


def why_pure() -> str:
    """Why the solver runs as pure Python ("" when it runs compiled)."""
    return _why_pure


def describe() -> str:
    """One line for summaries: ``compiled (rooms, search, _exact)`` or ``pure Python``."""
    names = compiled() + ((EXACT,) if exact_type() is not None else ())
    return f"compiled ({', '.join(names)})" if names else "pure Python"


EXACT = "_exact"  # the C search's module (built from ``_exact.c``)
_exact_checked = False
_exact_type = None


def exact_type():
    """The C search's class if its build is current (and pure Python is not asked for), else None."""
    global _exact_checked, _exact_type
    if not _exact_checked:
        _exact_checked = True
        _exact_type = _load_exact()
    return _exact_type


def _load_exact():
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    built = [path for suffix in importlib.machinery.EXTENSION_SUFFIXES
             for path in sorted(HERE.glob(EXACT + suffix))]
    if not built or not (HERE / f"{EXACT}.c").exists():
        return None
    reason = stale_reason(HERE, EXACT, built[0])
    if reason is None:
        try:
            return importlib.import_module(f"{PACKAGE}.{EXACT}").Exact
        except ImportError as exc:
            reason = f"it does not import ({exc})"
    log.warning("Not using the C search (%s): running the slower one; %s.", reason, REBUILD)
    return None


def exact_search(deal):
    """One deal's exact search: the C one when built, else ``search.Search``."""
    exact = exact_type()
    if exact is None:
        from .search import Search
        return Search(deal)
    return exact(bytes(deal.card_class), deal.max_health, deal.early_end, deal.room_counts_at_death,
                 deal.limit_step)
