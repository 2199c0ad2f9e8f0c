"""The layers stated as import-linter contracts (pyproject.toml) hold, and they can fail.

``make test`` runs ``lint-imports`` too; here each contract is also shown to break when
the import it forbids is planted in a copy of the package, so a contract that no longer
checks anything (a renamed module, a loosened layer) is noticed. Every package and module
at the top of `amplifier_hooks` is in the layers contract, and no two packages (at any
depth) import each other, directly or through others.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import amplifier_hooks
from tests.unavailable import unavailable

PACKAGE_DIR = Path(amplifier_hooks.__file__).parent
ROOT = PACKAGE_DIR.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


@pytest.fixture(autouse=True)
def _lint_imports_installed() -> None:
    if not LINT_IMPORTS.exists():
        unavailable(f"lint-imports is not installed at {LINT_IMPORTS}")


def lint_imports(package_parent: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the repository's contracts over the package found first on
    the path under ``package_parent``."""
    env = {**os.environ, "PYTHONPATH": str(package_parent)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


def test_the_repository_keeps_every_contract(tmp_path: Path) -> None:
    done = lint_imports(ROOT, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 6 kept, 0 broken." in done.stdout


PLANTS = {
    # The core reaching back into the Amplifier layer: what calling.py used to do.
    "core-imports-amplifier": (
        "engine/calling.py",
        "from amplifier_hooks.amplifier.foreign_results import from_foreign\n",
        [
            "Layers: each imports only the layers below it BROKEN",
            "The core never imports the Amplifier layer, the bundle loader or the CLI BROKEN",
            "amplifier_hooks.engine.calling -> amplifier_hooks.amplifier.foreign_results",
        ],
    ),
    # A type-only import counts: it is a dependency all the same.
    "coordinator-types-bundles": (
        "session/coordinator.py",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from amplifier_hooks.bundles import Bundle\n",
        [
            "The core never imports the Amplifier layer, the bundle loader or the CLI BROKEN",
            "amplifier_hooks.session.coordinator -> amplifier_hooks.bundles",
        ],
    ),
    # An import inside a function counts too: it is the same dependency, only later.
    "approvals-call-the-cli": (
        "approvals/gate.py",
        "def _later():\n    from amplifier_hooks.cli import main\n    return main\n",
        [
            "The library never imports the CLI BROKEN",
            "amplifier_hooks.approvals.gate -> amplifier_hooks.cli",
        ],
    ),
    "module-api-reaches-bundles": (
        "modules/config.py",
        "def _later():\n    from amplifier_hooks.bundles import failures\n    return failures\n",
        [
            "The module-author API never imports the bundle loader (bundles build on it) BROKEN",
            "amplifier_hooks.modules.config -> amplifier_hooks.bundles.failures",
        ],
    ),
    # The cycle kit -> coordinator -> approvals -> kit cannot come back.
    "approvals-reach-the-module-api": (
        "approvals/models.py",
        "def _later():\n    from amplifier_hooks.modules import view\n    return view\n",
        [
            "Layers: each imports only the layers below it BROKEN",
            "amplifier_hooks.approvals.models -> amplifier_hooks.modules.view",
        ],
    ),
    # Nor can bundles <-> amplifier: the Amplifier layer is below the bundle loader.
    "amplifier-reaches-bundles": (
        "amplifier/alias.py",
        "def _later():\n    from amplifier_hooks.bundles import reading\n    return reading\n",
        [
            "Layers: each imports only the layers below it BROKEN",
            "amplifier_hooks.amplifier.alias -> amplifier_hooks.bundles.reading",
        ],
    ),
    # What every command hook's process runs first stays apart from the rest of the library.
    "relay-reaches-logs": (
        "transports/relay/wire.py",
        "def _later():\n    from amplifier_hooks import logs\n    return logs\n",
        [
            "The relay of hooks and of test imports no more of the library",
            "amplifier_hooks.transports.relay.wire -> amplifier_hooks.logs",
        ],
    ),
    # The guard's layer holds as soon as the package exists: it is below the approvals.
    "guard-reaches-approvals": (
        "guard/__init__.py",
        "from amplifier_hooks.approvals import models\n",
        [
            "Layers: each imports only the layers below it BROKEN",
            "amplifier_hooks.guard -> amplifier_hooks.approvals.models",
        ],
    ),
}


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_a_planted_import_breaks_its_contract(plant: str, tmp_path: Path) -> None:
    target, code, expected = PLANTS[plant]
    copy = tmp_path / "src" / "amplifier_hooks"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / target).parent.mkdir(exist_ok=True)
    with (copy / target).open("a", encoding="utf-8") as file:
        file.write("\n" + code)
    done = lint_imports(tmp_path / "src", tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    for line in expected:
        assert line in done.stdout, done.stdout


def _layered() -> tuple[set[str], set[str]]:
    """(every name in the layers contract, the names marked optional)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [
        contract["layers"]
        for contract in config["tool"]["importlinter"]["contracts"]
        if contract["id"] == "layers"
    ]
    names: set[str] = set()
    optional: set[str] = set()
    for layer in layers:
        for item in layer.replace(":", "|").split("|"):
            name = item.strip()
            if name.startswith("("):
                name = name.strip("()")
                optional.add(name)
            names.add(name)
    return names, optional


def test_every_package_and_module_is_in_a_layer() -> None:
    present = {
        path.stem if path.suffix == ".py" else path.name
        for path in PACKAGE_DIR.iterdir()
        if (path.suffix == ".py" and path.name != "__init__.py")
        or (path.is_dir() and (path / "__init__.py").exists())
    }
    assert {"engine", "session", "modules", "transports", "typing"} <= present  # saw them
    names, optional = _layered()
    assert present - names == set(), "not in the layers contract"
    # A layer named for something absent must say it may be absent (the guard, until it lands).
    assert names - present <= optional, "a required layer names nothing"


def test_no_two_packages_import_each_other() -> None:
    """At every depth: siblings in a package never depend on each other both ways, even
    through other modules (import-linter's layers see only the top level)."""
    import grimp

    graph = grimp.build_graph("amplifier_hooks", include_external_packages=False, cache_dir=None)
    both_ways = [
        (first, second)
        for package in sorted(graph.modules)
        for first, second in itertools.combinations(sorted(graph.find_children(package)), 2)
        if graph.chain_exists(first, second, as_packages=True)
        and graph.chain_exists(second, first, as_packages=True)
    ]
    assert both_ways == []
