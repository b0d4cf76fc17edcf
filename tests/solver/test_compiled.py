"""The compiled solver (``search``/``rooms`` built by Cython, ``setup.py``) against the very same ``.py`` files run
as Python, and the guard that never lets an out-of-date build shadow its source (``games/solver/native.py``).

Without a compiled build these tests are skipped (a machine without a C compiler runs pure Python), except under
CI (``CI=true``), where a missing build is a failure.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import games.solver
from games.engine import PRESETS, apply, deal, legal_actions
from games.solver import native
from games.solver.deal import Deal
from games.solver.position import Position
from games.solver.search import Search
from tests.solver.brute_force import play, start_state
from tests.solver.test_agreement import SOLVABLE

SOLVER_DIR = Path(games.solver.__file__).resolve().parent
ROOT = SOLVER_DIR.parent.parent
ON_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
NOT_BUILT = "the solver does not run compiled (`pip install -e .` builds it)"


@pytest.fixture(scope="module")
def compiled_build():
    """The names of the compiled modules; skips (fails under CI) when nothing is compiled."""
    names = games.solver.compiled()
    if os.environ.get(native.PURE_ENV, "") not in ("", "0"):
        pytest.skip(f"{native.PURE_ENV}=1: the pure solver was asked for")
    if not {"search", "rooms"} <= set(names):
        why = f"{NOT_BUILT}: {native.why_pure() or f'only {names} are compiled'}"
        if ON_CI:
            pytest.fail(f"CI=true but {why}")
        pytest.skip(why)
    return names


@pytest.fixture(scope="module")
def pure(compiled_build):
    """The solver package loaded a second time, as ``pure_solver``, from the same folder with
    SCOUNDREL_PURE_SOLVER=1: its ``search`` and ``rooms`` are the ``.py`` files, next to the compiled ones."""
    name = "pure_solver"
    spec = importlib.util.spec_from_file_location(name, SOLVER_DIR / "__init__.py",
                                                  submodule_search_locations=[str(SOLVER_DIR)])
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    previous = os.environ.get(native.PURE_ENV)
    os.environ[native.PURE_ENV] = "1"
    try:
        spec.loader.exec_module(package)
    finally:
        if previous is None:
            del os.environ[native.PURE_ENV]
        else:
            os.environ[native.PURE_ENV] = previous
    package.position = importlib.import_module(f"{name}.position")
    yield package
    for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[module]


def test_the_compiled_modules_are_the_extensions_and_the_pure_ones_the_py_files(compiled_build, pure):
    for module in ("search", "rooms"):
        assert getattr(games.solver, module).__file__.endswith(".so")
        assert getattr(pure, module).__file__ == str(SOLVER_DIR / f"{module}.py")
    assert pure.compiled() == ()
    assert pure.solve.__module__ == "pure_solver.solve" and pure.search.Search is not games.solver.search.Search


def deals_to_compare(preset_name: str):
    """Deals of 14-24 cards at random start and maximum health, small deals at low health (deaths, scored
    exactly too), and a full deal."""
    rng = random.Random(f"compiled-against-pure-{preset_name}")
    base = PRESETS[preset_name]
    for size, health in [((14, 24), (7, 25))] * 4 + [((8, 14), (1, 4))] * 3:
        start = rng.randint(*health)
        rules = base.with_health(start, max(start, rng.choice([start, 20, 25])))
        yield rules, tuple(rng.sample(rules.full_deck(), rng.randint(*size)))
    yield base, deal(base, rng.randrange(1 << 32))


def test_the_facts_of_a_set_of_cards_are_the_same_compiled_and_pure(compiled_build, pure):
    # Monsters up to the Ace: their counts are packed 4 bits a value, up to bit 60 (a 32-bit shift would wrap).
    rules = PRESETS["classic"]
    rng = random.Random("facts-compiled-against-pure")
    deck = deal(rules, rng.randrange(1 << 32))
    fast = Search(Deal(rules, deck))
    slow = pure.search.Search(importlib.import_module("pure_solver.deal").Deal(rules, deck))
    ace = next(i for i, card in enumerate(deck) if fast.kind[i] == 0 and card.value == 14)
    for cards in [(), (ace,)] + [tuple(rng.sample(range(len(deck)), rng.randint(1, 12))) for _ in range(200)]:
        assert fast._facts(cards) == slow._facts(cards), cards


@pytest.mark.parametrize("preset_name", ["classic", "lenient"])
def test_room_plans_deaths_and_groups_are_the_same_compiled_and_pure(compiled_build, pure, preset_name):
    # The walk's packed numbers and fixed tables are C integers and arrays compiled, Python ints and lists pure.
    rules = PRESETS[preset_name]
    deck = rules.full_deck()
    fast, slow = Deal(rules, deck), importlib.import_module("pure_solver.deal").Deal(rules, deck)
    rng = random.Random(f"rooms-compiled-against-pure-{preset_name}")
    for _ in range(400):
        room = tuple(rng.sample(range(len(deck)), rng.choice([1, 2, 3, 4, 4, 4])))
        weapon = rng.choice([0, 3, 10])
        limit = rng.choice([99, rng.randint(2, 15)]) if weapon else 0
        for resolve_all in (False, True):
            plans, deaths = games.solver.rooms.room_options(fast, room, weapon, limit, resolve_all, True, True)
            assert (plans, deaths) == pure.rooms.room_options(slow, room, weapon, limit, resolve_all, True, True)
            assert games.solver.rooms.plan_groups(plans, fast.card_class) == pure.rooms.plan_groups(
                plans, slow.card_class)


@pytest.mark.parametrize("preset_name", SOLVABLE)
def test_par_and_line_are_the_same_compiled_and_pure(compiled_build, pure, preset_name):
    pars = []
    for rules, deck in deals_to_compare(preset_name):
        fast, slow = games.solver.solve(rules, deck), pure.solve(rules, deck)
        codes = f"{rules.key} {' '.join(c.code for c in deck)}"
        assert fast.best_score == slow.best_score, codes
        assert play(rules, deck, fast.actions).score == fast.best_score, codes
        assert (fast.actions, fast.states) == (slow.actions, slow.states), f"the two searches differ: {codes}"
        pars.append(fast.best_score)
    assert min(pars) <= 0 < max(pars), pars  # deaths and wins were compared


@pytest.mark.parametrize("preset_name", ["classic", "rules-sheet", "early-win"])
def test_best_scores_of_mid_game_positions_are_the_same_compiled_and_pure(compiled_build, pure, preset_name):
    """Mid-room, after avoids, near the end: every position of a line that strays from the best now and then."""
    rng = random.Random(f"compiled-positions-{preset_name}")
    compared = 0
    for start in (20, 7):
        rules = PRESETS[preset_name].with_health(start)
        deck = tuple(rng.sample(rules.full_deck(), 24))
        fast, slow = Position(rules, deck), pure.position.Position(rules, deck)
        state = start_state(rules, deck)
        while not state.over:
            value = fast.value(state)
            assert value == slow.value(state), f"{rules.key} {[c.code for c in deck]} {state.history}"
            action, kept = fast.best_action(state)
            assert kept == value and (action, kept) == slow.best_action(state)
            state = apply(state, rng.choice(legal_actions(state)) if rng.random() < 0.3 else action)
            compared += 1
    assert compared > 10


# --- the staleness guard -------------------------------------------------------------------------------------

PROBE = """
import logging, sys
logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
import games.solver, games.solver.search
print("compiled=" + ",".join(games.solver.compiled()))
print("search=" + games.solver.search.__file__)
"""


def copy_of_the_package(tmp_path: Path) -> Path:
    """The whole ``games`` package with its compiled solver, under ``tmp_path`` (modification times kept)."""
    shutil.copytree(ROOT / "games", tmp_path / "games", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path / "games" / "solver"


def probe(tmp_path: Path, **env: str) -> tuple[str, str, str]:
    """Import the copy in a fresh interpreter: (compiled modules, search's file, what it logged)."""
    environ = {k: v for k, v in os.environ.items() if k != native.PURE_ENV} | env
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env=environ | {"PYTHONPATH": str(tmp_path)},
                          capture_output=True, text=True, timeout=60, check=True)
    lines = dict(line.split("=", 1) for line in done.stdout.splitlines())
    return lines["compiled"], lines["search"], done.stderr


def test_an_unchanged_copy_runs_compiled(compiled_build, tmp_path):
    copy_of_the_package(tmp_path)
    compiled, search, logged = probe(tmp_path)
    assert compiled == "rooms,search" and search.endswith(".so") and logged == ""


def test_an_edited_source_runs_pure_with_one_warning_that_says_how_to_rebuild(compiled_build, tmp_path):
    solver = copy_of_the_package(tmp_path)
    search_py = solver / "search.py"
    search_py.write_text(search_py.read_text() + "\nEDITED_SINCE_THE_BUILD = True\n")
    os.utime(search_py, (1, 1))  # older than the build: the recorded digest catches it, not the file's time
    compiled, search, logged = probe(tmp_path)
    assert compiled == "" and search == str(solver / "search.py")
    warnings = [line for line in logged.splitlines() if line.startswith("WARNING")]
    assert len(warnings) == 1, logged
    assert "search.py changed since search." in warnings[0] and "pip install -e ." in warnings[0]


def test_a_new_pxd_beside_the_source_makes_the_build_out_of_date(compiled_build, tmp_path):
    solver = copy_of_the_package(tmp_path)
    (solver / "rooms.pxd").write_text((solver / "rooms.pxd").read_text() + "\n# edited\n"
                                      if (solver / "rooms.pxd").exists() else "# new C declarations\n")
    compiled, search, logged = probe(tmp_path)
    assert compiled == "" and search.endswith("search.py") and "rooms.pxd changed" in logged


@pytest.mark.parametrize("record", ["none", "older than the build"])
def test_a_build_without_its_record_is_trusted_only_while_newer_than_its_sources(compiled_build, tmp_path, record):
    """An extension built some other way (``cythonize -i``) has no record of its own: its file time decides."""
    solver = copy_of_the_package(tmp_path)
    for path in solver.glob("*" + native.RECORD):
        if record == "none":
            path.unlink()
        else:
            path.write_text('{"search.py": "from an earlier build"}')
            os.utime(path, (2, 2))
    for source in list(solver.glob("search.p*")) + list(solver.glob("rooms.p*")):
        os.utime(source, (1, 1))
    assert probe(tmp_path)[0] == "rooms,search"
    os.utime(solver / "rooms.py")  # edited now: newer than its extension
    compiled, search, logged = probe(tmp_path)
    assert compiled == "" and search.endswith("search.py") and "rooms.py is newer than rooms." in logged


def test_the_environment_variable_forces_the_pure_modules_silently(compiled_build, tmp_path):
    copy_of_the_package(tmp_path)
    compiled, search, logged = probe(tmp_path, SCOUNDREL_PURE_SOLVER="1")
    assert compiled == "" and search.endswith("search.py") and logged == ""


def test_an_extension_that_does_not_import_leaves_every_module_pure(compiled_build, tmp_path):
    """Its record matches (the sources are unchanged) but the file is broken: rooms alone would not do."""
    solver = copy_of_the_package(tmp_path)
    (broken,) = solver.glob("search.*.so")
    broken.write_bytes(b"not a shared object")
    compiled, search, logged = probe(tmp_path)
    assert compiled == "" and search.endswith("search.py")
    assert "a compiled module does not import" in logged and "pip install -e ." in logged
