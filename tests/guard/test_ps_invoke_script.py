"""``$ExecutionContext.InvokeCommand.InvokeScript(S)`` (and ``NewScriptBlock``,
``ExpandString``) run S as Invoke-Expression does (guard/psdotnet.py)."""

from __future__ import annotations

import functools

import pytest

from tests.guard.conftest import decided

_ps = functools.partial(decided, tool="powershell")


@pytest.mark.parametrize(
    "command",
    [
        "$ExecutionContext.InvokeCommand.InvokeScript('Remove-Item -Recurse -Force $HOME')",
        "$ExecutionContext.InvokeCommand.NewScriptBlock($s).Invoke()",
        '$ExecutionContext.InvokeCommand.ExpandString("$(Get-Date)")',
    ],
)
def test_code_run_from_a_string_is_denied(command: str) -> None:
    assert _ps(command) == ("deny", "windows-invoke-expression")


def test_a_plain_method_call_is_not() -> None:
    assert _ps("$ExecutionContext.SessionState.Path.CurrentLocation")[0] is None
