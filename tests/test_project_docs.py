"""The repository stands on its own: its documents link only to files it has, name no outside documents, and
state the same rules the engine plays."""

from __future__ import annotations

import importlib
import re
import subprocess
from pathlib import Path

import pytest

from games.engine.rules import MAX_HEALTH, MAX_LOOPS, MIN_HEALTH, PRESETS
from games.engine.state import LOOP_BONUS, MERCHANT_HEAL, MERCHANT_OFFER, NECROMANCER_COST, weapon_price
from terminal.play import help_text

ROOT = Path(__file__).resolve().parents[1]
RULES = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")


def tracked_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / name for name in names.splitlines() if (ROOT / name).is_file()]


def test_nothing_refers_to_files_outside_the_repository_or_to_design_documents():
    pattern = re.compile(r"\.\./shared|shared/RULES|shared/seeds|\bseed 00\d|\bseeds?/00\d", re.IGNORECASE)
    offenders = []
    for path in tracked_files():
        if path.suffix in (".png", ".jpg") or path == Path(__file__).resolve():
            continue
        if path.parent.is_relative_to(ROOT / "docs" / "screens") and path.suffix in (".json", ".yml"):
            continue  # a screen's words as the bot and the table drew them (their seeds are the game's own)
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


DOCUMENTS = ["README.md", "CONTRIBUTING.md", "docs/ARCHITECTURE.md", "docs/REFERENCE.md", "docs/RULES.md",
             "docs/OPERATIONS.md", "docs/SCREENS.md", "docs/ACTIVITY.md", "docs/COACH.md"]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_relative_link_resolves(document):
    text = (ROOT / document).read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if "://" in target:
            continue
        assert (ROOT / document).parent.joinpath(target).resolve().exists(), f"{document} links to {target}"


def heading_anchors(path: Path) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    headings = re.findall(r"^#+ +(.+?) *$", text, flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_link_to_a_section_finds_its_heading(document):
    text = (ROOT / document).read_text(encoding="utf-8")
    for target, anchor in re.findall(r"\]\(([^)#\s]*)#([^)\s]+)\)", text):
        if "://" in target:
            continue
        linked = (ROOT / document).parent.joinpath(target).resolve() if target else ROOT / document
        assert anchor in heading_anchors(linked), f"{document} links to {target}#{anchor}"


def test_architecture_describes_code_not_how_people_work():
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8").lower()
    assert len(text.splitlines()) <= 200  # the map stays short enough to be read whole
    for phrase in ("checkout", "engineers", "git add", "commit only", "committed by"):
        assert phrase not in text


def test_the_rule_book_states_the_engines_numbers():
    assert f"top **{MERCHANT_OFFER}**" in RULES and f"heals **{MERCHANT_HEAL}**" in RULES
    assert f"costs **{weapon_price(1)} health** in the first loop" in RULES
    assert f"at most **{weapon_price(9)}**" in RULES
    assert f"pay **{NECROMANCER_COST} health**" in RULES
    assert f"at most **{MAX_LOOPS}** times" in RULES and f"adds **{LOOP_BONUS}**" in RULES
    assert f"from {MIN_HEALTH} to {MAX_HEALTH}" in RULES
    assert "own potion allowance" in RULES


def test_the_rule_book_lists_every_preset_and_the_readme_too():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in PRESETS:
        assert f"| `{name}` |" in RULES and f"| `{name}` |" in readme


def test_the_readme_teaches_the_moves_the_terminal_help_lists():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for move in ("`2b`", "`2w`", "`a`", "`h`", "`q`", "`b1`", "`l`", "`o`", "`e`"):
        assert move in readme
    every_move = help_text(PRESETS["expansion"])
    for move in ("1b", "1w", "b1..b6", " l ", "r / d   raise", "o / e   loop again / retire"):
        assert move in every_move


def test_the_readme_is_for_players_first_and_contributors_have_their_own_guide():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    heads = [line for line in readme.splitlines() if line.startswith("## ")]
    assert heads.index("## Play in a terminal (no Discord needed)") < heads.index("## Add the bot to a server") < \
        heads.index("## Run it")
    setup = ("python3 -m venv .venv && .venv/bin/pip install --require-hashes -r requirements.lock && "
             ".venv/bin/pip install --no-deps --no-build-isolation -e .")
    quick_start = (f"{setup}   # set up", ".venv/bin/python -m pytest   # run the tests")
    for command in quick_start:  # .ci/run runs the README's set-up line, read from the README
        assert command in readme and command in contributing
    assert [line for line in readme.splitlines() if line.endswith("# set up")] == [quick_start[0]]
    for contributor_word in ("ruff", "mypy", "lint-imports", "Cython", "benchmarks/", "capture_screens"):
        assert contributor_word not in readme and contributor_word in contributing
    for script in sorted((ROOT / "benchmarks").glob("*.py")):  # every benchmark a contributor can run is listed
        if script.name not in ("loopback_discord.py", "loopback_bot.py", "loopback_floor.py", "stand_in_discord.py"):
            assert f"benchmarks/{script.name}" in contributing, script.name


def test_every_command_is_documented_for_players_or_operators():
    from bot.cli import COMMANDS

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    operations = (ROOT / "docs" / "OPERATIONS.md").read_text(encoding="utf-8")
    for command in COMMANDS:
        assert f"scoundrel-bot {command}" in readme + operations, command


PACKAGES = sorted(path.parent.name for path in ROOT.glob("*/__init__.py") if path.parent.name != "tests")
COG_PACKAGES = sorted(path.parent.name for path in ROOT.glob("cogs/*/__init__.py"))
NAMED_IN_CODE = ["docs/ARCHITECTURE.md", "docs/REFERENCE.md"]
CLASSES = {"Store": "storage.store.Store", "ScoundrelBot": "bot.client.ScoundrelBot"}  # named by their methods


def code_spans(text: str) -> list[str]:
    """What a Markdown text writes in backticks (fenced blocks left out)."""
    return re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.DOTALL))


def named_paths(text: str) -> list[str]:
    """The repository paths a document names: in backticks (``cogs/game/view.py``, ``storage/backends/``) or as a
    link's target. A path counts when its first part is a top-level entry of the repository."""
    top = {path.relative_to(ROOT).parts[0] for path in tracked_files()}
    found = []
    for span in code_spans(text):
        found += re.findall(r"(?<![\w/:.<-])((?:[\w.-]+/)+[\w.-]*)", span)
    found += [target.removeprefix("../") for target in re.findall(r"\]\(([^)#\s]+)", text) if "://" not in target]
    return [path for path in found if path.split("/")[0] in top]


def named_modules(text: str) -> list[str]:
    """The dotted names a document gives in backticks under a top-level package or class: ``cogs.game.view``,
    ``app.solver.worker.solve_par``, ``cogs.EXTENSIONS``, ``Store.play``. Under ``bot``, only its modules
    (``bot.offers`` is the running bot's attribute, not the package's)."""
    pattern = rf"(?<![\w./])((?:{'|'.join([*PACKAGES, *CLASSES])})(?:\.\w+)+)"
    names = [name for span in code_spans(text) for name in re.findall(pattern, span)]
    names = [name for name in names if not name.startswith("bot.")
             or (ROOT / "bot" / f"{name.split('.')[1]}.py").exists()]
    return [CLASSES.get(name.split(".")[0], name.split(".")[0]) + name[name.index("."):] for name in names]


def resolves(name: str) -> bool:
    """Whether ``name`` is a module, or a module's attribute (``cogs.plumbing.respond.answer_in_time``)."""
    parts = name.split(".")
    for length in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:length]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[length:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def unresolved_names(text: str, document: Path) -> list[str]:
    missing = [path for path in named_paths(text) if not (ROOT / path).exists()
               and not document.parent.joinpath(path).exists()]
    return missing + [name for name in named_modules(text) if not resolves(name)]


@pytest.mark.parametrize("document", NAMED_IN_CODE)
def test_every_path_and_module_the_architecture_names_exists(document):
    path = ROOT / document
    text = path.read_text(encoding="utf-8")
    assert len(named_paths(text)) > 20 and len(named_modules(text)) > 10  # it names the code it describes
    assert unresolved_names(text, path) == []


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_path_a_document_names_exists(document):
    path = ROOT / document
    text = path.read_text(encoding="utf-8")
    assert [name for name in named_paths(text) if not (ROOT / name).exists()
            and not path.parent.joinpath(name).exists()] == []


def test_the_architecture_names_every_package():
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    spans = code_spans(text)
    assert [name for name in PACKAGES if f"{name}/" not in spans] == []
    assert [name for name in COG_PACKAGES if f"cogs/{name}/" not in spans] == []
    assert "cogs/offers.py" in spans and "cogs.EXTENSIONS" in text
