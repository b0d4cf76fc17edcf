"""``requirements.lock`` is the whole dependency set the set-up installs: every pin of ``pyproject.toml`` (the
dependencies, the dev tools and the build's own) stands in it at the same version, and every package in it has
its hashes. A pin changed without writing the lock again fails here (CONTRIBUTING.md: the lock)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
ENTRY = re.compile(r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>[^ ;\\]+)(?P<rest>[^\n]*)$")


def locked() -> dict[str, tuple[str, int]]:
    """Each locked package: (its version, how many hashes it has)."""
    entries: dict[str, tuple[str, int]] = {}
    current = None
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        found = ENTRY.match(line)
        if found:
            current = canonicalize_name(found["name"])
            entries[current] = (found["version"], 0)
        elif line.strip().startswith("--hash=sha256:") and current is not None:
            version, hashes = entries[current]
            entries[current] = (version, hashes + 1)
    return entries


def pinned() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    texts = (project["project"]["dependencies"] + project["project"]["optional-dependencies"]["dev"]
             + project["build-system"]["requires"])
    return [Requirement(text) for text in texts]


def test_every_pin_of_the_project_is_in_the_lock_at_its_version():
    lock = locked()
    for requirement in pinned():
        (specifier,) = requirement.specifier  # every dependency is pinned exactly
        assert specifier.operator == "==", requirement
        name = canonicalize_name(requirement.name)
        assert name in lock, f"{requirement} is not in requirements.lock: write the lock again"
        assert lock[name][0] == specifier.version, f"{requirement}, but the lock has {lock[name][0]}"


def test_every_locked_package_has_its_hashes():
    lock = locked()
    assert len(lock) > 40
    assert all(hashes > 0 for _, hashes in lock.values()), [name for name, (_, h) in lock.items() if not h]
