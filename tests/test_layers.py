"""The layers stated as import-linter contracts (pyproject.toml) hold, and they can fail.

``make test`` runs ``lint-imports`` too; here each contract is also shown to break when
the import it forbids is planted in a copy of the package, so a contract that no longer
checks anything (a renamed module, a loosened layer) is noticed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
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
    assert "Contracts: 5 kept, 0 broken." in done.stdout


PLANTS = {
    # The core reaching back into the Amplifier layer: what calling.py used to do.
    "core-imports-amplifier": (
        "calling.py",
        "from amplifier_hooks.amplifier.foreign_results import from_foreign\n",
        [
            "Layers: each imports only the layers below it BROKEN",
            "The core never imports the Amplifier layer, the bundle loader or the CLI BROKEN",
            "amplifier_hooks.calling -> amplifier_hooks.amplifier.foreign_results",
        ],
    ),
    # A type-only import counts: it is a dependency all the same.
    "coordinator-types-bundles": (
        "coordinator.py",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from amplifier_hooks.bundles import Bundle\n",
        [
            "The core never imports the Amplifier layer, the bundle loader or the CLI BROKEN",
            "amplifier_hooks.coordinator -> amplifier_hooks.bundles",
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
    "kit-reaches-bundles": (
        "kit/config.py",
        "def _later():\n    from amplifier_hooks.bundles import failures\n    return failures\n",
        [
            "The module kit never imports the bundle loader (bundles build on the kit) BROKEN",
            "amplifier_hooks.kit.config -> amplifier_hooks.bundles.failures",
        ],
    ),
}


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_a_planted_import_breaks_its_contract(plant: str, tmp_path: Path) -> None:
    target, code, expected = PLANTS[plant]
    copy = tmp_path / "src" / "amplifier_hooks"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    with (copy / target).open("a", encoding="utf-8") as file:
        file.write("\n" + code)
    done = lint_imports(tmp_path / "src", tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    for line in expected:
        assert line in done.stdout, done.stdout
