"""``Get-Variable`` prints the session's variables (guard/psvariables.py)."""

from __future__ import annotations

import functools

import pytest

from amplifier_hooks.guard.pstokens import Token
from amplifier_hooks.guard.psvariables import variables_shown
from tests.guard.conftest import decided

_ps = functools.partial(decided, tool="powershell")


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Get-Variable", ("ask", "environment-dump")),
        ("Get-Variable -Name *TOKEN* | Format-List", ("ask", "environment-dump")),
        ("Get-Variable -Name GITHUB_TOKEN -ValueOnly", ("deny", "secret-variable-name-print")),
        ("gv AWS_SECRET_ACCESS_KEY", ("deny", "secret-variable-name-print")),
    ],
)
def test_variables_printed(command: str, expected: tuple[str, str]) -> None:
    assert _ps(command) == expected


def test_a_plain_variable_is_not_stopped() -> None:
    assert _ps("Get-Variable -Name PSVersionTable -ValueOnly")[0] is None


def test_variables_shown() -> None:
    assert variables_shown(()) == "set"
    assert variables_shown((Token("word", "-Scope"), Token("word", "Global"))) == "set"
    assert variables_shown((Token("word", "-Include:*KEY*"),)) == "set"
    assert variables_shown((Token("sq", "A,B"), Token("word", "-ValueOnly"))) == "printenv A B"
