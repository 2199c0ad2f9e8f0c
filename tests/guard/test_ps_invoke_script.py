"""``$ExecutionContext.InvokeCommand.InvokeScript(S)`` (and ``NewScriptBlock``,
``ExpandString``) run S as Invoke-Expression does (guard/psdotnet.py)."""

from __future__ import annotations

import pytest

from amplifier_hooks.guard import judge
from tests.guard.conftest import DEV_PLACES, _default_pack


def _ps(command: str) -> tuple[str | None, str | None]:
    call = {"tool_name": "powershell", "tool_input": {"command": command}}
    found = judge(call, _default_pack(), DEV_PLACES)
    return found.decision, found.rule


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
