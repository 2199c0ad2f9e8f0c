"""``python -m TOOL`` is judged as TOOL too (guard/pymodules.py)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard.pymodules import module_program
from tests.guard.conftest import decided


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("python -m mkdocs gh-deploy", ("ask", "publish-release-task")),
        ("python3.12 -m mkdocs gh-deploy --force", ("ask", "publish-release-task")),
        ("python -m poetry publish", ("ask", "publish-package")),
        ("python -m keyring get pypi me", ("deny", "credential-print-store")),
        ("python -m pip install git+https://github.com/x/y", ("ask", "install-from-url")),
        (
            "env PIP_NO_INPUT=1 python3 -m pip install git+https://github.com/x/y",
            ("ask", "install-from-url"),
        ),
    ],
)
def test_a_module_run_is_judged_as_its_program(command: str, expected: tuple[str, str]) -> None:
    assert decided(command) == expected


@pytest.mark.parametrize(
    "command",
    ["python -m mkdocs serve", "python -m pip install -e .", "python -m pytest -q",
     "python -m build", "python -m sphinx -b html docs build/html"],
)  # fmt: skip
def test_everyday_module_runs_are_not_stopped(command: str) -> None:
    assert decided(command)[0] is None


def test_module_program() -> None:
    assert module_program("python3", ("-m", "mkdocs", "gh-deploy")) == ("mkdocs", 2)
    assert module_program("python3", ("-I", "-W", "ignore", "-m", "twine", "upload")) == (
        "twine", 5)  # fmt: skip
    assert module_program("python", ("-msphinx", "-b", "html")) == ("sphinx-build", 1)
    assert module_program("python", ("script.py", "-m", "twine")) is None  # the script's
    assert module_program("python", ("-m", "http.server")) is None  # not a program named
    assert module_program("node", ("-m", "twine")) is None
