"""PowerShell's splatting: ``Remove-Item @p`` is bound with ``$p``'s hashtable as its
parameters (guard/pssplats.py)."""

from __future__ import annotations

import functools

import pytest

from amplifier_hooks.guard.pssplats import splat_tokens, splatted
from amplifier_hooks.guard.pstokens import Token
from amplifier_hooks.guard.pstree import statements
from tests.guard.conftest import decided

_ps = functools.partial(decided, tool="powershell")


@pytest.mark.parametrize(
    "command",
    [
        '$p = @{Path = "$HOME"; Recurse = $true; Force = $true}; Remove-Item @p',
        "$o = @{LiteralPath = 'C:\\Users\\dev'; Recurse = $true}\nRemove-Item @o -Force",
    ],
)
def test_a_splatted_delete_is_judged_as_written_out(command: str) -> None:
    assert _ps(command) == ("deny", "rm-root-or-home")


def test_a_splat_of_the_project_and_an_unknown_one_are_not_granted() -> None:
    assert _ps("$p = @{Path = 'build'; Recurse = $true}; Remove-Item @p")[0] is None
    assert _ps("Remove-Item @q")[0] is None  # set elsewhere: its parameters are not known


def test_splat_tokens() -> None:
    found = splat_tokens("Path = 'x'; Recurse = $true; WhatIf = $false", statements, 1)
    assert found == (Token("word", "-Path"), Token("sq", "x"), Token("word", "-Recurse"))
    assert splat_tokens("Path", statements, 1) is None
    rest = (Token("word", "@p"), Token("word", "-Force"))
    assert splatted(rest, {"p": (Token("word", "-Recurse"),)}) == (
        Token("word", "-Recurse"), Token("word", "-Force"))  # fmt: skip
    assert splatted(rest, {}) is None
