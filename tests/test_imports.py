"""The import rules the layer contracts (pyproject.toml, run by `lint-imports`) cannot state themselves: no
module imports itself back through others, no module imports its own package (whose ``__init__`` imports its
modules), and the layers are whole top-level packages, every one of them placed. Imports under
``if TYPE_CHECKING:`` do not run and are left out, as in the contracts, except for cycles: the type checker follows
them, so none may close a cycle either (nor may an import inside a function, which grimp counts too). And the
code's shape: small modules, and short folders in the Discord surface."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "terminal", "web", "app", "storage", "games")
SURFACES = ("cogs", "terminal", "web")
# What the surfaces may import below the application layer: each package's public API, its __init__.
PUBLIC = ("storage", "games.engine", "games.duel", "games.solver", "games.picture", "games.i18n")


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected groups of modules (Tarjan), each a cycle of imports, largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return sorted(found, key=len, reverse=True)


@pytest.fixture(scope="module")
def every_import() -> grimp.ImportGraph:
    """Every import written, those under ``if TYPE_CHECKING:`` and inside functions included."""
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=False, cache_dir=None)


def test_no_module_imports_itself_back(graph):
    assert cycles(graph) == []


def test_no_module_imports_itself_back_counting_every_import(every_import):
    assert every_import.direct_import_exists(importer="bot.client", imported="cogs.plumbing.errors")  # in a function
    assert cycles(every_import) == []
    # the cogs name the bot without importing the process: it is a cogs.plumbing.interaction.Bot
    assert not every_import.chain_exists(importer="cogs", imported="bot", as_packages=True)


def test_no_module_imports_its_own_package(graph):
    # Importing games.engine.state runs games/engine/__init__.py first, which imports state: a module that imports its
    # package works or fails depending on which was imported first. Import the sibling that holds the name.
    offenders = sorted((module, imported) for module in graph.modules
                       for imported in graph.find_modules_directly_imported_by(module)
                       if module.startswith(imported + "."))
    assert offenders == []


def test_the_layers_are_the_top_level_packages():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    linter = config["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in linter["contracts"] if c["id"] == "layers"]
    placed = [name.strip() for layer in layers for name in layer.replace("|", ":").split(":")]
    assert all("." not in name for name in placed)  # a layer is a whole package, never a list of modules
    packages = sorted(path.parent.name for path in ROOT.glob("*/__init__.py") if path.parent.name != "tests")
    assert sorted(placed) == packages == sorted(linter["root_packages"])


def test_the_surfaces_reach_storage_and_the_games_only_through_their_public_api(every_import):
    # A surface that imports storage.backends or games.engine.state is tied to how they are built, not to what they
    # offer: the packages re-export what the surfaces use (their __init__), and the application layer does the rest.
    # The statements are read, not the modules grimp resolves: `from games.solver import solve` names the package
    # even though a module games.solver.solve exists too.
    statements = sorted(
        (module, detail["line_contents"])
        for surface in SURFACES
        for module in every_import.find_descendants(surface)
        for imported in every_import.find_modules_directly_imported_by(module)
        if imported.split(".")[0] in ("storage", "games")
        for detail in every_import.get_import_details(importer=module, imported=imported)
    )
    assert statements  # the surfaces do use storage and the games
    offenders = [(module, line) for module, line in statements
                 if not any(line.startswith(f"from {package} import ") for package in PUBLIC)]
    assert offenders == []


def store_calls(path: Path) -> list[str]:
    """The calls in ``path`` made on a store: ``store.play(…)``, ``self.bot.store.load_game(…)``,
    ``store.duels.load_duel(…)``; a store handed on to a use case (``solo.move(store, …)``) is not one."""
    def on_a_store(node: ast.expr) -> bool:
        while isinstance(node, ast.Attribute):
            if node.attr == "store":
                return True
            node = node.value
        return isinstance(node, ast.Name) and node.id == "store"

    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node.func)}" for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and on_a_store(node.func.value)]


def test_the_surfaces_reach_the_game_only_through_the_application_layer(graph):
    # One door: no cogs/, web/ or terminal/ module calls a Store method or imports storage (the records they draw
    # come from app.records); pyproject's contract "one-door" holds the imports for every surface module too.
    calls = {str(path.relative_to(ROOT)): store_calls(path) for surface in SURFACES
             for path in (ROOT / surface).rglob("*.py")}
    assert store_calls(ROOT / "app" / "play" / "solo.py")  # the use cases do call it: the check sees such calls
    assert {path: found for path, found in calls.items() if found} == {}
    importers = sorted(module for surface in SURFACES for module in graph.find_descendants(surface)
                       if any(imported.split(".")[0] == "storage"
                              for imported in graph.find_modules_directly_imported_by(module)))
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (door,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "one-door"]
    assert sorted(door["source_modules"]) == sorted(SURFACES) and door["forbidden_modules"] == ["storage"]
    assert "ignore_imports" not in door and importers == []


# The Discord surface's packages every feature may use: the command tree, words, plumbing, the game message.
SHARED_COGS = {"cogs.commands", "cogs.text", "cogs.plumbing", "cogs.game_message"}


def test_the_discord_features_import_none_of_each_other(graph):
    # The contract "features-apart" names every feature package of cogs/ (each one not shared) and lists no
    # exception: what two features share is in a shared package, app/, or handed over by the bot (cogs/offers.py).
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (apart,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "features-apart"]
    packages = {f"cogs.{folder.name}" for folder in (ROOT / "cogs").iterdir() if (folder / "__init__.py").exists()}
    assert set(apart["modules"]) == packages - SHARED_COGS and "ignore_imports" not in apart
    crossing = sorted((module, imported) for feature in apart["modules"] for module in graph.find_descendants(feature)
                      for imported in graph.find_modules_directly_imported_by(module)
                      if imported.startswith("cogs.") and not imported.startswith(feature + ".")
                      and ".".join(imported.split(".")[:2]) in apart["modules"])
    assert crossing == []


# The compiled solver's search keeps its hot loop in one module, compiled whole with Cython (games/solver/search.pxd).
LONG_ALLOWED = {"games/solver/search.py"}


def test_modules_stay_small_and_the_discord_surfaces_folders_short():
    lengths = {str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
               for package in PACKAGES for path in (ROOT / package).rglob("*.py")}
    assert len(lengths) > 100 and "cogs/game_message/view.py" in lengths
    assert {path: n for path, n in lengths.items() if n > 400 and path not in LONG_ALLOWED} == {}
    folders = {folder: len(list(folder.glob("*.py"))) for folder in (ROOT / "cogs").rglob("*") if folder.is_dir()}
    assert {str(f.relative_to(ROOT)): n for f, n in folders.items() if n > 10} == {}
