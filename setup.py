"""Compiles the solver's hot modules with Cython at install, when Cython and a C compiler are present, and builds
the table's browser client (``web/client`` into ``web/static``) when ``npm`` is present.

Everything else about the package is in ``pyproject.toml``. The compiled modules are plain Python files
(``COMPILED``); an augmenting ``.pxd`` next to one gives Cython its C types, and the ``.py`` keeps running
unchanged without compilation. Each extension is optional: without a C compiler (or if Cython fails on it)
the install still succeeds and the package runs the pure-Python modules.

Next to each built extension goes ``<extension file>.sources.json``: the SHA-256 of the ``.py`` and ``.pxd``
it was built from. ``games/solver/native.py`` loads the extension only while those files are unchanged, so an
edited source is never shadowed by an old build (rebuild: ``pip install -e .``).

The client's build is shipped in the repository too (``web/static``, checked against its sources by ``.ci/run``),
so a machine without Node.js installs a working table; with ``npm`` the install rebuilds it from the lockfile
(``npm ci && npm run build``). A failed client build warns and keeps the shipped one; ``SCOUNDREL_SKIP_CLIENT=1``
skips it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CompileError

# The one list of compiled modules (paths from the project root).
COMPILED = ["games/solver/rooms.py", "games/solver/search.py"]
# Extensions written in C (no Python twin of the same name: ``games/solver/native.py`` says what stands in).
C_MODULES = ["games/solver/_exact.c"]

# annotation_typing=False: the .py's annotations are for readers and type checkers; C types come from the .pxd
# alone (annotations like ``int`` would otherwise become C types and clash with it). Bounds checks and negative
# indexing stay on: the compiled module must behave exactly as the Python one.
DIRECTIVES = {"language_level": 3, "annotation_typing": False}

SIDECAR = ".sources.json"
CLIENT = Path(__file__).resolve().parent / "web" / "client"


def build_client() -> None:
    """``npm ci && npm run build`` in web/client when npm is there; the shipped build stays if it fails."""
    npm = shutil.which("npm")
    if npm is None or os.environ.get("SCOUNDREL_SKIP_CLIENT") or not (CLIENT / "package-lock.json").exists():
        return
    for step in (["ci", "--no-audit", "--no-fund"], ["run", "build"]):
        done = subprocess.run([npm, *step], cwd=CLIENT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            print(f"warning: `npm {' '.join(step)}` failed in web/client; the shipped client build is kept:\n"
                  f"{done.stderr[-2000:]}", file=sys.stderr)
            return


def source_files(py_path: str) -> list[Path]:
    """The files a compiled module is built from: its ``.py`` and, if present, its augmenting ``.pxd`` (or its
    ``.c``)."""
    py = Path(py_path)
    return [path for path in (py, py.with_suffix(".pxd")) if path.exists()]


def digests(py_path: str) -> dict[str, str]:
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in source_files(py_path)}


class CythonBuildExt(build_ext):
    """Translates each module with Cython just before compiling it (so a Cython error fails only that optional
    extension), and records next to the result the digests of the sources it came from. Builds the client first
    (this command runs in every install, editable or not)."""

    def run(self) -> None:
        build_client()
        super().run()

    def build_extension(self, ext: Extension) -> None:
        from Cython.Build import cythonize
        from Cython.Compiler.Errors import CompileError as CythonError

        sources = ext.sources
        recorded = digests(sources[0])
        if sources[0].endswith(".c"):
            super().build_extension(ext)
            built = Path(self.get_ext_fullpath(ext.name))
            built.with_name(built.name + SIDECAR).write_text(json.dumps(recorded, indent=1) + "\n")
            return
        try:
            (translated,) = cythonize([ext], compiler_directives=DIRECTIVES, force=self.force, quiet=True,
                                      build_dir=os.path.join("build", "cython"))
        except CythonError as exc:
            raise CompileError(f"Cython could not translate {sources[0]}: {exc}") from exc
        ext.sources = translated.sources  # the generated C file
        try:
            super().build_extension(ext)
        finally:
            ext.sources = sources
        built = Path(self.get_ext_fullpath(ext.name))
        built.with_name(built.name + SIDECAR).write_text(json.dumps(recorded, indent=1) + "\n")

    def copy_extensions_to_source(self) -> None:
        """Editable installs (``pip install -e``) put the extensions next to their sources; their records too."""
        super().copy_extensions_to_source()
        build_py = self.get_finalized_command("build_py")
        for ext in self.extensions:
            inplace, regular = (Path(p) for p in self._get_inplace_equivalent(build_py, ext))
            record = regular.with_name(regular.name + SIDECAR)
            if record.exists():
                self.copy_file(str(record), str(inplace.with_name(inplace.name + SIDECAR)), level=self.verbose)

    def get_outputs(self) -> list[str]:
        outputs = super().get_outputs()
        return outputs + [path + SIDECAR for path in outputs if os.path.exists(path + SIDECAR)]


def extensions() -> list[Extension]:
    try:
        import Cython  # noqa: F401  (a build requirement; missing only when building without isolation)
    except ImportError:
        return []
    return ([Extension(path[: -len(".py")].replace("/", "."), [path], optional=True) for path in COMPILED]
            + [Extension(path[: -len(".c")].replace("/", "."), [path], optional=True,
                         extra_compile_args=["-O3"]) for path in C_MODULES])


setup(ext_modules=extensions(), cmdclass={"build_ext": CythonBuildExt})
