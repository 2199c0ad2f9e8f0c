"""PowerShell's moves of a repository's ``.git`` (``Move-Item``, its aliases ``mv``, ``mi``
and ``move``, named or positional parameters, ``Rename-Item``): read as ``mv .git X`` is,
and denied by the same rule (mv-git-dir), in the fixed places and in a real repository."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from amplifier_hooks.guard import Policy
from tests.guard.conftest import committed, decided, judged_with_git, project_places

_ps = functools.partial(decided, tool="powershell")

MOVES = [
    "Move-Item .git x",
    "mv .git x",
    "mi .git x",
    "move .git x",
    "Move-Item -Path .git -Destination x",
    "Move-Item -Destination x -Path .git",
    "Move-Item -Path:.git -Destination:x -Force",
    "mv -Path .git -Destination x",
    "Move-Item -LiteralPath '.git' ..\\backup",
    "Move-Item .\\.git\\ C:\\tmp\\old",
    "Get-Item .git | Move-Item -Destination x",
    "Rename-Item -Path .git -NewName git-old",
]


@pytest.mark.parametrize("command", MOVES)
def test_moving_git_away_is_denied_as_mv_is(command: str) -> None:
    assert _ps(command) == ("deny", "mv-git-dir"), command
    assert decided("mv .git x") == ("deny", "mv-git-dir")


@pytest.mark.parametrize("tool", ["PowerShell", "pwsh"])
@pytest.mark.parametrize("command", MOVES[:6])
def test_in_a_real_repository_too(tmp_path: Path, pack: Policy, tool: str, command: str) -> None:
    top = committed(tmp_path / "proj", {"a.txt": "x\n"})
    data = {"tool_name": tool, "tool_input": {"command": command}}
    found = judged_with_git(data, pack, project_places(top))
    assert (found.decision, found.rule) == ("deny", "mv-git-dir"), command


@pytest.mark.parametrize(
    "command",
    ["Move-Item notes.txt docs", "mv build out", "Move-Item -Path .github -Destination x"],
)
def test_other_moves_are_not_this_rule(command: str) -> None:
    assert _ps(command)[1] != "mv-git-dir"
