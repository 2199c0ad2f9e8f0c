"""The development environment is the locked one: what `make test` installed is exactly
what requirements/dev.txt pins, so an upstream release cannot turn the suite red."""

from __future__ import annotations

import json
import platform
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Any

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9_.\-\[\]]+==[^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def locked(path: Path) -> dict[str, str]:
    """name -> version for every pin of ``path`` whose marker holds on this machine."""
    pins: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = PIN.match(line)
        if match is None:
            continue
        requirement = Requirement(match.group(1))
        if match.group(2) and not Marker(match.group(2)).evaluate():
            continue
        (spec,) = requirement.specifier
        pins[canonicalize_name(requirement.name)] = spec.version
    return pins


def test_every_locked_package_is_installed_at_its_locked_version() -> None:
    pins = locked(ROOT / "requirements" / "dev.txt")
    assert len(pins) > 40  # the parser read the file
    wrong = {}
    for name, version in pins.items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = "missing"
        if installed != version:
            wrong[name] = (version, installed)
    assert not wrong, f"installed versions differ from requirements/dev.txt: {wrong}"


def test_nothing_is_installed_that_the_lock_does_not_name() -> None:
    pins = locked(ROOT / "requirements" / "dev.txt")
    # pip is what `python -m venv` seeds and the Makefile's bootstrap uses to install uv.
    ours = {"amplifier-hooks", "pip"} | {
        canonicalize_name(tomllib.loads(p.read_text())["project"]["name"])
        for p in ROOT.glob("modules/*/pyproject.toml")
    }
    installed = {canonicalize_name(d.metadata["Name"]) for d in metadata.distributions()}
    extra = installed - set(pins) - ours
    assert not extra, f"installed but not locked (run 'make lock'?): {sorted(extra)}"


def test_the_lock_covers_every_declared_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    declared = [
        *project["project"]["dependencies"],
        *project["project"]["optional-dependencies"]["postgres"],
        *project["dependency-groups"]["dev"],
    ]
    pins = locked(ROOT / "requirements" / "dev.txt")
    for text in declared:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is declared in pyproject.toml but not locked"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{name}=={pins[name]} in the lock does not satisfy {text!r}: run 'make lock'"
        )


def test_the_reference_core_and_claude_code_are_pinned() -> None:
    assert list(locked(ROOT / "requirements" / "reference-core.txt")) == ["amplifier-core"]
    lock = json.loads((ROOT / "tools" / "claude-code" / "package-lock.json").read_text())
    wanted = json.loads((ROOT / "tools" / "claude-code" / "package.json").read_text())
    version = wanted["dependencies"]["@anthropic-ai/claude-code"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), "Claude Code is pinned to one version"
    assert lock["packages"]["node_modules/@anthropic-ai/claude-code"]["version"] == version
    assert lock["packages"]["node_modules/@anthropic-ai/claude-code"]["integrity"]


def floor(requirement: Requirement) -> str:
    """The lowest version ``requirement`` allows: its one ``>=`` bound."""
    (low,) = [spec.version for spec in requirement.specifier if spec.operator == ">="]
    return low


def test_every_runtime_floor_is_the_version_the_lowest_environment_tests() -> None:
    """`make test` runs the tests of what calls a dependency on requirements/lowest.txt: a
    range in pyproject.toml whose floor is not the version pinned there was never tested
    (a floor nothing installs, or one a dependency's own floor lifts)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pins = locked(ROOT / "requirements" / "lowest.txt")
    wrong = {}
    for text in project["project"]["dependencies"]:
        requirement = Requirement(text)
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        name = canonicalize_name(requirement.name)
        if Version(pins.get(name, "0")) != Version(floor(requirement)):
            wrong[name] = (floor(requirement), pins.get(name, "missing"))
    assert not wrong, f"floor in pyproject.toml vs requirements/lowest.txt: {wrong}"


def test_the_lowest_environment_has_the_dev_lock_s_test_tools() -> None:
    """Only the runtime floors are under test there: pytest and its plug-ins are the ones
    the main run uses."""
    lowest = locked(ROOT / "requirements" / "lowest.txt")
    dev = locked(ROOT / "requirements" / "dev.txt")
    for tool in ("pytest", "pytest-asyncio", "pytest-timeout", "hypothesis"):
        assert lowest[tool] == dev[tool], tool


NPM_HERE = {
    "os": sys.platform,  # "linux", "darwin" and "win32" are npm's names too
    "cpu": {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64"}.get(
        platform.machine().lower(), platform.machine().lower()
    ),
    "libc": "glibc" if platform.libc_ver()[0] == "glibc" else "musl",
}


def installs_here(entry: dict[str, Any]) -> bool:
    """Whether npm installs a package-lock entry on this machine: its ``os``, ``cpu``
    and ``libc`` lists (npm's rule: a name admits, a ``!name`` excludes) admit it here."""
    for field, here in NPM_HERE.items():
        values = entry.get(field) or []
        if f"!{here}" in values:
            return False
        if values and here not in values and any(not v.startswith("!") for v in values):
            return False
    return True


def test_every_npm_package_installed_here_carries_its_integrity_hash() -> None:
    """The agent CLIs' locks pin each package npm installs here by its hash. npm leaves
    the hash out of two kinds of entry only, and neither is downloaded on its own here:
    another platform's optional binary (npm never fetches its manifest on this one; the
    parent pins its exact version), and a package bundled inside its parent's tarball
    (``inBundle``: the parent's hash covers it)."""
    locks = sorted((ROOT / "tools").glob("*/package-lock.json"))
    assert len(locks) >= 8
    for path in locks:
        packages = json.loads(path.read_text())["packages"]
        for name, entry in packages.items():
            if not name or entry.get("link") or entry.get("inBundle"):
                continue
            if installs_here(entry):
                assert entry.get("integrity", "").startswith("sha512-"), f"{path}: {name}"
            else:
                assert entry.get("optional"), f"{path}: {name} never installs here"
